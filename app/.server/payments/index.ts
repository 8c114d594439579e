import { and, desc, eq, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { formatFcfa } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { PAYMENT_EXPIRY_MS, paymentMethodLabels as methodLabels } from "~/lib/payments";
import type { Actor } from "../auth/actor";
import { getInstitute } from "../catalogue";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { courses, enrolments, paymentEvents, payments, users } from "../db/schema";
import { AppError } from "../errors";
import { activateEnrolment, cancelEnrolment, startEnrolment } from "../learning";
import { loadInstituteIdentity, sendMail } from "../mail";
import { notifyUser } from "../notifications";
import { cashInstructionsMail, receiptMail } from "./mails";
import type { PaymentChannel, ProviderStatus } from "./providers/provider";
import { renderReceiptPdf, type ReceiptData } from "./receipt";
import { canManagePayments, canViewPayment } from "./policy";
import { newPaymentReference, normalizePaymentReference } from "./reference";
import { providerById, type Payments } from "./setup";

/** Readable codes (no ambiguous characters): payment references here, certificate numbers elsewhere. */
export { newReadableCode } from "./reference";
/** Text the standard PDF fonts can draw (also used by the certificates' PDF). */
export { toWinAnsi } from "./receipt";

export type Payment = typeof payments.$inferSelect;
export type PaymentMethod = Payment["method"];

/** The person paying: the session's user (names and contact for the provider and the mails). */
export type Payer = Actor & { email: string; firstName: string; lastName: string; phone: string | null };

async function logEvent(
  tx: Database,
  paymentId: number,
  kind: string,
  detail: Record<string, unknown> = {},
  actorId: string | null = null,
) {
  await tx.insert(paymentEvents).values({ paymentId, kind, detail, actorId });
}

/** The ways to pay offered now: online ones only with a provider, cash always. */
export function paymentMethods(services: Payments): Array<{ method: PaymentMethod; label: string; hint: string; test: boolean }> {
  const online = services.online;
  const methods: Array<{ method: PaymentMethod; label: string; hint: string; test: boolean }> = [];
  if (online?.channels.includes("mobile_money"))
    methods.push({
      method: "mobile_money",
      label: methodLabels.mobile_money,
      hint: "Orange Money, Moov Africa Malitel…",
      test: online.id === "sandbox",
    });
  if (online?.channels.includes("card"))
    methods.push({ method: "card", label: methodLabels.card, hint: "Visa, Mastercard", test: online.id === "sandbox" });
  methods.push({ method: "cash", label: methodLabels.cash, hint: "Payez à l'accueil de l'institut avec votre référence", test: false });
  return methods;
}

export type CheckoutOutcome =
  | { kind: "enrolled"; enrolmentId: number }
  | { kind: "already"; enrolmentId: number }
  | { kind: "redirect"; url: string; reference: string }
  | { kind: "cash"; reference: string };

async function insertPayment(tx: Database, values: Omit<typeof payments.$inferInsert, "reference">): Promise<Payment> {
  // A clash of references is astronomically rare; another draw settles it.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const reference = newPaymentReference();
    const [taken] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.reference, reference));
    if (taken) continue;
    const [row] = await tx
      .insert(payments)
      .values({ ...values, reference })
      .returning();
    return row!;
  }
  throw new Error("Aucune référence de paiement libre après 5 tirages.");
}

/**
 * "S'inscrire" then pay: enrols (a free course opens at once; a full one refuses), then opens a
 * payment by the chosen method. Online: a pending payment, then the provider's page. Cash: a
 * pending payment whose reference the learner brings to the office (the same one if asked twice),
 * and a mail with the instructions.
 */
