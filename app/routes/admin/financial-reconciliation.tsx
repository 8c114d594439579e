import { Scale } from "~/components/icons";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure } from "~/.server/http/errors";
import { listPaymentsToReconcile, settlePaymentToReconcile } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectWithToast } from "~/.server/toast";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { formatFcfa, plural } from "~/lib/format";
import { failureOf, summaryOf } from "~/lib/form-result";
import { paymentMethodLabels } from "~/lib/payments";
import { paymentReferenceSchema } from "~/lib/schemas";
import type { Route } from "./+types/financial-reconciliation";
import { formatDateTime } from "~/lib/dates";

/**
 * "Gestion Financière › À rapprocher" (/admin/financial/rapprochement): payments the provider
 * says were paid after they had failed (expired after 48 hours, refused, replaced by a second
 * checkout that was paid too). The money was taken: each one is settled once, by reinstating the
 * enrolment or by refunding (payments capability, `settlePaymentToReconcile`).
 */

export async function loader(args: Route.LoaderArgs) {
  const rows = await listPaymentsToReconcile(args.context.get(dbContext), args.context.get(userContext));
  return {
    payments: rows.map((row) => ({
      reference: row.reference,
      courseTitle: row.courseTitle,
      learner: `${row.userFirstName} ${row.userLastName}`.trim() || row.userEmail,
      email: row.userEmail,
      amount: row.amount,
      method: row.method,
      methodDetail: row.methodDetail,
      reason: row.reconcileReason ?? "",
      openedAt: formatDateTime(row.createdAt),
      flaggedAt: formatDateTime(row.updatedAt),
      canReinstate: row.canReinstate,
    })),
  };
}

const actionSchema = z.object({
  intent: z.enum(["reinstate", "refund"]),
  reference: paymentReferenceSchema,
  note: z.string().max(2000).default(""),
});

export async function action(args: Route.ActionArgs) {
  const parsed = actionSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return formFailure(parsed.error, { message: "La demande est incomplète." });
  const { intent, reference, note } = parsed.data;
  try {
    await settlePaymentToReconcile(
      args.context.get(dbContext),
      args.context.get(paymentsContext),
      args.context.get(userContext),
      reference,
      intent,
      note,
    );
  } catch (error) {
    return formFailure(error, { intent, values: { reference, note } });
  }
  return redirectWithToast(
    "/admin/financial/rapprochement",
    intent === "reinstate"
      ? { type: "success", title: "Inscription rétablie", description: `Le paiement ${reference} est reçu : la formation est ouverte.` }
      : { type: "success", title: "Remboursement enregistré", description: `Le paiement ${reference} est remboursé.` },
    { status: 303 },
  );
}

export const meta = () => [{ title: "Paiements à rapprocher · Gestion Financière · Administration" }];

export default function ReconciliationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { payments } = loaderData;
  const navigation = useNavigation();
  const busyFor = (reference: string) => navigation.state !== "idle" && navigation.formData?.get("reference") === reference;
  const failure = failureOf<{ reference: string; note: string }>(actionData);
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-slate-600">
          <Link to="/admin/financial" className="font-medium text-brand-700 hover:underline">
            Gestion Financière
          </Link>
        </p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900">Paiements à rapprocher</h1>
        <p className="mt-1 text-slate-600">
          L'opérateur confirme ces paiements alors qu'ils avaient expiré, échoué ou été remplacés par un autre : l'argent a été pris.
          Rétablissez l'inscription, ou remboursez l'apprenant.
        </p>
      </div>
      {failure && !failure.values ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {summaryOf(failure)}
        </p>
      ) : null}
      <Card aria-labelledby="a-rapprocher">
        <CardHeader>
          <CardTitle id="a-rapprocher" className="flex items-center gap-2">
            <Scale aria-hidden="true" className="size-5 text-brand-700" />À rapprocher
          </CardTitle>
          <p className="text-sm text-slate-600" role="status">
            {payments.length === 0 ? "Aucun paiement à rapprocher." : plural(payments.length, "paiement à régler", "paiements à régler")}
          </p>
        </CardHeader>
        {payments.length > 0 ? (
          <CardContent>
            <ul className="divide-y divide-slate-100">
              {payments.map((payment) => {
                const error = failure?.values?.reference === payment.reference ? summaryOf(failure) : null;
                const noteId = `note-${payment.reference}`;
                const busy = busyFor(payment.reference);
                return (
                  <li key={payment.reference} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 lg:flex-row lg:items-start">
                    <div className="min-w-0 flex-1 space-y-1">
                      <p className="font-mono font-bold text-slate-900">{payment.reference}</p>
                      <p className="text-sm text-slate-700">
                        {payment.learner} ({payment.email}) · {payment.courseTitle}
                      </p>
                      <p className="text-sm text-slate-600">
                        {formatFcfa(payment.amount)} · {paymentMethodLabels[payment.method]}
                        {payment.methodDetail ? ` (${payment.methodDetail})` : ""} · ouvert le {payment.openedAt}, confirmé le{" "}
                        {payment.flaggedAt}
                      </p>
                      <p className="text-sm font-medium text-slate-900">{payment.reason}</p>
                    </div>
                    <Form method="post" className="w-full space-y-2 lg:w-80">
                      <input type="hidden" name="reference" value={payment.reference} />
                      <label htmlFor={noteId} className="block text-sm font-medium text-slate-800">
                        Motif (obligatoire pour rembourser)
                      </label>
                      <Input
                        id={noteId}
                        name="note"
                        maxLength={500}
                        defaultValue={failure?.values?.reference === payment.reference ? failure.values.note : ""}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `${noteId}-erreur` : undefined}
                      />
                      {error ? (
                        <p id={`${noteId}-erreur`} className="text-sm font-medium text-red-700">
                          {error}
                        </p>
                      ) : null}
                      <div className="flex flex-wrap gap-2">
                        {payment.canReinstate ? (
                          <button type="submit" name="intent" value="reinstate" className={buttonClasses({ size: "sm" })} disabled={busy}>
                            Rétablir l'inscription
                          </button>
                        ) : null}
                        <button
                          type="submit"
                          name="intent"
                          value="refund"
                          className={buttonClasses({ variant: "outline", size: "sm" })}
                          disabled={busy}
                        >
                          Rembourser
                        </button>
                      </div>
                    </Form>
                  </li>
                );
              })}
            </ul>
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}
