import {
  Award,
  BookOpen,
  CalendarClock,
  ChartColumn,
  CirclePlus,
  ClipboardCheck,
  CloudDownload,
  FolderOpen,
  GraduationCap,
  LayoutDashboard,
  Library,
  Mail,
  MessagesSquare,
  Newspaper,
  Settings,
  Shield,
  User,
  Users,
  UsersRound,
  Video,
  Wallet,
  Receipt,
  type IconComponent,
} from "~/components/icons";
import type { NavIcon } from "~/lib/sidebar";

const icons: Record<NavIcon, IconComponent> = {
  dashboard: LayoutDashboard,
  profile: User,
  formations: BookOpen,
  forum: MessagesSquare,
  messages: Mail,
  newsletter: Newspaper,
  certificates: Award,
  admin: Shield,
  users: Users,
  courses: Library,
  analytics: ChartColumn,
  finances: Wallet,
  payments: Receipt,
  create: CirclePlus,
  teacher: GraduationCap,
  students: UsersRound,
  sessions: Video,
  quiz: ClipboardCheck,
  content: FolderOpen,
  schedule: CalendarClock,
  settings: Settings,
  downloads: CloudDownload,
};

export function NavIconGlyph({ icon, className = "size-5 shrink-0" }: { icon: NavIcon; className?: string }) {
  const Icon = icons[icon];
  return <Icon aria-hidden="true" className={className} />;
}