export async function startCheckout(
  db: Database,
  services: Payments,
  payer: Payer,
  courseId: number,
  method: PaymentMethod | null,
  now = new Date(),
): Promise<CheckoutOutcome> {
  const prepared = await db.transaction(async (tx) => {
    const start = await startEnrolment(tx, payer, courseId, now);
    if (start.kind === "enrolled") return { kind: "enrolled" as const, enrolmentId: start.enrolment.id };
    if (start.kind === "already") return { kind: "already" as const, enrolmentId: start.enrolment.id };
    if (!method) throw AppError.invalid({ method: "Choisissez un moyen de paiement." }, "Choisissez un moyen de paiement.");
    const [course] = await tx.select({ title: courses.title }).from(courses).where(eq(courses.id, courseId));
    if (method === "cash") {
      const [open] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.enrolmentId, start.enrolment.id), eq(payments.method, "cash"), eq(payments.status, "pending")));
      if (open) return { kind: "cash" as const, payment: open, courseTitle: course!.title, fresh: false };
      const payment = await insertPayment(tx, {
        enrolmentId: start.enrolment.id,
        userId: payer.id,
        courseId,
        amount: start.amount,
        method,
        provider: "office",
        createdAt: now,
        updatedAt: now,
      });
      await logEvent(tx, payment.id, "created", { method }, payer.id);
      return { kind: "cash" as const, payment, courseTitle: course!.title, fresh: true };
    }
    const provider = services.online;
    if (!provider || !provider.channels.includes(method as PaymentChannel))
      throw AppError.unavailable("Ce moyen de paiement n'est pas disponible pour le moment.");
    // A payment already open at the provider for this enrolment and this method is the one to
    // finish: a second one could be paid too (the course row locked by startEnrolment makes two
    // simultaneous clicks wait for each other here).
    const [open] = await tx
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.enrolmentId, start.enrolment.id),
          eq(payments.provider, provider.id),
          eq(payments.method, method),
          eq(payments.status, "pending"),
        ),
      )
      .orderBy(desc(payments.createdAt))
      .limit(1);
    if (open) return { kind: "reused" as const, payment: open };
    const payment = await insertPayment(tx, {
      enrolmentId: start.enrolment.id,
      userId: payer.id,
      courseId,
      amount: start.amount,
      method,
      provider: provider.id,
      createdAt: now,
      updatedAt: now,
    });
    await logEvent(tx, payment.id, "created", { method, provider: provider.id }, payer.id);
    return { kind: "online" as const, payment, courseTitle: course!.title };
  });

  if (prepared.kind === "enrolled" || prepared.kind === "already") return prepared;
  if (prepared.kind === "reused") {
    const { payment } = prepared;
    await logEvent(db, payment.id, "checkout_reused", {}, payer.id);
    // Its provider page, or (while the first click is still opening it) the payment's own page.
    return { kind: "redirect", url: payment.checkoutUrl ?? `/dashboard/paiements/${payment.reference}`, reference: payment.reference };
  }
  if (prepared.kind === "cash") {
    if (prepared.fresh) await sendCashInstructions(db, services, payer, prepared.payment, prepared.courseTitle);
    return { kind: "cash", reference: prepared.payment.reference };
  }

  const { payment } = prepared;
  const provider = services.online!;
  const identity = await loadInstituteIdentity(db);
  try {
    const session = await provider.createCheckout({
      reference: payment.reference,
      amount: payment.amount,
      currency: "XOF",
      description: `Formation ${prepared.courseTitle} – ${identity.shortName}`.slice(0, 200),
      channel: method as PaymentChannel,
      customer: { id: payer.id, firstName: payer.firstName, lastName: payer.lastName, email: payer.email, phone: payer.phone },
      returnUrl: `${services.publicUrl}/paiement/retour?reference=${encodeURIComponent(payment.reference)}`,
      notifyUrl: `${services.publicUrl}/api/paiements/notification/${provider.id}`,
    });
    await db
      .update(payments)
      .set({ providerReference: session.providerReference, checkoutUrl: session.redirectUrl, updatedAt: new Date() })
      .where(eq(payments.id, payment.id));
    await logEvent(db, payment.id, "checkout_opened", { provider: provider.id });
    return { kind: "redirect", url: session.redirectUrl, reference: payment.reference };
  } catch (error) {
    const message =
      error instanceof AppError && error.code === "unavailable"
        ? error.message
        : "Le service de paiement ne répond pas. Réessayez dans un instant.";
    await db
      .update(payments)
      .set({ status: "failed", failureReason: message, updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
    await logEvent(db, payment.id, "checkout_failed", { error: String(error) });
    throw AppError.unavailable(message, error);
  }
}

async function sendCashInstructions(db: Database, services: Payments, payer: Payer, payment: Payment, courseTitle: string) {
  const [institute, identity] = await Promise.all([getInstitute(db), loadInstituteIdentity(db)]);
  await sendMail(
    db,
    services.mailEnv,
    cashInstructionsMail({
      to: payer.email,
      firstName: payer.firstName,
      reference: payment.reference,
      amount: payment.amount,
      courseTitle,
      institute,
      url: `${services.publicUrl}/dashboard/paiements/${payment.reference}`,
      identity,
    }),
  );
}

/**
 * Settles a payment as completed, in one transaction: the payment (only if still `from`, pending
 * unless an admin reinstates one to reconcile: a second notification or click changes nothing),
 * its enrolment opened, the learner's other pending attempts for it closed. The receipt is mailed
 * after the commit. Returns false when another request settled it first.
 */
async function completePayment(
  db: Database,
  services: Payments,
  payment: Payment,
  details: { providerReference?: string | null; methodDetail?: string | null; receiptNumber?: string; recordedBy?: string },
  now: Date,
  from: "pending" | "to_reconcile" = "pending",
) {
  const completed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({ status: "completed", completedAt: now, updatedAt: now, ...details })
      .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
      .returning();
    if (!row) return null;
    if (from === "to_reconcile") {
      const paidBy = await otherCompletedPayment(tx, row);
      if (paidBy)
        throw AppError.conflict(
          `L'inscription est déjà réglée par le paiement ${paidBy} : ce paiement ne peut qu'être remboursé.`,
          "already_paid",
        );
    }
    await activateEnrolment(tx, row.enrolmentId, now);
    const others = await tx
      .update(payments)
      .set({ status: "failed", failureReason: `Remplacé par le paiement ${row.reference}.`, updatedAt: now })
      .where(and(eq(payments.enrolmentId, row.enrolmentId), eq(payments.status, "pending"), ne(payments.id, row.id)))
      .returning({ id: payments.id });
    for (const other of others) await logEvent(tx, other.id, "superseded", { by: row.reference });
    await logEvent(tx, row.id, from === "pending" ? "completed" : "reinstated", details, details.recordedBy ?? null);
    await notifyPayment(tx, row, "confirmed", now);
    return row;
  });
  if (completed) await sendReceipt(db, services, completed);
  return completed !== null;
}

