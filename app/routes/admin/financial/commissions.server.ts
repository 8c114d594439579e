import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { currentCommissionRate, financeContext, listCommissionMonths, payCommission, setCommissionRate } from "~/.server/finance";
import type { Window } from "~/.server/reports";
import { redirectWithToast } from "~/.server/toast";
import { LIMITS } from "~/lib/limits";

/** « Commissions » of « Gestion financière », server side: each instructor's months, their payout and rate. */

export async function loadCommissions(context: Readonly<RouterContextProvider>, db: Database, admin: Actor, window: Window, now: Date) {
  const months = await listCommissionMonths(db, admin, { from: window.from, to: window.to });
  const instructorIds = [...new Set(months.map((month) => month.instructorId))];
  const rates = Object.fromEntries(
    await Promise.all(instructorIds.map(async (id) => [id, await currentCommissionRate(db, id, now)] as const)),
  );
  const finance = context.get(financeContext);
  return {
    tab: "commissions" as const,
    currentPeriod: now.toISOString().slice(0, 7),
    provider: finance.payouts ? finance.payouts.label : null,
    rates,
    months: months.map(({ lines, ...month }) => ({
      ...month,
      courses: lines.map((line) => ({ title: line.courseTitle, sales: line.sales, commission: line.commissionFcfa })),
    })),
  };
}

export const commissionIntents = [
  z.object({
    intent: z.literal("pay-commission"),
    instructorId: z.string().min(1).max(LIMITS.textId),
    period: z.string().regex(/^\d{4}-\d{2}$/),
    channel: z.enum(["manual", "provider"]),
    manualReference: z
      .string()
      .max(LIMITS.receiptNumber * 2)
      .optional(),
  }),
  z.object({
    intent: z.literal("set-rate"),
    instructorId: z.string().min(1).max(LIMITS.textId),
    rate: z.coerce
      .number({ error: "Le taux est un nombre." })
      .int("Le taux est un nombre entier.")
      .min(0, "De 0 à 100.")
      .max(100, "De 0 à 100."),
  }),
] as const;
type CommissionIntent = z.infer<(typeof commissionIntents)[number]>;

/** Pays an instructor's month, or sets their rate; back to the page with a toast. */
export async function handleCommissionIntent(
  context: Readonly<RouterContextProvider>,
  db: Database,
  admin: Actor,
  data: CommissionIntent,
  back: string,
) {
  if (data.intent === "pay-commission") {
    const payout = await payCommission(db, context.get(financeContext), admin, data);
    const toast =
      payout.status === "paid"
        ? { type: "success" as const, title: "Paiement complété", description: "La commission a été payée avec succès." }
        : payout.status === "processing"
          ? { type: "success" as const, title: "Paiement initié", description: "Le paiement de la commission a été initié." }
          : {
              type: "error" as const,
              title: "Erreur",
              description: `Impossible de traiter le paiement : ${payout.failureReason ?? "transfert refusé"}.`,
            };
    return redirectWithToast(back, toast, { status: 303 });
  }
  await setCommissionRate(db, admin, data.instructorId, data.rate);
  return redirectWithToast(
    back,
    {
      type: "success",
      title: "Taux enregistré",
      description: `Le taux de ${data.rate} % s'applique aux paiements à partir de maintenant.`,
    },
    { status: 303 },
  );
}

export type CommissionsPanel = Awaited<ReturnType<typeof loadCommissions>>;
