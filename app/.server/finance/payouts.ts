import { and, eq, lt } from "drizzle-orm";
import { formatFcfa } from "~/lib/format";
import { formatPeriodMonth } from "~/lib/finance";
import { LIMITS } from "~/lib/limits";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { commissionPayouts, users } from "../db/schema";
import { AppError } from "../errors";
import { notifyUser } from "../notifications";
import { newReadableCode } from "../payments";
import { getPayoutDetails } from "../teaching";
import { assertFinanceManager, commissionLines, type Payout } from "./commissions";
import type { PayoutOutcome } from "./payouts/provider";
import type { Finance } from "./setup";

/** The month in Bamako ("2026-11") of `date`. */
export function periodOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export type PayoutInput = { instructorId: string; period: string; channel: "manual" | "provider"; manualReference?: string };

/**
 * "Payer": records the payment of an instructor's commissions for a finished month, by hand (with
 * the transfer's reference: paid at once) or through the payout provider (processing, then paid or
 * failed as the provider answers). One live payout per instructor and month, enforced by a unique
 * index: a double click or a second administrator gets a conflict, never a second payment.
 */
export async function payCommission(db: Database, finance: Finance, admin: Actor, input: PayoutInput, now = new Date()): Promise<Payout> {
  assertFinanceManager(admin);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(input.period)) throw AppError.invalid({ period: "Mois invalide." });
  if (input.period >= periodOf(now))
    throw AppError.invalid({ period: "Le mois n'est pas terminé : ses commissions se paient à partir du 1er du mois suivant." });
  const manualReference = input.manualReference?.trim() ?? "";
  if (input.channel === "manual" && (!manualReference || manualReference.length > LIMITS.receiptNumber))
    throw AppError.invalid({
      manualReference: `Saisissez la référence du virement ou du reçu (${LIMITS.receiptNumber} caractères au plus).`,
    });
  const provider = input.channel === "provider" ? finance.payouts : null;
  if (input.channel === "provider" && !provider)
    throw AppError.unavailable("Aucun service de paiement mobile n'est configuré : payez à la main.");

  const [instructor] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, input.instructorId));
  if (!instructor) throw AppError.notFound("Enseignant introuvable.");
  // The mobile-money number the teacher gave in their settings (issue 14), else their profile's phone.
  const details = provider ? await getPayoutDetails(db, admin, instructor.id) : null;
  const phone = details?.method === "mobile_money" ? details.number : details?.method === "bank" ? null : instructor.phone;
  if (provider && !phone) throw AppError.invalid({ channel: "L'enseignant n'a pas de numéro de mobile money : payez à la main." });

  const lines = await commissionLines(db, { instructorId: input.instructorId, period: input.period });
  const amount = lines.reduce((total, line) => total + line.commissionFcfa, 0);
  if (amount <= 0) throw AppError.invalid({ period: "Aucune commission à payer pour ce mois." });

  const payout = await db.transaction(async (tx) => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reference = newReadableCode("COM", 2);
      const [taken] = await tx
        .select({ id: commissionPayouts.id })
        .from(commissionPayouts)
        .where(eq(commissionPayouts.reference, reference));
      if (taken) continue;
      const [row] = await tx
        .insert(commissionPayouts)
        .values({
          reference,
          instructorId: instructor.id,
          period: input.period,
          amount,
          channel: provider ? provider.id : "manual",
          status: provider ? "processing" : "paid",
          manualReference: provider ? null : manualReference,
          createdBy: admin.id,
          createdAt: now,
          updatedAt: now,
          paidAt: provider ? null : now,
        })
        // The live payout of this month exists already (a second click, another admin).
        .onConflictDoNothing()
        .returning();
      if (!row) throw AppError.conflict("Cette commission est déjà payée ou en cours de paiement.");
      if (row.status === "paid") await tellInstructor(tx, row);
      return row;
    }
    throw new Error("Aucune référence de paiement libre après 5 tirages.");
  });
  if (!provider) return payout;

  let outcome: PayoutOutcome;
  try {
    outcome = await provider.send({
      reference: payout.reference,
      amount,
      recipient: { firstName: instructor.firstName, lastName: instructor.lastName, email: instructor.email, phone: phone! },
      notifyUrl: `${finance.publicUrl}/api/paiements/notification/commissions`,
    });
  } catch (error) {
    // Unknown: the transfer may have left. It stays processing; the hourly check settles it.
    console.error(`Paiement de commission ${payout.reference} : ${String(error)}`);
    return payout;
  }
  return settlePayout(db, payout, outcome, now);
}

async function tellInstructor(db: Database, payout: Payout) {
  await notifyUser(db, {
    userId: payout.instructorId,
    kind: "commission_paid",
    title: "Commissions payées",
    body: `Vos commissions de ${formatPeriodMonth(payout.period)} (${formatFcfa(payout.amount)}) ont été payées.`,
    link: "/teacher/commissions",
    key: `payout:${payout.id}`,
  });
}

/** Applies a provider's answer to a processing payout (once: a settled payout stays as it is). */
async function settlePayout(db: Database, payout: Payout, outcome: PayoutOutcome, now: Date): Promise<Payout> {
  if (outcome.status === "processing") {
    if (outcome.providerReference && !payout.providerReference)
      await db
        .update(commissionPayouts)
        .set({ providerReference: outcome.providerReference, updatedAt: now })
        .where(eq(commissionPayouts.id, payout.id));
    return { ...payout, providerReference: outcome.providerReference ?? payout.providerReference };
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(commissionPayouts)
      .set({
        status: outcome.status,
        providerReference: outcome.providerReference ?? payout.providerReference,
        failureReason: outcome.status === "failed" ? (outcome.message ?? "Transfert refusé.") : null,
        paidAt: outcome.status === "paid" ? now : null,
        updatedAt: now,
      })
      .where(and(eq(commissionPayouts.id, payout.id), eq(commissionPayouts.status, "processing")))
      .returning();
    if (!row) return (await tx.select().from(commissionPayouts).where(eq(commissionPayouts.id, payout.id)))[0]!;
    if (row.status === "paid") await tellInstructor(tx, row);
    return row;
  });
}

/** Asks the provider about payouts left processing for a minute or more (a schedule; after a provider's notification). */
export async function checkProcessingPayouts(db: Database, finance: Finance, now = new Date(), reference?: string): Promise<number> {
  const provider = finance.payouts;
  if (!provider) return 0;
  const waiting = await db
    .select()
    .from(commissionPayouts)
    .where(
      and(
        eq(commissionPayouts.status, "processing"),
        eq(commissionPayouts.channel, provider.id),
        reference ? eq(commissionPayouts.reference, reference) : lt(commissionPayouts.updatedAt, new Date(now.getTime() - 60_000)),
      ),
    );
  let settled = 0;
  for (const payout of waiting) {
    try {
      const after = await settlePayout(db, payout, await provider.check(payout.reference), now);
      if (after.status !== "processing") settled += 1;
    } catch (error) {
      console.error(`Vérification du paiement de commission ${payout.reference} : ${String(error)}`);
    }
  }
  return settled;
}
