/**
 * The signed-in shell on pages React does not hydrate (app/components/shell/app-shell.tsx renders
 * the markup, with data-shell-* attributes): the sidebar's collapse (button and Ctrl/Cmd+B, kept
 * in its cookie), the phone's slide-over (Escape, a tap beside it), and, over the page's
 * WebSocket, the unread counts of the bell and of « Messagerie » with a toast for what arrives;
 * the bell opens the latest notifications in a panel. Without this script the same controls post
 * forms and follow links.
 */
import { collapseTitle, sidebarCookieValue } from "~/lib/sidebar";
import { all } from "./dom";
import { pageRealtime } from "./realtime";
import { showServerToast, showToast } from "./toasts";

const MOBILE_QUERY = "(max-width: 767.98px)";

function enhanceSidebar(shell: HTMLElement) {
  const menu = shell.querySelector<HTMLDetailsElement>("details[data-shell-menu]");
  const form = shell.querySelector<HTMLFormElement>("form[data-shell-collapse]");
  const toggle = () => {
    const collapsed = shell.dataset.collapsed !== "true";
    shell.dataset.collapsed = String(collapsed);
    document.cookie = sidebarCookieValue(collapsed, location.protocol === "https:");
    const button = form?.querySelector("button");
    button?.setAttribute("aria-expanded", String(!collapsed));
    button?.setAttribute("title", collapseTitle(collapsed));
    const next = form?.querySelector<HTMLInputElement>("input[name=collapsed]");
    if (next) next.value = String(!collapsed);
  };
  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    toggle();
  });
  const closeMenu = () => {
    if (!menu?.open) return;
    menu.open = false;
    menu.querySelector("summary")?.focus();
  };
  shell.querySelector("[data-shell-backdrop]")?.addEventListener("click", closeMenu);
  window.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMenu();
    if (event.key.toLowerCase() !== "b" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    if (window.matchMedia(MOBILE_QUERY).matches) {
      if (menu) menu.open = !menu.open;
    } else {
      toggle();
    }
  });
}

/** Shows `count` in every badge matching `selector` (hidden at zero), with its words for screen readers. */
function setCount(selector: string, count: number, words: (count: number) => string) {
  for (const badge of all<HTMLElement>(selector)) {
    badge.hidden = count === 0;
    const figure = badge.querySelector("[data-count]");
    if (figure) figure.textContent = count > 99 ? "99+" : String(count);
    const text = badge.querySelector("[data-count-words]");
    if (text) text.textContent = ` ${words(count)}`;
  }
}

const messageWords = (count: number) => (count === 1 ? "message non lu" : "messages non lus");
const notificationWords = (count: number) => (count === 1 ? "non lue" : "non lues");

async function fetchJson<T>(url: string): Promise<T | null> {
  const response = await fetch(url, { headers: { Accept: "application/json" } }).catch(() => null);
  return response?.ok && response.headers.get("content-type")?.includes("json") ? ((await response.json()) as T) : null;
}

