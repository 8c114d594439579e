import { buttonClasses } from "~/components/ui/button";

/**
 * Footer newsletter box. Without JavaScript the form posts to /newsletter, which answers with its
 * own page; with it (app/enhance/progressive.ts) the answer shows here and the page stays put.
 */
export function NewsletterForm() {
  return (
    <form method="post" action="/newsletter" data-newsletter className="relative mt-4">
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
          placeholder="Votre e-mail"
          aria-describedby="newsletter-email-error"
          className="min-h-11 w-full min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-800 px-3 py-2 text-base text-white placeholder:text-slate-400 focus-visible:border-accent-500 aria-invalid:border-red-400"
        />
        <button
          type="submit"
          data-pending-label="Envoi…"
          className={buttonClasses({ variant: "secondary", className: "shrink-0 font-semibold" })}
        >
          S'abonner
        </button>
      </div>
      <p id="newsletter-email-error" data-newsletter-error role="alert" hidden className="mt-2 text-sm font-medium text-red-300" />
      <p data-newsletter-status role="status" aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-200" />
    </form>
  );
}
