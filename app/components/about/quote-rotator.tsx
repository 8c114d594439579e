import Pause from "lucide-react/icons/pause";
import Play from "lucide-react/icons/play";
import { useEffect, useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

/** A quote as the about page's loader reads it from `quotes`. */
export interface Quote {
  id: number;
  text: string;
  author: string;
  authorRole: string;
}

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return reduced;
}

/**
 * Shows one quote at a time and moves to the next every `intervalMs`.
 * - Without JavaScript: the first quote, still; no controls.
 * - Under prefers-reduced-motion: still, until a dot is chosen.
 * - Pauses while hovered; stops when focus enters it or with its pause button, until
 *   "Reprendre" is pressed (WCAG 2.2.2, as the APG carousel pattern).
 * - Announces a quote (aria-live="polite") only when the visitor chose it, not on every tick.
 */
export function QuoteRotator({ quotes, intervalMs }: { quotes: readonly Quote[]; intervalMs: number }) {
  const [index, setIndex] = useState(0);
  const hydrated = useHydrated();
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [chosen, setChosen] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const rotating = hydrated && !reducedMotion && !paused && !hovered && quotes.length > 1;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % quotes.length), intervalMs);
    return () => window.clearInterval(timer);
  }, [rotating, intervalMs, quotes.length]);

  if (quotes.length === 0) return null;
  // The list may shrink on revalidation: never point past its end.
  const current = index % quotes.length;
  const quote = quotes[current]!;
  return (
    <div
      className="mx-auto max-w-3xl text-center"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={(event) => {
        // Keyboard focus entering the rotator stops it until the visitor presses "Reprendre".
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPaused(true);
      }}
      data-rotating={rotating ? "true" : "false"}
    >
      <figure aria-live={chosen ? "polite" : "off"} aria-atomic="true">
        <blockquote className="text-xl leading-relaxed font-medium text-white sm:text-2xl">
          <p>«&nbsp;{quote.text}&nbsp;»</p>
        </blockquote>
        <figcaption className="mt-4 text-brand-100">
          <span className="font-semibold text-white">{quote.author}</span>, {quote.authorRole}
        </figcaption>
      </figure>
      {hydrated && quotes.length > 1 && (
        <div className="mt-6 flex items-center justify-center gap-2">
          <ul className="flex items-center gap-1" aria-label="Choisir une citation">
            {quotes.map((item, i) => (
              <li key={item.id}>
                <button
                  type="button"
                  aria-label={`Citation ${i + 1} sur ${quotes.length}`}
                  aria-current={i === current ? "true" : undefined}
                  onClick={() => {
                    setIndex(i);
                    setChosen(true);
                  }}
                  className="flex size-8 items-center justify-center rounded-full"
                >
                  <span
                    aria-hidden="true"
                    className={`block size-3 rounded-full transition-colors ${i === current ? "bg-accent-500" : "bg-white/50 hover:bg-white/80"}`}
                  />
                </button>
              </li>
            ))}
          </ul>
          {!reducedMotion && (
            <button
              type="button"
              onClick={() => setPaused((value) => !value)}
              className="ml-2 inline-flex min-h-8 items-center gap-1 rounded-full px-3 text-sm text-white ring-1 ring-white/40 hover:bg-white/10"
            >
              {paused ? <Play className="size-4" aria-hidden="true" /> : <Pause className="size-4" aria-hidden="true" />}
              {paused ? "Reprendre" : "Pause"}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
