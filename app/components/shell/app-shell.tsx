import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { GraduationCap, LogOut, Menu, PanelLeftClose, PanelLeftOpen, Search, X } from "~/components/icons";
import { OfflineSync } from "~/components/offline/offline-sync";
import { useUnreadMessages } from "~/components/messaging/unread-messages";
import { NotificationBell } from "~/components/notifications/notification-bell";
import { RealtimeProvider } from "~/components/realtime/realtime";
import { Avatar } from "~/components/ui/avatar";
import { cx } from "~/components/ui/control";
import { LIMITS } from "~/lib/limits";
import { NoScriptToast, Toaster, useServerToast, type ToastMessage } from "~/components/ui/toaster";
import { collapseTitle, isActivePath, sidebarCookieValue, type NavGroup, type ShellKind } from "~/lib/sidebar";
import { NavIconGlyph } from "./nav-icon";
import { usePageKind } from "~/components/page-kind";

export interface ShellUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface AppShellProps {
  kind: ShellKind;
  user: ShellUser;
  navigation: NavGroup[];
  /** Collapse state read from the cookie on the server, so the first render is right. */
  collapsed: boolean;
  toast?: ToastMessage | null;
  unreadNotifications: number;
  /** The sidebar's « Messagerie » badge, as the server counted it (then kept live). */
  unreadMessages: number;
  children: ReactNode;
}

const MOBILE_QUERY = "(max-width: 767.98px)";

/**
 * The signed-in shell: a sidebar (collapsible, state in a 7-day cookie, Ctrl/Cmd+B), a slide-over
 * panel under 768 px (a <details> element, so it opens without JavaScript), the top bar and the
 * toasts. Everything here works without JavaScript; scripts only make it instant. The markup is
 * the same whether React hydrates the page (teachers, admins) or not (the learner's space, where
 * app/enhance/shell.ts gives the same behaviours from the data-shell-* attributes): collapsing
 * flips the root's data-collapsed, and the classes follow through the `collapsed:` variant.
 */
export function AppShell(props: AppShellProps) {
  return (
    <RealtimeProvider>
      <ShellFrame {...props} />
    </RealtimeProvider>
  );
}

