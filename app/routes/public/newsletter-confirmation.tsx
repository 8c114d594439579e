import { data } from "react-router";
import { authContext, dbContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { confirmSubscription, pendingSubscriptionOfToken } from "~/.server/newsletter";
import { CONFIRMATION_INVALID } from "~/lib/newsletter";
import { Icon } from "~/components/public/icon";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/newsletter-confirmation";

/**
 * /newsletter/confirmation?jeton=…: the link of the confirmation mail (double opt-in), without
 * signing in. GET shows the address and a button (a link opened by a mail scanner confirms no one);
 * POST confirms. A token that does not verify, has expired or was used already is refused.
 */

export const meta = () => [{ title: "Confirmation de l'abonnement à la lettre d'information" }, { name: "robots", content: "noindex" }];

/** The page depends on the token: never kept by a cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

async function secretOf(context: Route.LoaderArgs["context"]) {
  return (await context.get(authContext).$context).secret;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("jeton");
  const subscription = await pendingSubscriptionOfToken(context.get(dbContext), await secretOf(context), token);
  if (!subscription) return data({ state: "invalid" as const, email: null, token: null }, { status: 400 });
  return { state: "confirm" as const, email: subscription.email, token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get("jeton");
  try {
    const { email } = await confirmSubscription(context.get(dbContext), await secretOf(context), token);
    return { state: "done" as const, email };
  } catch (error) {
    if (isAppError(error, "invalid")) return data({ state: "invalid" as const, email: null }, { status: 400 });
    throw error;
  }
}

export default function NewsletterConfirmation({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  const email = actionData?.email ?? loaderData.email;
  return (
    <main className="mx-auto max-w-xl px-4 py-14 sm:py-20">
      <div className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700" aria-hidden="true">
        <Icon name="mail" className="size-7" />
      </div>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Confirmation de l'abonnement</h1>
      {state === "invalid" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-5 text-red-900">
          {CONFIRMATION_INVALID}
        </p>
      ) : state === "done" ? (
        <div role="status" className="mt-6 flex items-start gap-3 rounded-lg border border-green-300 bg-green-50 p-5 text-green-900">
          <Icon name="circle-check" className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          <p className="font-medium break-words">
            C'est confirmé : l'adresse {email} recevra la lettre d'information. Chaque lettre porte un lien pour se désinscrire en un clic.
          </p>
        </div>
      ) : (
        <form
          method="post"
          action={`/newsletter/confirmation?jeton=${encodeURIComponent(loaderData.token ?? "")}`}
          className="mt-6 space-y-4"
        >
          <p className="break-words text-slate-700">
            Recevoir la lettre d'information à l'adresse <strong className="font-semibold text-slate-900">{email}</strong> ?
          </p>
          <Button type="submit">Confirmer mon abonnement</Button>
        </form>
      )}
    </main>
  );
}