/** The learner's bell (and, for a refund, an e-mail), in the payment's transaction: once per payment and outcome. */
async function notifyPayment(tx: Database, payment: Payment, outcome: "confirmed" | "refunded", now: Date) {
  const [course] = await tx.select({ title: courses.title, slug: courses.slug }).from(courses).where(eq(courses.id, payment.courseId));
  const title = course?.title ?? "votre formation";
  await notifyUser(tx, {
    userId: payment.userId,
    kind: outcome === "confirmed" ? "payment_confirmed" : "payment_refunded",
    title: outcome === "confirmed" ? "Paiement confirmé" : "Paiement remboursé",
    body:
      outcome === "confirmed"
        ? `Votre paiement de ${formatFcfa(payment.amount)} pour « ${title} » est confirmé : la formation vous est ouverte.`
        : `Votre paiement de ${formatFcfa(payment.amount)} pour « ${title} » (${payment.reference}) a été remboursé.`,
    link: outcome === "confirmed" && course ? `/dashboard/formations/${course.slug}` : `/dashboard/paiements/${payment.reference}`,
    key: `payment:${payment.id}:${outcome}`,
    now,
  });
}

async function sendReceipt(db: Database, services: Payments, payment: Payment) {
  const data = await receiptData(db, payment);
  const pdf = await renderReceiptPdf(data);
  const [identity, [learner]] = await Promise.all([
    loadInstituteIdentity(db),
    db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, payment.userId)),
  ]);
  const [course] = await db.select({ slug: courses.slug }).from(courses).where(eq(courses.id, payment.courseId));
  await sendMail(
    db,
    services.mailEnv,
    receiptMail({
      to: learner!.email,
      firstName: learner!.firstName,
      reference: payment.reference,
      amount: payment.amount,
      courseTitle: data.course.title,
      url: `${services.publicUrl}/dashboard/formations/${course?.slug ?? ""}`,
      receipt: { filename: `recu-${payment.reference}.pdf`, contentType: "application/pdf", content: pdf },
      identity,
    }),
  );
}