/** The shell inside its live connection (the badge and the bell follow it). */
function ShellFrame({
  kind,
  user,
  navigation,
  collapsed: initialCollapsed,
  toast,
  unreadNotifications,
  unreadMessages: initialUnreadMessages,
  children,
}: AppShellProps) {
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const { hydrate } = usePageKind();
  const unreadMessages = useUnreadMessages({
    userId: user.id,
    initial: initialUnreadMessages,
    messagesHref: kind === "teacher" ? "/teacher/messages" : "/dashboard/messages",
  });
  const mobileMenu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useServerToast(toast);

  const toggleCollapsed = useCallback(() => {
    setCollapsed((previous) => {
      const next = !previous;
      document.cookie = sidebarCookieValue(next, window.location.protocol === "https:");
      return next;
    });
  }, []);

  // The installable app's service worker (app/sw/service-worker.ts): built only for production.
  useEffect(() => {
    if (import.meta.env.PROD && "serviceWorker" in navigator) void navigator.serviceWorker.register("/sw.js").catch(() => {});
  }, []);

  // Ctrl/Cmd+B: collapse the sidebar, or open/close the slide-over on small screens.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== "b" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      if (window.matchMedia(MOBILE_QUERY).matches) {
        const details = mobileMenu.current;
        if (details) details.open = !details.open;
      } else {
        toggleCollapsed();
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [toggleCollapsed]);

  // The slide-over closes after a navigation and on Escape.
  useEffect(() => {
    if (mobileMenu.current) mobileMenu.current.open = false;
  }, [location.pathname, location.search]);
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const details = mobileMenu.current;
      if (event.key === "Escape" && details?.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const redirectTo = `${location.pathname}${location.search}`;
  const fullName = `${user.firstName} ${user.lastName}`.trim() || user.email;

  return (
    <>
      <div
        className="min-h-screen bg-slate-50 md:flex"
        data-shell=""
        data-collapsed={collapsed ? "true" : "false"}
        data-user-id={user.id}
        data-messages-href={kind === "teacher" ? "/teacher/messages" : "/dashboard/messages"}
      >
        <a
          href="#contenu"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-brand-700 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Aller au contenu
        </a>

        {/* Under 768 px the sidebar is a slide-over panel: this <details> opens it without
              JavaScript, and the aside, its next sibling, shows while it is open (peer-open). One
              navigation serves both layouts. */}
        <details ref={mobileMenu} className="peer group md:hidden" data-shell-menu="">
          <summary
            className={cx(
              "fixed top-3 left-3 z-50 flex cursor-pointer list-none items-center gap-2 rounded-md bg-white p-2 text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden",
              "group-open:left-[15rem] group-open:shadow",
            )}
          >
            <Menu aria-hidden="true" className="size-6 group-open:hidden" />
            <X aria-hidden="true" className="hidden size-6 group-open:block" />
            <span className="sr-only group-open:hidden">Ouvrir le menu</span>
            <UnreadBadge
              count={unreadMessages}
              className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-bold text-white group-open:hidden"
            />
            <span className="sr-only hidden group-open:inline">Fermer le menu</span>
          </summary>
          <div
            className="fixed inset-0 z-40 bg-slate-900/50"
            aria-hidden="true"
            data-shell-backdrop=""
            onClick={() => {
              if (mobileMenu.current) mobileMenu.current.open = false;
            }}
          />
        </details>

        <aside
          id="barre-laterale"
          className={cx(
            "hidden flex-col bg-white",
            "max-md:peer-open:fixed max-md:peer-open:inset-y-0 max-md:peer-open:left-0 max-md:peer-open:z-40 max-md:peer-open:flex max-md:peer-open:w-72 max-md:peer-open:max-w-[85vw] max-md:peer-open:overflow-y-auto max-md:peer-open:shadow-xl",
            "md:sticky md:top-0 md:flex md:h-screen md:w-64 md:shrink-0 md:border-r md:border-slate-200 md:transition-[width] md:duration-200 md:collapsed:w-12",
          )}
        >
          <div className="flex h-16 items-center justify-between border-b border-slate-200 px-3 md:collapsed:justify-center md:collapsed:px-0">
            <Brand kind={kind} className="md:collapsed:hidden" />
            <Form
              method="post"
              action="/barre-laterale"
              className="max-md:hidden"
              data-shell-collapse=""
              onSubmit={(event) => {
                event.preventDefault();
                toggleCollapsed();
              }}
            >
              <input type="hidden" name="collapsed" value={collapsed ? "false" : "true"} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                type="submit"
                aria-controls="barre-laterale"
                aria-expanded={!collapsed}
                aria-keyshortcuts="Control+B Meta+B"
                title={collapseTitle(collapsed)}
                className="rounded-md p-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
              >
                <PanelLeftOpen aria-hidden="true" className="hidden size-5 collapsed:block" />
                <PanelLeftClose aria-hidden="true" className="size-5 collapsed:hidden" />
                <span className="sr-only collapsed:hidden">Réduire la barre latérale</span>
                <span className="sr-only hidden collapsed:inline">Déplier la barre latérale</span>
              </button>
            </Form>
          </div>
          <SidebarNav navigation={navigation} label="Navigation principale" unreadMessages={unreadMessages} />
          <div className="border-t border-slate-200 p-2">
            <SignOutButton />
          </div>
        </aside>

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white pr-3 pl-16 sm:pr-5 md:pl-5">
            <Form
              method="get"
              action={kind === "teacher" ? "/teacher/recherche" : "/dashboard/recherche"}
              role="search"
              aria-label="Recherche globale"
              className="hidden max-w-md flex-1 sm:block"
            >
              <label htmlFor="recherche-globale" className="sr-only">
                Rechercher des formations, des sujets du forum
              </label>
              <div className="relative">
                <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
                <input
                  id="recherche-globale"
                  name="q"
                  type="search"
                  maxLength={LIMITS.search}
                  placeholder="Rechercher…"
                  className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-600"
                />
              </div>
            </Form>
            <Link
              to={kind === "teacher" ? "/teacher/recherche" : "/dashboard/recherche"}
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100 sm:hidden"
              aria-label="Rechercher"
            >
              <Search aria-hidden="true" className="size-5" />
            </Link>

            <div className="ml-auto flex items-center gap-2 sm:gap-4">
              <NotificationBell
                href={kind === "teacher" ? "/teacher/notifications" : "/dashboard/notifications"}
                unread={unreadNotifications}
                userId={user.id}
              />
              <div className="flex items-center gap-3" data-testid="utilisateur-courant">
                <Avatar firstName={user.firstName} lastName={user.lastName} email={user.email} size="sm" />
                <div className="hidden min-w-0 leading-tight sm:block">
                  <p className="truncate text-sm font-semibold text-slate-900">{fullName}</p>
                  <p className="truncate text-xs text-slate-600">{kind === "teacher" ? "Enseignant" : user.email}</p>
                </div>
                <span className="sr-only sm:hidden">
                  {fullName}, {kind === "teacher" ? "Enseignant" : user.email}
                </span>
              </div>
            </div>
          </header>

          <main id="contenu" tabIndex={-1} className="flex-1 p-4 focus:outline-none sm:p-6 lg:p-8">
            <NoScriptToast toast={toast} />
            <OfflineSync userId={user.id} />
            {children}
          </main>
        </div>
        {/* Sonner needs React; a page without it has app/enhance/toasts.ts. */}
        {hydrate && <Toaster />}
      </div>
    </>
  );
}

