import type { Role } from "./roles";

/** The signed-in shells' navigation (document 2, "Shells"). Browser-safe. */

export type NavIcon =
  | "dashboard"
  | "profile"
  | "formations"
  | "forum"
  | "messages"
  | "newsletter"
  | "certificates"
  | "admin"
  | "users"
  | "courses"
  | "analytics"
  | "finances"
  | "payments"
  | "create"
  | "teacher"
  | "students"
  | "sessions"
  | "quiz"
  | "content"
  | "schedule"
  | "settings"
  | "downloads";

export interface NavItem {
  label: string;
  to: string;
  icon: NavIcon;
  /** Active only on the exact path (index pages). */
  end?: boolean;
  /** Shows the count of unread messages. */
  badge?: "unreadMessages";
}

export interface NavGroup {
  /** Heading of the group; undefined for the main list. */
  label?: string;
  items: NavItem[];
}

export type ShellKind = "main" | "teacher";

/** The student/admin sidebar: the admin group only for admins, the teacher group only for teachers. */
export function mainNavigation(role: Role | null | undefined): NavGroup[] {
  const groups: NavGroup[] = [
    {
      items: [
        { label: "Tableau de Bord", to: "/dashboard", icon: "dashboard", end: true },
        { label: "Mon Profil", to: "/dashboard/profile", icon: "profile" },
        { label: "Mes Formations", to: "/dashboard/formations", icon: "formations" },
        { label: "Mes paiements", to: "/dashboard/paiements", icon: "payments" },
        { label: "Forum", to: "/dashboard/forum", icon: "forum" },
        { label: "Messagerie", to: "/dashboard/messages", icon: "messages", badge: "unreadMessages" },
        { label: "Certificats", to: "/dashboard/certificates", icon: "certificates" },
        { label: "Téléchargements", to: "/dashboard/telechargements", icon: "downloads" },
      ],
    },
  ];
  if (role === "admin") {
    groups.push({
      label: "Administration",
      items: [
        { label: "Vue d'ensemble", to: "/admin", icon: "admin", end: true },
        { label: "Gestion Utilisateurs", to: "/admin/users", icon: "users" },
        { label: "Mes Cours", to: "/admin/my-courses", icon: "courses" },
        { label: "Statistiques", to: "/admin/analytics", icon: "analytics" },
        { label: "Finances", to: "/admin/financial", icon: "finances" },
        { label: "Certificats délivrés", to: "/admin/certificates", icon: "certificates" },
        { label: "Inscriptions", to: "/admin/inscriptions", icon: "students" },
        { label: "Messages de contact", to: "/admin/messages", icon: "messages" },
        { label: "Lettre d'information", to: "/admin/newsletter", icon: "newsletter" },
        { label: "Créer Cours", to: "/admin/create-course", icon: "create" },
      ],
    });
  }
  if (role === "teacher") {
    groups.push({
      label: "Enseignement",
      items: [
        { label: "Portail Enseignant", to: "/teacher", icon: "teacher", end: true },
        { label: "Mes Cours", to: "/teacher/courses", icon: "courses" },
        { label: "Créer Cours", to: "/teacher/create-course", icon: "create" },
      ],
    });
  }
  return groups;
}

/** The teacher sidebar. */
export function teacherNavigation(): NavGroup[] {
  return [
    {
      items: [
        { label: "Tableau de Bord", to: "/teacher", icon: "dashboard", end: true },
        { label: "Mes Cours", to: "/teacher/courses", icon: "courses" },
        { label: "Mes Étudiants", to: "/teacher/students", icon: "students" },
        { label: "Sessions Zoom", to: "/teacher/sessions", icon: "sessions" },
        { label: "Quiz & Évaluations", to: "/teacher/quiz", icon: "quiz" },
        { label: "Messagerie", to: "/teacher/messages", icon: "messages", badge: "unreadMessages" },
        { label: "Statistiques", to: "/teacher/analytics", icon: "analytics" },
      ],
    },
    {
      label: "Gestion des Cours",
      items: [
        { label: "Créer un Cours", to: "/teacher/create-course", icon: "create" },
        { label: "Gérer Contenus", to: "/teacher/content", icon: "content" },
        { label: "Planifier Session", to: "/teacher/schedule", icon: "schedule" },
      ],
    },
    {
      items: [
        { label: "Mes Commissions", to: "/teacher/commissions", icon: "finances" },
        { label: "Paramètres", to: "/teacher/settings", icon: "settings" },
      ],
    },
  ];
}

/** Is `to` the current page (exact) or an ancestor of it? */
export function isActivePath(pathname: string, item: Pick<NavItem, "to" | "end">): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (item.end) return path === item.to;
  return path === item.to || path.startsWith(`${item.to}/`);
}

/** Sidebar collapse cookie (document 2: kept 7 days). */
export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

/** Reads the collapse state from a Cookie header: "collapsed" is stored as sidebar_state=collapsed. */
export function readSidebarCollapsed(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SIDEBAR_COOKIE) return rest.join("=") === "collapsed";
  }
  return false;
}

export function sidebarCookieValue(collapsed: boolean, secure = false): string {
  return `${SIDEBAR_COOKIE}=${collapsed ? "collapsed" : "expanded"}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The collapse button's tip, in the server's HTML and when a script flips it. */
export const collapseTitle = (collapsed: boolean) =>
  collapsed ? "Déplier la barre latérale (Ctrl+B)" : "Réduire la barre latérale (Ctrl+B)";