/** The reference of another completed payment of the same enrolment, if any (then this one was paid twice). */
async function otherCompletedPayment(tx: Database, payment: Pick<Payment, "id" | "enrolmentId">): Promise<string | null> {
  const [other] = await tx
    .select({ reference: payments.reference })
    .from(payments)
    .where(and(eq(payments.enrolmentId, payment.enrolmentId), eq(payments.status, "completed"), ne(payments.id, payment.id)))
    .limit(1);
  return other?.reference ?? null;
}

/**
 * `payerId` is the learner who pays: callers show the outcome (the course, the message) to them
 * only (/paiement/retour tells anyone else nothing).
 */
export type ConfirmOutcome = {
  status: Payment["status"];
  reference: string;
  courseSlug: string;
  payerId: string;
  message: string | null;
};

/**
 * The provider says a payment that had already failed (expired after 48 hours, refused, replaced
 * by another checkout) was paid after all: the money was taken, so it is not left as a failure.
 * The payment waits for an admin ("Payé — à rapprocher") with the reason; the event keeps what the
 * provider said. Only from `failed`: a second word changes nothing.
 */
async function flagPaidLate(db: Database, payment: Payment, status: ProviderStatus, source: string, now: Date) {
  return db.transaction(async (tx) => {
    const paidBy = await otherCompletedPayment(tx, payment);
    const reason = paidBy
      ? `Payé en double : l'inscription est déjà réglée par le paiement ${paidBy}. À rembourser.`
      : `Payé auprès de l'opérateur après l'échec du paiement (${(payment.failureReason ?? "échoué").replace(/\.$/, "")}). À rétablir ou à rembourser.`;
    const [row] = await tx
      .update(payments)
      .set({
        status: "to_reconcile",
        reconcileReason: reason,
        providerReference: status.providerReference ?? payment.providerReference,
        methodDetail: status.methodDetail ?? payment.methodDetail,
        updatedAt: now,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "failed")))
      .returning();
    if (!row) return null;
    await logEvent(tx, row.id, "paid_late", {
      source,
      previousFailure: payment.failureReason,
      paidTwiceWith: paidBy,
      amount: status.amount,
      currency: status.currency,
      providerReference: status.providerReference,
    });
    return row;
  });
}

/**
 * What a provider says about one of its payments (after its notification, or when the learner
 * comes back), asked to the provider itself. A completed payment must match our amount and
 * currency: otherwise it is refused and logged. Calling it twice changes nothing the second time.
 */
