import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import type { NewsletterResponse } from "~/lib/newsletter";

/** What the /newsletter action returns (app/routes/public/newsletter.tsx). */
type NewsletterResult = NewsletterResponse;

function isNewsletterResult(value: unknown): value is NewsletterResult {
  return !!value && typeof value === "object" && "status" in value && "message" in value;
}

/**
 * Footer newsletter box. Without JavaScript the form posts to /newsletter, which answers with its
 * own page; with JavaScript a fetcher posts it and the answer shows here, the page staying put.
 */
export function NewsletterForm() {
  const fetcher = useFetcher({ key: "newsletter" });
  const result = isNewsletterResult(fetcher.data) ? fetcher.data : undefined;
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const emailError = result?.fieldErrors?.email;
  const failed = result?.status === "error";

  useEffect(() => {
    if (fetcher.state === "idle" && result && !failed) form.current?.reset();
  }, [fetcher.state, result, failed]);

  return (
    <fetcher.Form ref={form} method="post" action="/newsletter" className="relative mt-4">
      <label htmlFor="newsletter-email" className="block text-sm font-medium text-slate-200">
        Adresse e-mail
      </label>
      {/* Honeypot: invisible to people, filled in by naive bots. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="newsletter-website">Ne pas remplir ce champ</label>
        <input id="newsletter-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row lg:flex-col xl:flex-row">
        <input
          id="newsletter-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          inputMode="email"
          placeholder="Votre email"
          key={failed ? `error-${result?.email ?? ""}` : "fresh"}
          defaultValue={failed ? (result?.email ?? "") : undefined}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "newsletter-email-error" : undefined}
          className="min-h-11 w-full min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-800 px-3 py-2 text-base text-white placeholder:text-slate-400 focus-visible:border-accent-500 aria-invalid:border-red-400"
        />
        <button
          type="submit"
          disabled={busy}
          className={buttonClasses({ variant: "secondary", className: "shrink-0 font-semibold" })}
        >
          {busy ? "Envoi…" : "S'abonner"}
        </button>
      </div>
      {emailError ? (
        <p id="newsletter-email-error" role="alert" className="mt-2 text-sm font-medium text-red-300">
          {emailError}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-200">
        {result && !emailError ? result.message : null}
      </p>
    </fetcher.Form>
  );
}
