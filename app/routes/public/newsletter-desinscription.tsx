import { data } from "react-router";
import { authContext, dbContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { subscriptionOfToken, unsubscribeByToken } from "~/.server/newsletter";
import { Icon } from "~/components/public/icon";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/newsletter-desinscription";

/**
 * /newsletter/desinscription?jeton=…: the unsubscribe link of every newsletter, without signing in.
 * GET shows the address and a button (a link opened by a mail scanner unsubscribes no one); POST
 * unsubscribes: the button, or a mail client's one-click request (RFC 8058: List-Unsubscribe-Post,
 * body "List-Unsubscribe=One-Click", the token in the URL). A token that does not verify is refused.
 */

export const meta = () => [{ title: "Désinscription de la lettre d'information" }, { name: "robots", content: "noindex" }];

/** The page depends on the token: never kept by a cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

const INVALID = "Ce lien de désinscription n'est pas valide. Utilisez le lien du dernier message reçu, ou écrivez-nous.";

async function secretOf(context: Route.LoaderArgs["context"]) {
  return (await context.get(authContext).$context).secret;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("jeton");
  const subscription = await subscriptionOfToken(context.get(dbContext), await secretOf(context), token);
  if (!subscription) return data({ state: "invalid" as const, email: null, token: null }, { status: 400 });
  return { state: subscription.unsubscribedAt ? ("done" as const) : ("confirm" as const), email: subscription.email, token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get("jeton");
  try {
    const { email } = await unsubscribeByToken(context.get(dbContext), await secretOf(context), token);
    return { state: "done" as const, email };
  } catch (error) {
    if (isAppError(error, "invalid")) return data({ state: "invalid" as const, email: null }, { status: 400 });
    throw error;
  }
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  const email = actionData?.email ?? loaderData.email;
  return (
    <main className="mx-auto max-w-xl px-4 py-14 sm:py-20">
      <div className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700" aria-hidden="true">
        <Icon name="mail" className="size-7" />
      </div>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Désinscription de la lettre d'information</h1>
      {state === "invalid" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-5 text-red-900">
          {INVALID}
        </p>
      ) : state === "done" ? (
        <div role="status" className="mt-6 flex items-start gap-3 rounded-lg border border-green-300 bg-green-50 p-5 text-green-900">
          <Icon name="circle-check" className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          <p className="font-medium break-words">
            L'adresse {email} ne recevra plus la lettre d'information. Vous pouvez vous abonner à nouveau à tout moment.
          </p>
        </div>
      ) : (
        <form
          method="post"
          action={`/newsletter/desinscription?jeton=${encodeURIComponent(loaderData.token ?? "")}`}
          className="mt-6 space-y-4"
        >
          <p className="break-words text-slate-700">
            L'adresse <strong className="font-semibold text-slate-900">{email}</strong> ne recevra plus nos messages.
          </p>
          <Button type="submit">Me désinscrire</Button>
        </form>
      )}
    </main>
  );
}