export async function confirmOnlinePayment(
  db: Database,
  services: Payments,
  providerId: string | null,
  rawReference: string,
  source: "notification" | "return",
  now = new Date(),
): Promise<ConfirmOutcome> {
  const reference = normalizePaymentReference(rawReference);
  const [row] = await db
    .select({ payment: payments, courseSlug: courses.slug })
    .from(payments)
    .innerJoin(courses, eq(payments.courseId, courses.id))
    .where(eq(payments.reference, reference));
  // The learner's return names no provider: the payment's own is asked.
  const provider = row ? providerById(services, providerId ?? row.payment.provider) : null;
  if (!row || !provider || row.payment.provider !== provider.id) throw AppError.notFound("Paiement introuvable.");
  const { payment, courseSlug } = row;
  const payerId = payment.userId;
  const settled = (current: Payment) => ({
    status: current.status,
    reference,
    courseSlug,
    payerId,
    message: current.status === "to_reconcile" ? current.reconcileReason : current.failureReason,
  });
  // Completed, refunded or waiting for an admin: the provider has nothing more to tell.
  if (payment.status !== "pending" && payment.status !== "failed") return settled(payment);

  let status: ProviderStatus;
  try {
    status = await provider.checkStatus(reference);
  } catch (error) {
    await logEvent(db, payment.id, "check_failed", { source, error: String(error) });
    if (payment.status === "failed") return settled(payment);
    return {
      status: "pending",
      reference,
      courseSlug,
      payerId,
      message: "La confirmation du paiement est en cours. Revenez dans quelques minutes.",
    };
  }
  // A failed payment the provider still calls failed (or pending): nothing to record again.
  if (payment.status === "failed" && status.status !== "completed") return settled(payment);
  await logEvent(db, payment.id, "checked", {
    source,
    status: status.status,
    amount: status.amount,
    currency: status.currency,
    providerReference: status.providerReference,
    message: status.message,
  });

  if (status.status === "completed") {
    if (status.amount !== payment.amount || status.currency !== payment.currency) {
      const reason = "Montant ou devise différents de ceux attendus : paiement refusé, contactez l'institut.";
      if (payment.status === "failed") {
        await logEvent(db, payment.id, "amount_mismatch", {
          expected: { amount: payment.amount, currency: payment.currency },
          reported: { amount: status.amount, currency: status.currency },
        });
        return settled(payment);
      }
      await db
        .update(payments)
        .set({ status: "failed", failureReason: reason, updatedAt: now })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
      await logEvent(db, payment.id, "amount_mismatch", {
        expected: { amount: payment.amount, currency: payment.currency },
        reported: { amount: status.amount, currency: status.currency },
      });
      console.error(
        `Paiement ${reference} refusé : ${status.amount} ${status.currency} annoncés pour ${payment.amount} ${payment.currency} attendus.`,
      );
      return { status: "failed", reference, courseSlug, payerId, message: reason };
    }
    if (payment.status === "failed") await flagPaidLate(db, payment, status, source, now);
    else
      await completePayment(db, services, payment, { providerReference: status.providerReference, methodDetail: status.methodDetail }, now);
    const [after] = await db.select().from(payments).where(eq(payments.id, payment.id));
    // Expired meanwhile (or settled by a concurrent request): what it is now, paid late included.
    if (payment.status === "pending" && after!.status === "failed")
      return confirmOnlinePayment(db, services, providerId, reference, source, now);
    return { ...settled(after!), message: after!.status === "completed" ? null : settled(after!).message };
  }
  if (status.status === "failed") {
    const reason = status.message ?? "Le paiement a été refusé ou annulé.";
    await db
      .update(payments)
      .set({ status: "failed", failureReason: reason, updatedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
    return { status: "failed", reference, courseSlug, payerId, message: reason };
  }
  return { status: "pending", reference, courseSlug, payerId, message: "Le paiement n'est pas encore confirmé par l'opérateur." };
}

/** A provider's notification: authentic (signature) or ignored. */
export async function handlePaymentNotification(
  db: Database,
  services: Payments,
  providerId: string,
  request: Request,
): Promise<ConfirmOutcome | null> {
  const provider = providerById(services, providerId);
  if (!provider) return null;
  const notification = await provider.parseNotification(request);
  if (!notification) {
    console.error(`Notification de paiement ${providerId} rejetée : signature invalide.`);
    return null;
  }
  return confirmOnlinePayment(db, services, providerId, notification.reference, "notification");
}

function assertManager(actor: Actor) {
  if (!canManagePayments(actor)) throw AppError.forbidden("Seul un administrateur peut enregistrer un paiement ou un remboursement.");
}

/** An admin records cash received at the office: the payment completes and the course opens. */
export async function recordCashPayment(
  db: Database,
  services: Payments,
  admin: Actor,
  rawReference: string,
  receiptNumber: string,
  now = new Date(),
): Promise<Payment> {
  assertManager(admin);
  const receipt = receiptNumber.trim();
  if (!receipt || receipt.length > 50)
    throw AppError.invalid({ receiptNumber: "Saisissez le numéro du reçu remis (50 caractères au plus)." });
  const [payment] = await db
    .select()
    .from(payments)
    .where(eq(payments.reference, normalizePaymentReference(rawReference)));
  // The reference is typed by the admin: an unknown one is a field error, not a missing page.
  if (!payment || payment.method !== "cash") throw AppError.invalid({ reference: "Aucun paiement en espèces ne porte cette référence." });
  if (payment.status === "pending") await completePayment(db, services, payment, { receiptNumber: receipt, recordedBy: admin.id }, now);
  // Recorded now, or already (a double click, a replay, another admin at the same instant): one
  // recording wins; the same receipt again is that recording, another one is told which it was.
  const [after] = await db.select().from(payments).where(eq(payments.id, payment.id));
  if (after!.status === "completed" && after!.receiptNumber === receipt) return after!;
  if (after!.status === "completed" || after!.status === "refunded")
    throw AppError.conflict(`Ce paiement est déjà enregistré, avec le reçu n° ${after!.receiptNumber ?? "—"}.`, "already_recorded");
  throw AppError.conflict("Ce paiement n'est plus en attente : l'apprenant doit recommencer son inscription.");
}

/** An admin records a refund: the payment is refunded and the enrolment closes (unless paid otherwise). */
export async function refundPayment(db: Database, admin: Actor, rawReference: string, reason: string, now = new Date()): Promise<Payment> {
  assertManager(admin);
  const why = reason.trim();
  if (!why || why.length > LIMITS.shortText)
    throw AppError.invalid({ reason: `Indiquez le motif du remboursement (${LIMITS.shortText} caractères au plus).` });
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .update(payments)
      .set({ status: "refunded", refundedAt: now, refundedBy: admin.id, refundReason: why, updatedAt: now })
      .where(and(eq(payments.reference, normalizePaymentReference(rawReference)), eq(payments.status, "completed")))
      .returning();
    if (!payment) {
      const [current] = await tx
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.reference, normalizePaymentReference(rawReference)));
      throw AppError.conflict(
        current?.status === "refunded" ? "Ce paiement est déjà remboursé." : "Seul un paiement reçu peut être remboursé.",
        current?.status === "refunded" ? "already_refunded" : undefined,
      );
    }
    const [stillPaid] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.enrolmentId, payment.enrolmentId), eq(payments.status, "completed")));
    if (!stillPaid) await cancelEnrolment(tx, payment.enrolmentId, now);
    await logEvent(tx, payment.id, "refunded", { reason: why }, admin.id);
    await notifyPayment(tx, payment, "refunded", now);
    return payment;
  });
}