function Brand({ kind, className }: { kind: ShellKind; className?: string }) {
  return (
    <Link
      to={kind === "teacher" ? "/teacher" : "/dashboard"}
      className={cx("flex min-w-0 items-center gap-2 font-bold text-brand-800", className)}
    >
      <GraduationCap aria-hidden="true" className="size-6 shrink-0" />
      <span className="truncate">{kind === "teacher" ? "Enseignement" : "Mon Espace"}</span>
    </Link>
  );
}

/**
 * The sidebar's links are plain anchors: one click handler on the <nav> navigates in the app. A
 * <NavLink> per item, rendered twice (sidebar and slide-over) on every signed-in page, cost about
 * 5 % of a page's server CPU in path resolution alone (docs/performance.md). Nothing is fetched
 * ahead on hover: a page's data is never cached (private, no-cache), so a prefetch was a second
 * request for each click, and again after every later navigation.
 */
function SidebarNav({ navigation, label, unreadMessages }: { navigation: NavGroup[]; label: string; unreadMessages: number }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();

  function followInApp(event: MouseEvent<HTMLElement>) {
    const anchor = (event.target as Element).closest("a");
    if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(anchor.getAttribute("href")!);
  }
  return (
    <nav aria-label={label} className="flex-1 overflow-y-auto py-3" onClick={followInApp}>
      {navigation.map((group, index) => (
        <div key={group.label ?? `groupe-${index}`} className={cx(index > 0 && "mt-4 border-t border-slate-100 pt-3")}>
          {group.label && (
            <p className="px-4 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase md:collapsed:sr-only">{group.label}</p>
          )}
          <ul className="space-y-0.5 px-2 md:collapsed:px-1" aria-label={group.label}>
            {group.items.map((item) => {
              const active = isActivePath(pathname, item);
              const counted = item.badge === "unreadMessages";
              return (
                <li key={item.to}>
                  {/* Collapsed, the label is for screen readers and the browser's tip (title). */}
                  <a
                    href={item.to}
                    title={item.label}
                    aria-current={active ? "page" : undefined}
                    className={cx(
                      "flex min-h-10 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors md:collapsed:justify-center md:collapsed:px-0",
                      active ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                    )}
                  >
                    <span className="relative">
                      <NavIconGlyph icon={item.icon} />
                      {counted && (
                        <span
                          aria-hidden="true"
                          data-unread-dot=""
                          hidden={unreadMessages === 0}
                          className="absolute -top-1 -right-1 hidden size-2.5 rounded-full bg-red-600 md:collapsed:block"
                        />
                      )}
                    </span>
                    <span className="truncate md:collapsed:sr-only">{item.label}</span>
                    {counted && (
                      <UnreadBadge
                        count={unreadMessages}
                        testId="messages-non-lus"
                        className={cx(
                          "ml-auto min-w-5 rounded-full px-1.5 text-center text-xs leading-5 font-bold md:collapsed:sr-only",
                          active ? "bg-white text-brand-800" : "bg-red-600 text-white",
                        )}
                      />
                    )}
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/**
 * The unread messages count on « Messagerie » and on the menu button: always in the page, hidden
 * at zero, so that a script without React shows it when a message arrives (app/enhance/shell.ts).
 */
function UnreadBadge({ count, className, testId }: { count: number; className: string; testId?: string }) {
  return (
    <span data-testid={testId} data-unread-messages="" hidden={count === 0} className={className}>
      <span data-count="">{count > 99 ? "99+" : count}</span>
      <span className="sr-only" data-count-words="">
        {" "}
        {unreadMessagesText(count)}
      </span>
    </span>
  );
}

/** The badge's words for screen readers: « 3 messages non lus ». */
const unreadMessagesText = (count: number) => (count === 1 ? "message non lu" : "messages non lus");

/** Sign-out of this device: a real POST form to authD's route. */
function SignOutButton() {
  return (
    <form method="post" action="/auth/deconnexion">
      <input type="hidden" name="scope" value="local" />
      <button
        type="submit"
        title="Déconnexion"
        className="flex min-h-10 w-full items-center gap-3 rounded-md px-3 text-sm font-medium text-red-700 hover:bg-red-50 md:collapsed:justify-center md:collapsed:px-0"
      >
        <LogOut aria-hidden="true" className="size-5 shrink-0" />
        <span className="md:collapsed:sr-only">Déconnexion</span>
      </button>
    </form>
  );
}
