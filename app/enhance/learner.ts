/**
 * What JavaScript adds to the learner's space (the /dashboard pages and /auth), which the server
 * renders whole and React does not hydrate (docs/decisions/0024, amended for issue 39). Every
 * page works without it: links load pages, forms post. Loaded on each such page, cached by the
 * service worker; a page that needs more lists its own small script in its route's
 * `handle.scripts` (root.tsx adds them after this one).
 */
import { all } from "./dom";
import { enhanceForms } from "./forms";
import { enhanceShell } from "./shell";

/**
 * Any form: a second click sends nothing, and the button says it is working (its
 * data-pending-label). The button is marked after the submit event, so that the browser still
 * sends its name and value. A page restored from the back-forward cache gets its buttons back.
 */
function enhancePendingForms() {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset.enhance) return;
    if (form.dataset.submitting === "true") {
      event.preventDefault();
      return;
    }
    if (event.defaultPrevented || form.method.toLowerCase() !== "post") return;
    form.dataset.submitting = "true";
    const button = (event.submitter as HTMLButtonElement | null) ?? form.querySelector<HTMLButtonElement>("button[type=submit]");
    setTimeout(() => {
      if (!button) return;
      button.setAttribute("aria-disabled", "true");
      const label = button.dataset.pendingLabel;
      if (label) {
        button.dataset.idleLabel = button.textContent ?? "";
        button.textContent = label;
      }
    }, 0);
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of all<HTMLFormElement>("form[data-submitting]")) delete form.dataset.submitting;
    for (const button of all<HTMLButtonElement>("button[aria-disabled=true][data-idle-label]")) {
      button.textContent = button.dataset.idleLabel ?? button.textContent;
      button.removeAttribute("aria-disabled");
    }
  });
}

/**
 * A form or button marked data-confirm="<question>" asks first (the browser's own dialog); a
 * « non » sends nothing. Without JavaScript the server's own rules still hold.
 */
function enhanceConfirmations() {
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const question = (event.submitter as HTMLElement | null)?.dataset.confirm ?? form.dataset.confirm;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    { capture: true },
  );
}

/** The installable app's service worker (app/sw/service-worker.ts): built only for production. */
function registerServiceWorker() {
  if (import.meta.env.PROD && "serviceWorker" in navigator) void navigator.serviceWorker.register("/sw.js").catch(() => {});
}

enhanceShell();
enhanceConfirmations();
enhancePendingForms();
enhanceForms();
registerServiceWorker();
// Tests (and page scripts) wait for this mark: every handler above is in place.
document.documentElement.dataset.enhanced = "true";