export type ReconcileDecision = "reinstate" | "refund";

/**
 * An admin settles a payment "Payé — à rapprocher" (paid at the provider after it had failed):
 * - "reinstate": it becomes the enrolment's payment (completed, the course opens again, the
 *   receipt is mailed), refused when another payment already paid the enrolment;
 * - "refund": the money goes back (refunded, with the note as its reason); the enrolment is
 *   left as it is, since this payment never opened it.
 * Once only: a double click, a replay or a second admin is told it is already settled.
 */
export async function settlePaymentToReconcile(
  db: Database,
  services: Payments,
  admin: Actor,
  rawReference: string,
  decision: ReconcileDecision,
  note: string,
  now = new Date(),
): Promise<Payment> {
  assertManager(admin);
  const why = note.trim();
  if (decision === "refund" && (!why || why.length > 500))
    throw AppError.invalid({ note: "Indiquez le motif du remboursement (500 caractères au plus)." });
  if (why.length > 500) throw AppError.invalid({ note: "500 caractères au plus." });
  const reference = normalizePaymentReference(rawReference);
  const [payment] = await db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment) throw AppError.notFound("Paiement introuvable.");
  const alreadySettled = () => AppError.conflict("Ce paiement est déjà réglé : il n'est plus à rapprocher.", "already_settled");
  if (payment.status !== "to_reconcile") throw alreadySettled();

  if (decision === "reinstate") {
    const done = await completePayment(db, services, payment, { recordedBy: admin.id }, now, "to_reconcile");
    if (!done) throw alreadySettled();
  } else {
    const refunded = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({ status: "refunded", refundedAt: now, refundedBy: admin.id, refundReason: why, updatedAt: now })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "to_reconcile")))
        .returning();
      if (row) {
        await logEvent(tx, row.id, "refunded", { reason: why, reconciled: true }, admin.id);
        await notifyPayment(tx, row, "refunded", now);
      }
      return row;
    });
    if (!refunded) throw alreadySettled();
  }
  const [after] = await db.select().from(payments).where(eq(payments.id, payment.id));
  return after!;
}

/**
 * The finance screen's "À rapprocher": payments the provider says were paid after they had
 * failed, oldest first, with whether reinstating is possible (the enrolment is not paid otherwise).
 */
