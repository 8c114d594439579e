/**
 * Toasts on pages without React, as sonner shows them on the others: one at a time, top right
 * below the top bar (full width on a phone), 5 seconds, a close button, an optional link. The
 * server's one-time message (NoScriptToast, rendered in the page) moves here once the script runs.
 */
export interface Toast {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
  action?: { label: string; href: string };
}

const colours = {
  success: "border-green-300 bg-green-50 text-green-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-slate-200 bg-white text-slate-900",
};

let region: HTMLElement | null = null;
let timer: number | undefined;

function toastRegion() {
  if (region) return region;
  region = document.createElement("section");
  region.setAttribute("aria-label", "Notifications");
  region.setAttribute("aria-live", "polite");
  region.className = "fixed top-[4.5rem] right-4 left-4 z-50 sm:top-20 sm:right-6 sm:left-auto sm:w-96";
  document.body.append(region);
  return region;
}

export function showToast({ title, description, type = "info", action }: Toast) {
  const container = toastRegion();
  window.clearTimeout(timer);
  const toast = document.createElement("div");
  toast.setAttribute("role", type === "error" ? "alert" : "status");
  toast.className = `flex items-start gap-3 rounded-md border px-4 py-3 shadow-lg ${colours[type]}`;
  const text = document.createElement("div");
  text.className = "min-w-0 flex-1";
  const heading = document.createElement("p");
  heading.className = "font-semibold";
  heading.textContent = title;
  text.append(heading);
  if (description) {
    const body = document.createElement("p");
    body.className = "text-sm";
    body.textContent = description;
    text.append(body);
  }
  if (action) {
    const link = document.createElement("a");
    link.href = action.href;
    link.className = "mt-1 inline-block text-sm font-semibold underline underline-offset-2";
    link.textContent = action.label;
    text.append(link);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "rounded p-1 text-lg leading-none";
  close.setAttribute("aria-label", "Fermer la notification");
  close.textContent = "×";
  const dismiss = () => toast.remove();
  close.addEventListener("click", dismiss);
  toast.append(text, close);
  container.replaceChildren(toast);
  // A pointer or the focus on it keeps it, as sonner does.
  const schedule = () => (timer = window.setTimeout(dismiss, 5000));
  toast.addEventListener("mouseenter", () => window.clearTimeout(timer));
  toast.addEventListener("focusin", () => window.clearTimeout(timer));
  toast.addEventListener("mouseleave", schedule);
  schedule();
}

/** The server's one-time message of this page, shown as a toast. */
export function showServerToast() {
  const message = document.querySelector<HTMLElement>("[data-server-toast]");
  if (!message) return;
  const [title, description] = [...message.querySelectorAll("p")].map((p) => p.textContent ?? "");
  message.remove();
  showToast({ title: title ?? "", description, type: message.dataset.serverToast === "error" ? "error" : "success" });
}
