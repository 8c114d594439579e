/**
 * What JavaScript adds to the public pages, which the server renders whole and React does not
 * hydrate (docs/decisions/0024-public-pages-without-react.md). Every page works without it;
 * each enhancement below finds its markup by data attributes and does nothing when absent.
 * Built as one small classic bundle (root.tsx imports it with `?worker&url`).
 */
import { ALL, filtersToSearch, matchesFilters, type CatalogueFilters, type FilterableCourse } from "~/lib/catalogue-filter";
import { plural } from "~/lib/format";
import { all } from "./dom";
import { connectionLost, enhanceForms, pending, post } from "./forms";

/** The mobile menu is a <details>: Escape closes it and gives the focus back to its button. */
function enhanceMenu() {
  for (const menu of all<HTMLDetailsElement>("details[data-menu]")) {
    menu.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !menu.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    });
  }
}

/**
 * The catalogue: the server sends every published course, hiding those the query string filters
 * out; here the list follows the controls as they change, with the same rule, and the address
 * keeps the filters (a link to share, the back button).
 */
function enhanceCatalogue() {
  const form = document.querySelector<HTMLFormElement>("form[data-catalogue]");
  if (!form) return;
  const count = document.querySelector("[data-catalogue-count]");
  const list = document.querySelector<HTMLElement>("[data-catalogue-list]");
  const empty = document.querySelector<HTMLElement>("[data-catalogue-empty]");
  const resets = all<HTMLAnchorElement>("[data-catalogue-reset]");
  const cards = all<HTMLElement>("[data-course]").map((element) => ({
    element,
    course: {
      title: element.querySelector("[data-course-title]")?.textContent ?? "",
      description: element.querySelector("[data-course-description]")?.textContent ?? "",
      categorySlug: element.dataset.category ?? "",
      levelSlug: element.dataset.level ?? "",
    } satisfies FilterableCourse,
  }));

  const current = (): CatalogueFilters => {
    const data = new FormData(form);
    return {
      q: String(data.get("q") ?? "").slice(0, 100),
      categorie: String(data.get("categorie") || ALL),
      niveau: String(data.get("niveau") || ALL),
    };
  };
  const apply = () => {
    const filters = current();
    let shown = 0;
    for (const { element, course } of cards) {
      const match = matchesFilters(course, filters);
      element.hidden = !match;
      if (match) shown++;
    }
    if (count) count.textContent = plural(shown, "formation trouvée", "formations trouvées");
    if (list) list.hidden = shown === 0;
    if (empty) empty.hidden = shown > 0;
    const filtered = filters.q.trim() !== "" || filters.categorie !== ALL || filters.niveau !== ALL;
    for (const reset of resets) if (reset.closest("[data-catalogue-empty]") === null) reset.hidden = !filtered || shown === 0;
    history.replaceState(history.state, "", `${location.pathname}${filtersToSearch(filters)}${location.hash}`);
  };

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    apply();
  });
  for (const reset of resets) {
    reset.addEventListener("click", (event) => {
      event.preventDefault();
      for (const field of all<HTMLInputElement | HTMLSelectElement>("input[name], select[name]", form)) {
        field.value = field instanceof HTMLSelectElement ? ALL : "";
      }
      apply();
      form.querySelector<HTMLInputElement>("input[name=q]")?.focus();
    });
  }
}

/**
 * The about page's quotes: one shown at a time, the next every few seconds; pauses while hovered,
 * stops when the keyboard enters it or with its button (WCAG 2.2.2), stays still under
 * prefers-reduced-motion, and announces a quote only when the visitor chose it.
 */
function enhanceQuotes() {
  for (const rotator of all<HTMLElement>("[data-quotes]")) {
    const quotes = all<HTMLElement>("[data-quote]", rotator);
    const controls = rotator.querySelector<HTMLElement>("[data-quote-controls]");
    if (quotes.length < 2 || !controls) continue;
    const live = rotator.querySelector<HTMLElement>("[data-quote-live]");
    const dots = all<HTMLButtonElement>("[data-quote-dot]", rotator);
    const pauseButton = rotator.querySelector<HTMLButtonElement>("[data-quote-pause]");
    const intervalMs = Number(rotator.dataset.interval) || 7000;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
    let index = 0;
    let paused = false;
    let hovered = false;
    let timer: number | undefined;

    const show = (next: number) => {
      index = (next + quotes.length) % quotes.length;
      quotes.forEach((quote, i) => (quote.hidden = i !== index));
      dots.forEach((dot, i) => (i === index ? dot.setAttribute("aria-current", "true") : dot.removeAttribute("aria-current")));
    };
    const schedule = () => {
      window.clearInterval(timer);
      const rotating = !reducedMotion.matches && !paused && !hovered;
      rotator.dataset.rotating = String(rotating);
      if (pauseButton) {
        pauseButton.hidden = reducedMotion.matches;
        for (const label of all<HTMLElement>("[data-when]", pauseButton))
          label.hidden = label.dataset.when !== (paused ? "paused" : "playing");
      }
      if (rotating) timer = window.setInterval(() => show(index + 1), intervalMs);
    };

    controls.hidden = false;
    dots.forEach((dot, i) =>
      dot.addEventListener("click", () => {
        live?.setAttribute("aria-live", "polite");
        show(i);
      }),
    );
    pauseButton?.addEventListener("click", () => {
      paused = !paused;
      schedule();
    });
    rotator.addEventListener("mouseenter", () => {
      hovered = true;
      schedule();
    });
    rotator.addEventListener("mouseleave", () => {
      hovered = false;
      schedule();
    });
    rotator.addEventListener("focusin", (event) => {
      if (rotator.contains(event.relatedTarget as Node | null)) return;
      paused = true;
      schedule();
    });
    reducedMotion.addEventListener("change", schedule);
    show(0);
    schedule();
  }
}

/**
 * The footer's newsletter box: sent without leaving the page; the answer of /newsletter (its
 * confirmation, or the reason it refused) shows under the field.
 */
function enhanceNewsletter() {
  for (const form of all<HTMLFormElement>("form[data-newsletter]")) {
    const input = form.querySelector<HTMLInputElement>("input[name=email]");
    const status = form.querySelector<HTMLElement>("[data-newsletter-status]");
    const error = form.querySelector<HTMLElement>("[data-newsletter-error]");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (form.querySelector<HTMLButtonElement>("button[type=submit]")?.disabled) return;
      pending(form, true);
      try {
        const { page } = await post(form);
        const fieldError = page.querySelector<HTMLElement>("main input[name=email][aria-invalid=true]");
        const refusal = fieldError
          ? page.getElementById(fieldError.getAttribute("aria-describedby")?.split(" ").pop() ?? "")?.textContent
          : page.querySelector("[data-newsletter-answer=error]")?.textContent;
        const confirmation = page.querySelector("[data-newsletter-answer=ok]")?.textContent;
        if (error) {
          error.textContent = refusal?.trim() ?? "";
          error.hidden = !refusal;
        }
        if (status) status.textContent = refusal ? "" : (confirmation?.trim() ?? "");
        if (input) {
          if (refusal) input.setAttribute("aria-invalid", "true");
          else input.removeAttribute("aria-invalid");
          if (refusal) input.focus();
          else form.reset();
        }
      } catch {
        connectionLost(form);
      } finally {
        pending(form, false);
      }
    });
  }
}

enhanceMenu();
enhanceCatalogue();
enhanceQuotes();
enhanceForms();
enhanceNewsletter();