export async function listPaymentsToReconcile(db: Database, admin: Actor) {
  assertManager(admin);
  const rows = await db
    .select({ ...paymentView, enrolmentId: payments.enrolmentId, updatedAt: payments.updatedAt })
    .from(payments)
    .innerJoin(courses, eq(payments.courseId, courses.id))
    .innerJoin(users, eq(payments.userId, users.id))
    .where(eq(payments.status, "to_reconcile"))
    .orderBy(payments.updatedAt, payments.id)
    .limit(500);
  const paidEnrolments = new Set(
    rows.length
      ? (
          await db
            .select({ enrolmentId: payments.enrolmentId })
            .from(payments)
            .where(
              and(
                inArray(
                  payments.enrolmentId,
                  rows.map((row) => row.enrolmentId),
                ),
                eq(payments.status, "completed"),
              ),
            )
        ).map((row) => row.enrolmentId)
      : [],
  );
  return rows.map((row) => ({ ...row, canReinstate: !paidEnrolments.has(row.enrolmentId) }));
}

export type PaymentToReconcile = Awaited<ReturnType<typeof listPaymentsToReconcile>>[number];

/** How many payments wait for an admin to settle them (the finance screen's tab badge). */
export async function countPaymentsToReconcile(db: Database, admin: Actor): Promise<number> {
  assertManager(admin);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.status, "to_reconcile"));
  return Number(row?.n ?? 0);
}

/**
 * Payments left pending for 48 hours fail ("abandoned"); an enrolment left with nothing to pay it
 * closes, which frees its seat. Returns how many expired.
 */
export async function expireAbandonedPayments(db: Database, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(payments)
      .set({ status: "failed", failureReason: "Paiement abandonné : délai de 48 heures dépassé.", updatedAt: now })
      .where(and(eq(payments.status, "pending"), lt(payments.createdAt, new Date(now.getTime() - PAYMENT_EXPIRY_MS))))
      .returning({ id: payments.id, enrolmentId: payments.enrolmentId });
    for (const payment of expired) await logEvent(tx, payment.id, "expired");
    const enrolmentIds = [...new Set(expired.map((payment) => payment.enrolmentId))];
    if (enrolmentIds.length) {
      const stillPaying = new Set(
        (
          await tx
            .select({ enrolmentId: payments.enrolmentId })
            .from(payments)
            .where(and(inArray(payments.enrolmentId, enrolmentIds), inArray(payments.status, ["pending", "completed"])))
        ).map((row) => row.enrolmentId),
      );
      const waiting = await tx
        .select({ id: enrolments.id })
        .from(enrolments)
        .where(and(inArray(enrolments.id, enrolmentIds), eq(enrolments.status, "pending_payment")));
      for (const enrolment of waiting) if (!stillPaying.has(enrolment.id)) await cancelEnrolment(tx, enrolment.id, now);
    }
    return expired.length;
  });
}

const paymentView = {
  id: payments.id,
  reference: payments.reference,
  amount: payments.amount,
  currency: payments.currency,
  method: payments.method,
  methodDetail: payments.methodDetail,
  provider: payments.provider,
  status: payments.status,
  failureReason: payments.failureReason,
  reconcileReason: payments.reconcileReason,
  checkoutUrl: payments.checkoutUrl,
  receiptNumber: payments.receiptNumber,
  refundReason: payments.refundReason,
  createdAt: payments.createdAt,
  completedAt: payments.completedAt,
  refundedAt: payments.refundedAt,
  courseId: payments.courseId,
  courseTitle: courses.title,
  courseSlug: courses.slug,
  userId: payments.userId,
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
};

export type PaymentView = Awaited<ReturnType<typeof listPayments>>[number];

/**
 * The finance screen's transactions: every payment, newest first, searched on the course title,
 * the learner's e-mail or name, or the reference; filtered by status.
 */