async function fetchPage(url: string): Promise<Document | null> {
  const response = await fetch(url, { headers: { Accept: "text/html" } }).catch(() => null);
  if (!response?.ok || response.redirected) return null;
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

type UnreadMessages = {
  unread: number;
  alert: { conversationId: number; messageId: number; title: string; excerpt: string; href: string } | null;
};

/** « Messagerie »'s badge kept live, and a toast for a new message (not on its conversation's page). */
function followMessages(shell: HTMLElement) {
  const realtime = pageRealtime();
  const base = shell.dataset.messagesHref;
  if (!realtime || !base || !shell.dataset.userId) return;
  const shown = new Set<number>();
  const refresh = async (conversation?: number) => {
    const data = await fetchJson<UnreadMessages>(`${base}/non-lus${conversation ? `?conversation=${conversation}` : ""}`);
    if (!data) return;
    setCount("[data-unread-messages]", data.unread, messageWords);
    for (const dot of all<HTMLElement>("[data-unread-dot]")) dot.hidden = data.unread === 0;
    const alert = data.alert;
    if (!alert || shown.has(alert.messageId)) return;
    shown.add(alert.messageId);
    if (location.pathname.replace(/\/$/, "").endsWith(`/messages/${alert.conversationId}`)) return;
    showToast({ title: alert.title, description: alert.excerpt, action: { label: "Ouvrir", href: alert.href } });
  };
  realtime.subscribe(`user:${shell.dataset.userId}`, (event) => {
    if (event.type === "conversation" && typeof event.id === "number") void refresh(event.id);
    else if (event.type === "conversation_read") void refresh();
  });
  realtime.onResync(() => void refresh());
}

/**
 * The bell: its count kept live, a toast for a new notification, and on a click the latest
 * notifications in a panel (taken from the notifications page itself, whose forms mark them read).
 */
function enhanceBell(shell: HTMLElement) {
  const bell = shell.querySelector<HTMLAnchorElement>("a[data-bell]");
  if (!bell) return;
  const href = bell.getAttribute("href")!;
  let panel: HTMLElement | null = null;

  const latest = async () => {
    const page = await fetchPage(`${href}?limite=8`);
    if (!page) return null;
    const badge = page.querySelector<HTMLElement>("[data-unread-notifications]");
    const unread = badge && !badge.hidden ? Number(badge.querySelector("[data-count]")?.textContent?.replace("+", "")) || 0 : 0;
    setCount("[data-unread-notifications]", unread, notificationWords);
    return { page, unread, list: page.querySelector<HTMLElement>("[data-notification-list]") };
  };

  const fillPanel = async () => {
    if (!panel) return;
    const body = panel.querySelector<HTMLElement>("[data-panel-body]")!;
    const readAll = panel.querySelector<HTMLElement>("[data-read-all]")!;
    const result = await latest();
    if (!panel) return;
    if (!result) {
      body.textContent = "Les notifications n’ont pas pu être chargées.";
      return;
    }
    readAll.hidden = result.unread === 0;
    if (result.list && result.list.children.length > 0) body.replaceChildren(document.importNode(result.list, true));
    else body.textContent = "Aucune notification";
  };

  const close = (focusBell: boolean) => {
    panel?.remove();
    panel = null;
    bell.setAttribute("aria-expanded", "false");
    if (focusBell) bell.focus();
  };

  const open = () => {
    panel = document.createElement("div");
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", "Notifications");
    panel.className =
      "absolute top-full right-0 z-50 mt-2 flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-md border border-slate-200 bg-white shadow-lg";
    panel.innerHTML = `
      <div class="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <p class="font-semibold text-slate-900">Notifications</p>
        <form method="post" data-read-all hidden>
          <input type="hidden" name="intent" value="read-all">
          <button type="submit" class="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">Tout marquer comme lu</button>
        </form>
      </div>
      <div class="min-h-0 flex-1 overflow-y-auto text-sm text-slate-600 [&_[data-body]]:line-clamp-2 [&_li]:p-3" data-panel-body><p class="p-4">Chargement…</p></div>
      <a class="border-t border-slate-200 px-3 py-2 text-center text-sm font-medium text-brand-700 hover:bg-slate-50">Voir toutes les notifications</a>`;
    panel.querySelector("form")!.action = href;
    panel.querySelector("a")!.href = href;
    bell.parentElement!.classList.add("relative");
    bell.after(panel);
    bell.setAttribute("aria-expanded", "true");
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") close(true);
    });
    void fillPanel();
  };

  bell.setAttribute("aria-haspopup", "dialog");
  bell.setAttribute("aria-expanded", "false");
  bell.setAttribute("role", "button");
  bell.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (panel) close(false);
    else open();
  });
  bell.addEventListener("keydown", (event) => {
    if (event.key === " ") {
      event.preventDefault();
      bell.click();
    } else if (event.key === "Escape" && panel) close(true);
  });
  document.addEventListener("click", (event) => {
    if (panel && !panel.contains(event.target as Node) && !bell.contains(event.target as Node)) close(false);
  });

  const realtime = pageRealtime();
  if (!realtime || !shell.dataset.userId) return;
  realtime.subscribe(`user:${shell.dataset.userId}`, (event) => {
    if (event.type === "notification" && typeof event.id === "number") {
      const id = event.id;
      void (async () => {
        const result = panel ? (await fillPanel(), null) : await latest();
        const item = result?.page.querySelector<HTMLElement>(`[data-notification-id="${id}"]`);
        if (!item) return;
        const link = item.dataset.link;
        showToast({
          title: item.querySelector("[data-title]")?.textContent ?? "",
          description: item.querySelector("[data-body]")?.textContent ?? undefined,
          action: link ? { label: "Voir", href: link } : undefined,
        });
      })();
    } else if (event.type === "notifications_read") {
      void (panel ? fillPanel() : latest());
    }
  });
  realtime.onResync(() => void (panel ? fillPanel() : latest()));
}

export function enhanceShell() {
  const shell = document.querySelector<HTMLElement>("[data-shell]");
  showServerToast();
  if (!shell) return;
  enhanceSidebar(shell);
  enhanceBell(shell);
  followMessages(shell);
}
