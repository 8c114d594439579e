import { data, Form, isRouteErrorResponse, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { requireUser } from "~/.server/auth/guards";
import { paymentsContext } from "~/.server/payments/setup";
import { NotFoundContent } from "~/components/public/not-found";
import { buttonClasses } from "~/components/ui/button";
import { formatFcfa } from "~/lib/format";
import type { Route } from "./+types/sandbox-gateway";

/** The full stylesheet: this page's classes stay out of the public site's light one (app/root.tsx). */
export const handle = { stylesheet: "app" };
/**
 * The local test gateway's payment page (/paiement/bac-a-sable/:reference), standing in for a
 * provider's in development and tests: the payer approves or refuses, the gateway notifies the
 * merchant (signed) and sends the learner back. Absent (404) when the gateway is off. As a real
 * provider asks the payer's own phone or card, only the payer's session sees and decides it
 * (anyone else: 404), and it shows no name.
 */
function gateway(args: { context: Route.LoaderArgs["context"] }) {
  const sandbox = args.context.get(paymentsContext).sandbox;
  if (!sandbox) throw data(null, { status: 404 });
  return sandbox;
}

export async function loader(args: Route.LoaderArgs) {
  const sandbox = gateway(args);
  const payer = await requireUser(args);
  const transaction = await sandbox.get(args.params.reference, payer.id);
  if (!transaction) throw data(null, { status: 404 });
  return {
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    description: transaction.description,
    channel: transaction.channel,
    status: transaction.status,
  };
}

const decisionSchema = z.object({ decision: z.enum(["approve", "refuse"]) });

export async function action(args: Route.ActionArgs) {
  const sandbox = gateway(args);
  const payer = await requireUser(args);
  const parsed = decisionSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return data({ error: "Choisissez d'approuver ou de refuser le paiement." }, { status: 400 });
  const decided = await sandbox.decide(args.params.reference, parsed.data.decision === "approve", payer.id);
  if (!decided) throw data(null, { status: 404 });
  // Back to the merchant's return page, on this very site.
  const back = new URL(decided.returnUrl);
  return redirect(`${back.pathname}${back.search}`, { status: 303 });
}

export const meta: Route.MetaFunction = () => [{ title: "Passerelle de paiement de test" }, { name: "robots", content: "noindex" }];

export default function SandboxGatewayPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const deciding = navigation.state !== "idle";
  const decided = loaderData.status !== "pending";
  return (
    <main className="mx-auto max-w-lg px-4 py-8 sm:py-12">
      <div role="note" className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 px-4 py-3 text-amber-950">
        <p className="font-bold">Passerelle de paiement de test</p>
        <p className="text-sm">
          Aucun argent réel n'est débité. Elle remplace Orange Money, Moov Africa et la carte bancaire pendant les essais.
        </p>
      </div>
      <h1 className="mt-6 text-2xl font-extrabold text-slate-900">Confirmer le paiement</h1>
      <dl className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white text-sm">
        {[
          ["Marchand", loaderData.description],
          ["Moyen", loaderData.channel === "card" ? "Carte bancaire (test)" : "Mobile money (test)"],
          ["Référence", loaderData.reference],
          ["Montant", loaderData.currency === "XOF" ? formatFcfa(loaderData.amount) : `${loaderData.amount} ${loaderData.currency}`],
        ].map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-semibold break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {actionData?.error ? (
        <p role="alert" className="mt-4 font-medium text-red-700">
          {actionData.error}
        </p>
      ) : null}
      {decided ? (
        <p role="status" className="mt-6 text-slate-700">
          Ce paiement a déjà été {loaderData.status === "approved" ? "approuvé" : "refusé"}.
        </p>
      ) : (
        <Form method="post" className="mt-6 flex flex-col gap-3 sm:flex-row">
          <button
            type="submit"
            name="decision"
            value="approve"
            disabled={deciding}
            className={buttonClasses({ size: "lg", className: "flex-1" })}
          >
            Approuver le paiement
          </button>
          <button
            type="submit"
            name="decision"
            value="refuse"
            disabled={deciding}
            className={buttonClasses({ variant: "outline", size: "lg", className: "flex-1" })}
          >
            Refuser
          </button>
        </Form>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent message="Cette transaction de test n'existe pas." />;
  throw error;
}