export async function listPayments(
  db: Database,
  admin: Actor,
  filters: {
    q?: string;
    status?: Payment["status"] | "all";
    method?: PaymentMethod | "all";
    /** Payments opened or refunded within it (the finance screen's period, as its export). */
    window?: { from: Date; to: Date };
    limit?: number;
  } = {},
) {
  assertManager(admin);
  const conditions: SQL[] = [];
  const { window } = filters;
  if (window) {
    conditions.push(
      or(
        and(gte(payments.createdAt, window.from), lt(payments.createdAt, window.to)),
        and(gte(payments.refundedAt, window.from), lt(payments.refundedAt, window.to)),
      )!,
    );
  }
  const q = filters.q?.trim();
  if (q) {
    conditions.push(
      or(
        containsText(q, courses.title, users.email, sql`${users.firstName} || ' ' || ${users.lastName}`),
        containsText(normalizePaymentReference(q), payments.reference),
      )!,
    );
  }
  if (filters.status && filters.status !== "all") conditions.push(eq(payments.status, filters.status));
  if (filters.method && filters.method !== "all") conditions.push(eq(payments.method, filters.method));
  return db
    .select(paymentView)
    .from(payments)
    .innerJoin(courses, eq(payments.courseId, courses.id))
    .innerJoin(users, eq(payments.userId, users.id))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(filters.limit ?? 200);
}

/** A learner's payments (or any, for an admin), newest first. */
export async function listLearnerPayments(db: Database, actor: Actor) {
  return db
    .select(paymentView)
    .from(payments)
    .innerJoin(courses, eq(payments.courseId, courses.id))
    .innerJoin(users, eq(payments.userId, users.id))
    .where(eq(payments.userId, actor.id))
    .orderBy(desc(payments.createdAt), desc(payments.id));
}

/** One payment, to its learner or an admin (anyone else: not found). */
export async function getPaymentForViewer(db: Database, actor: Actor, rawReference: string) {
  const [row] = await db
    // The learner's progress on the course paid for: whether the payment's page says to start it or to go on.
    .select({ ...paymentView, courseProgress: enrolments.progress })
    .from(payments)
    .innerJoin(courses, eq(payments.courseId, courses.id))
    .innerJoin(users, eq(payments.userId, users.id))
    .leftJoin(enrolments, eq(payments.enrolmentId, enrolments.id))
    .where(eq(payments.reference, normalizePaymentReference(rawReference)));
  if (!row || !canViewPayment(actor, row)) throw AppError.notFound("Paiement introuvable.");
  return row;
}

async function receiptData(db: Database, payment: Payment): Promise<ReceiptData> {
  const [institute, [learner], [course], recorder] = await Promise.all([
    getInstitute(db),
    db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, payment.userId)),
    db.select({ title: courses.title }).from(courses).where(eq(courses.id, payment.courseId)),
    payment.recordedBy
      ? db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, payment.recordedBy))
      : Promise.resolve([]),
  ]);
  return {
    institute: {
      name: institute.name,
      shortName: institute.shortName,
      tagline: institute.tagline,
      address: institute.address,
      phones: institute.phones,
      email: institute.email,
    },
    reference: payment.reference,
    receiptNumber: payment.receiptNumber,
    paidAt: payment.completedAt ?? payment.updatedAt,
    learner: {
      name: `${learner?.firstName ?? ""} ${learner?.lastName ?? ""}`.trim() || (learner?.email ?? ""),
      email: learner?.email ?? "",
    },
    course: { title: course?.title ?? "" },
    amount: payment.amount,
    currency: "XOF",
    method: payment.method,
    methodDetail: payment.methodDetail,
    recordedBy: recorder[0] ? `${recorder[0].firstName} ${recorder[0].lastName}`.trim() : null,
    status: payment.status === "refunded" ? "refunded" : "completed",
    refundedAt: payment.refundedAt,
  };
}

/** The receipt PDF of a completed (or refunded) payment, to its learner or an admin. */
export async function getReceiptPdf(db: Database, actor: Actor, rawReference: string): Promise<{ filename: string; pdf: Buffer }> {
  const view = await getPaymentForViewer(db, actor, rawReference);
  if (view.status !== "completed" && view.status !== "refunded")
    throw AppError.notFound("Ce paiement n'a pas de reçu : il n'est pas réglé.");
  const [payment] = await db.select().from(payments).where(eq(payments.id, view.id));
  return { filename: `recu-${view.reference}.pdf`, pdf: await renderReceiptPdf(await receiptData(db, payment!)) };
}
