import type { SVGProps } from "react";
import appSpriteHref from "./app-sprite.svg?no-inline";
import type { AppIconName } from "./names";

/** What an icon takes: lucide's <svg> attributes (className, aria-hidden, aria-label...). */
export type IconProps = Omit<SVGProps<SVGSVGElement>, "name">;
/** An icon component, where one is passed as a value (navigation items, badges). */
export type IconComponent = (props: IconProps) => React.JSX.Element;

/**
 * lucide's <svg>, drawing a symbol of a sprite (one cached file) instead of repeating the paths
 * in every page: same attributes, so the look (stroke, size classes, fill-*) is unchanged.
 * Decorative by default (aria-hidden); pass aria-hidden={false} and a label otherwise.
 */
export function SpriteIcon({ href, strokeWidth = 2, ...props }: { href: string } & IconProps) {
  return (
    <svg
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      <use href={href} />
    </svg>
  );
}

function appIcon(name: AppIconName): IconComponent {
  const href = `${appSpriteHref}#${name}`;
  const Icon = (props: IconProps) => <SpriteIcon href={href} {...props} />;
  Icon.displayName = name;
  return Icon;
}

// The signed-in pages' icons, named as in lucide-react (see docs/decisions/0029-app-icon-sprite.md).
export const Activity = appIcon("Activity");
export const ArrowDown = appIcon("ArrowDown");
export const ArrowLeft = appIcon("ArrowLeft");
export const ArrowRight = appIcon("ArrowRight");
export const ArrowUp = appIcon("ArrowUp");
export const Award = appIcon("Award");
export const BadgeCheck = appIcon("BadgeCheck");
export const Banknote = appIcon("Banknote");
export const BarChart3 = appIcon("BarChart3");
export const Bell = appIcon("Bell");
export const BookOpen = appIcon("BookOpen");
export const CalendarClock = appIcon("CalendarClock");
export const CalendarDays = appIcon("CalendarDays");
export const CalendarPlus = appIcon("CalendarPlus");
export const ChartColumn = appIcon("ChartColumn");
export const Check = appIcon("Check");
export const CheckCircle2 = appIcon("CheckCircle2");
export const Circle = appIcon("Circle");
export const CircleCheck = appIcon("CircleCheck");
export const CircleDollarSign = appIcon("CircleDollarSign");
export const CirclePlus = appIcon("CirclePlus");
export const CircleX = appIcon("CircleX");
export const ClipboardCheck = appIcon("ClipboardCheck");
export const ClipboardList = appIcon("ClipboardList");
export const Clock = appIcon("Clock");
export const CloudDownload = appIcon("CloudDownload");
export const CloudUpload = appIcon("CloudUpload");
export const CreditCard = appIcon("CreditCard");
export const Download = appIcon("Download");
export const EyeOff = appIcon("EyeOff");
export const FilePen = appIcon("FilePen");
export const FileSpreadsheet = appIcon("FileSpreadsheet");
export const FileText = appIcon("FileText");
export const Flag = appIcon("Flag");
export const FolderOpen = appIcon("FolderOpen");
export const GraduationCap = appIcon("GraduationCap");
export const HardDrive = appIcon("HardDrive");
export const Hash = appIcon("Hash");
export const Heart = appIcon("Heart");
export const Hourglass = appIcon("Hourglass");
export const KeyRound = appIcon("KeyRound");
export const LayoutDashboard = appIcon("LayoutDashboard");
export const Library = appIcon("Library");
export const Lock = appIcon("Lock");
export const LogOut = appIcon("LogOut");
export const Mail = appIcon("Mail");
export const Menu = appIcon("Menu");
export const MessageCircle = appIcon("MessageCircle");
export const MessageSquare = appIcon("MessageSquare");
export const MessageSquarePlus = appIcon("MessageSquarePlus");
export const MessagesSquare = appIcon("MessagesSquare");
export const Monitor = appIcon("Monitor");
export const Newspaper = appIcon("Newspaper");
export const PanelLeftClose = appIcon("PanelLeftClose");
export const PanelLeftOpen = appIcon("PanelLeftOpen");
export const Pencil = appIcon("Pencil");
export const Percent = appIcon("Percent");
export const Pin = appIcon("Pin");
export const PlayCircle = appIcon("PlayCircle");
export const Plus = appIcon("Plus");
export const Receipt = appIcon("Receipt");
export const RefreshCw = appIcon("RefreshCw");
export const RotateCcw = appIcon("RotateCcw");
export const Save = appIcon("Save");
export const Scale = appIcon("Scale");
export const Search = appIcon("Search");
export const Send = appIcon("Send");
export const Settings = appIcon("Settings");
export const Share2 = appIcon("Share2");
export const Shield = appIcon("Shield");
export const ShieldCheck = appIcon("ShieldCheck");
export const Smartphone = appIcon("Smartphone");
export const Star = appIcon("Star");
export const Target = appIcon("Target");
export const Trash2 = appIcon("Trash2");
export const TrendingUp = appIcon("TrendingUp");
export const Upload = appIcon("Upload");
export const User = appIcon("User");
export const UserPlus = appIcon("UserPlus");
export const Users = appIcon("Users");
export const UsersRound = appIcon("UsersRound");
export const Video = appIcon("Video");
export const Wallet = appIcon("Wallet");
export const WalletCards = appIcon("WalletCards");
export const X = appIcon("X");
