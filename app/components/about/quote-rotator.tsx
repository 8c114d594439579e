import Pause from "lucide-react/icons/pause";
import Play from "lucide-react/icons/play";

/** A quote as the about page's loader reads it from `quotes`. */
export interface Quote {
  id: number;
  text: string;
  author: string;
  authorRole: string;
}

/**
 * Every quote, one shown at a time. Without JavaScript: the first, still; no controls. With it,
 * app/enhance/progressive.ts (enhanceQuotes) shows the controls and moves to the next every
 * `intervalMs`: paused while hovered, stopped when focus enters it or with its button until
 * "Reprendre" (WCAG 2.2.2, the APG carousel pattern), still under prefers-reduced-motion, and a
 * quote is announced (aria-live) only when the visitor chose it.
 */
export function QuoteRotator({ quotes, intervalMs }: { quotes: readonly Quote[]; intervalMs: number }) {
  if (quotes.length === 0) return null;
  return (
    <div className="mx-auto max-w-3xl text-center" data-quotes data-interval={intervalMs} data-rotating="false">
      <div data-quote-live aria-live="off" aria-atomic="true">
        {quotes.map((quote, i) => (
          <figure key={quote.id} data-quote hidden={i > 0}>
            <blockquote className="text-xl leading-relaxed font-medium text-white sm:text-2xl">
              <p>«&nbsp;{quote.text}&nbsp;»</p>
            </blockquote>
            <figcaption className="mt-4 text-brand-100">
              <span className="font-semibold text-white">{quote.author}</span>, {quote.authorRole}
            </figcaption>
          </figure>
        ))}
      </div>
      {quotes.length > 1 && (
        <div data-quote-controls hidden className="mt-6 flex items-center justify-center gap-2">
          <ul className="flex items-center gap-1" aria-label="Choisir une citation">
            {quotes.map((item, i) => (
              <li key={item.id}>
                <button
                  type="button"
                  data-quote-dot
                  aria-label={`Citation ${i + 1} sur ${quotes.length}`}
                  aria-current={i === 0 ? "true" : undefined}
                  className="group flex size-8 items-center justify-center rounded-full"
                >
                  <span
                    aria-hidden="true"
                    className="block size-3 rounded-full bg-white/50 transition-colors group-hover:bg-white/80 group-aria-[current=true]:bg-accent-500"
                  />
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            data-quote-pause
            className="ml-2 inline-flex min-h-8 items-center gap-1 rounded-full px-3 text-sm text-white ring-1 ring-white/40 hover:bg-white/10"
          >
            <span data-when="playing" className="inline-flex items-center gap-1">
              <Pause className="size-4" aria-hidden="true" />
              Pause
            </span>
            <span data-when="paused" hidden className="inline-flex items-center gap-1">
              <Play className="size-4" aria-hidden="true" />
              Reprendre
            </span>
          </button>
        </div>
      )}
    </div>
  );
}
