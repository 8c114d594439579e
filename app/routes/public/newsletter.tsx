import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { clientIpContext, dbContext } from "~/.server/context";
import { subscribeToNewsletter } from "~/.server/newsletter";
import { NEWSLETTER_MESSAGES, type NewsletterResponse } from "~/lib/newsletter";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/newsletter";
import { Icon } from "~/components/public/icon";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Lettre d'information",
    description: "Abonnez-vous à la lettre d'information de l'institut : nouvelles formations, sessions et événements.",
    path: "/newsletter",
  });

/**
 * POST /newsletter, fields `email` and the honeypot `website`. Without JavaScript the footer's
 * form lands on this page, which renders the answer and a form to try again; with it,
 * app/enhance/progressive.ts posts here and shows the answer (data-newsletter-answer) in the footer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = form.get("email");
  const website = form.get("website");

  if (typeof website === "string" && website.trim() !== "") {
    return data<NewsletterResponse>({ status: "subscribed", message: NEWSLETTER_MESSAGES.subscribed });
  }

  const result = await subscribeToNewsletter(context.get(dbContext), email, { ip: context.get(clientIpContext) });
  const typed = typeof email === "string" ? email.slice(0, 300) : "";
  switch (result.status) {
    case "subscribed":
    case "pending":
    case "already":
      return data<NewsletterResponse>({ status: result.status, message: NEWSLETTER_MESSAGES[result.status] });
    case "invalid":
      return data<NewsletterResponse>(
        { status: "error", message: result.message, fieldErrors: { email: result.message }, email: typed },
        { status: 400 },
      );
    case "rate-limited":
      return data<NewsletterResponse>(
        { status: "error", message: result.message, email: typed },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
  }
}

export default function Newsletter({ actionData }: Route.ComponentProps) {
  const done = actionData && actionData.status !== "error";

  return (
    <main id="newsletter-page" className="mx-auto max-w-xl px-4 py-14 sm:py-20">
      <div className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700" aria-hidden="true">
        <Icon name="mail" className="size-7" />
      </div>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Lettre d'information</h1>
      <p className="mt-3 text-slate-700">
        Recevez nos nouvelles formations, les dates des prochaines sessions et nos événements, une à deux fois par mois.
      </p>

      {done ? (
        <div
          role="status"
          data-newsletter-answer="ok"
          className="mt-8 flex items-start gap-3 rounded-lg border border-green-300 bg-green-50 p-5 text-green-900"
        >
          <Icon name="circle-check" className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          <p className="font-medium">{actionData.message}</p>
        </div>
      ) : (
        <form
          method="post"
          action="/newsletter"
          data-enhance="newsletter-page"
          className="mt-8 space-y-4"
          aria-label="Abonnement à la lettre d'information"
        >
          {actionData?.status === "error" && !actionData.fieldErrors?.email && (
            <p role="alert" data-newsletter-answer="error" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
              {actionData.message}
            </p>
          )}
          <Field label="Votre adresse e-mail" name="email" required error={actionData?.fieldErrors?.email}>
            {(props) => (
              <Input
                {...props}
                type="email"
                autoComplete="email"
                inputMode="email"
                maxLength={254}
                placeholder="Votre e-mail"
                defaultValue={actionData?.email}
                autoFocus={Boolean(actionData?.fieldErrors?.email)}
              />
            )}
          </Field>
          <div className="hidden">
            <label htmlFor="newsletter-page-website">Ne remplissez pas ce champ</label>
            <input id="newsletter-page-website" type="text" name="website" tabIndex={-1} autoComplete="off" />
          </div>
          <Button type="submit" data-pending-label="Inscription…">
            S'abonner
          </Button>
        </form>
      )}
    </main>
  );
}
