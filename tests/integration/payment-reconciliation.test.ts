/**
 * Money with a trace (issue 9): every word of the gateway is recorded and acted on. A payment
 * paid after it expired, or paid twice, waits for an admin ("Payé — à rapprocher"), who reinstates
 * or refunds it once; a second "S'inscrire" reuses the pending online payment; simultaneous cash
 * recordings of one reference: one wins, the others are told which receipt it was.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { enrolments, mailOutbox, paymentEvents, payments } from "~/.server/db/schema";
import {
  confirmOnlinePayment,
  countPaymentsToReconcile,
  expireAbandonedPayments,
  handlePaymentNotification,
  listPaymentsToReconcile,
  recordCashPayment,
  settlePaymentToReconcile,
  startCheckout,
} from "~/.server/payments";
import { createSandboxProvider } from "~/.server/payments/providers/sandbox";
import type { Payments } from "~/.server/payments/setup";
import { createCourse, createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let services: Payments;
const sent: Request[] = [];
/** A copy of the last notification delivered, to replay it. */
let replay: Request | null = null;
let admin: TestUser;
let otherAdmin: TestUser;
let teacher: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  const sandbox = createSandboxProvider({
    db: handle.db,
    secret: "secret-rapprochement",
    fetch: async (url, init) => {
      sent.push(new Request(String(url), init as RequestInit));
      return new Response("OK");
    },
  });
  services = { online: sandbox, sandbox, publicUrl: "http://campus.test", mailEnv: { LOG_LEVEL: "silent" } };
  admin = await createUser(handle.db, { role: "admin", firstName: "Moussa", lastName: "Diallo" });
  otherAdmin = await createUser(handle.db, { role: "admin", firstName: "Aminata", lastName: "Keïta" });
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Kadiatou", lastName: "Traoré" });
});
afterAll(async () => handle?.close());

const course = async (title: string) => (await createCourse(handle.db, { instructor: teacher, title, priceFcfa: 90_000 })).course;
const learner = (firstName: string) => createUser(handle.db, { role: "user", firstName, lastName: "Coulibaly" });
const paymentOf = async (reference: string) => (await handle.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const enrolmentStatus = async (userId: string, courseId: number) =>
  (
    await handle.db
      .select({ status: enrolments.status })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)))
  )[0]?.status;
const eventsOf = async (reference: string) =>
  (
    await handle.db
      .select({ kind: paymentEvents.kind, detail: paymentEvents.detail, actorId: paymentEvents.actorId })
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, (await paymentOf(reference)).id))
  ).map((event) => event);
const receiptsTo = async (email: string) =>
  (await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter((mail) => mail.subject.includes("Paiement reçu"));

/** Pays at the gateway, then delivers its signed notification: what the real gateway does. */
async function payAtGateway(reference: string, payer: TestUser) {
  sent.length = 0;
  await services.sandbox!.decide(reference, true, payer.id);
  expect(sent).toHaveLength(1);
  replay = sent[0]!.clone();
  return handlePaymentNotification(handle.db, services, "sandbox", sent[0]!);
}

async function onlineCheckout(payer: TestUser, courseId: number, method: "mobile_money" | "card" = "mobile_money") {
  const outcome = await startCheckout(handle.db, services, payer, courseId, method);
  if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
  return outcome;
}

describe("a payment approved after it expired", () => {
  it("is recorded and waits for an admin instead of staying failed", async () => {
    const paidLate = await course("Payée en retard");
    const awa = await learner("Awa");
    const { reference } = await onlineCheckout(awa, paidLate.id);
    expect(await expireAbandonedPayments(handle.db, new Date(Date.now() + 49 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(await paymentOf(reference)).toMatchObject({ status: "failed" });
    expect(await enrolmentStatus(awa.id, paidLate.id)).toBe("cancelled");

    const outcome = await payAtGateway(reference, awa);
    expect(outcome).toMatchObject({ status: "to_reconcile", payerId: awa.id, message: expect.stringMatching(/après l'échec/) });
    expect(await paymentOf(reference)).toMatchObject({
      status: "to_reconcile",
      providerReference: `SBX-${reference}`,
      reconcileReason: expect.stringMatching(/48 heures/),
    });
    expect((await eventsOf(reference)).map((event) => event.kind)).toEqual(expect.arrayContaining(["expired", "checked", "paid_late"]));
    // Still closed until an admin decides; the replayed notification and the return change nothing.
    expect(await enrolmentStatus(awa.id, paidLate.id)).toBe("cancelled");
    expect(await handlePaymentNotification(handle.db, services, "sandbox", replay!)).toMatchObject({ status: "to_reconcile" });
    expect(await confirmOnlinePayment(handle.db, services, null, reference, "return")).toMatchObject({ status: "to_reconcile" });
    expect((await eventsOf(reference)).filter((event) => event.kind === "paid_late")).toHaveLength(1);

    const listed = await listPaymentsToReconcile(handle.db, admin);
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ reference, canReinstate: true, userEmail: awa.email })]));
    expect(await countPaymentsToReconcile(handle.db, admin)).toBeGreaterThanOrEqual(1);
    await expect(listPaymentsToReconcile(handle.db, teacher)).rejects.toMatchObject({ code: "forbidden" });
    await expect(settlePaymentToReconcile(handle.db, services, awa, reference, "reinstate", "")).rejects.toMatchObject({
      code: "forbidden",
    });

    // Two admins at the same instant, one reinstating, one refunding: one wins, the other is told.
    const results = await Promise.allSettled([
      settlePaymentToReconcile(handle.db, services, admin, reference, "reinstate", ""),
      settlePaymentToReconcile(handle.db, services, otherAdmin, reference, "refund", "Remboursé par erreur"),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "conflict", reason: "already_settled" });
    const settled = await paymentOf(reference);
    if (settled.status === "completed") {
      expect(await enrolmentStatus(awa.id, paidLate.id)).toBe("active");
      expect(await receiptsTo(awa.email)).toHaveLength(1);
    } else {
      expect(settled).toMatchObject({ status: "refunded", refundedBy: otherAdmin.id });
      expect(await enrolmentStatus(awa.id, paidLate.id)).toBe("cancelled");
    }
    // A double click later: already settled, nothing changes.
    await expect(settlePaymentToReconcile(handle.db, services, admin, reference, "reinstate", "")).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await listPaymentsToReconcile(handle.db, admin)).map((row) => row.reference)).not.toContain(reference);
  });

  it("reinstates the enrolment and mails the receipt, once", async () => {
    const late = await course("Rétablie");
    const bakary = await learner("Bakary");
    const { reference } = await onlineCheckout(bakary, late.id, "card");
    await expireAbandonedPayments(handle.db, new Date(Date.now() + 49 * 3600_000));
    await payAtGateway(reference, bakary);
    const reinstated = await settlePaymentToReconcile(handle.db, services, admin, reference, "reinstate", "Vérifié auprès de l'opérateur");
    expect(reinstated).toMatchObject({ status: "completed", recordedBy: admin.id });
    expect(await enrolmentStatus(bakary.id, late.id)).toBe("active");
    expect(await receiptsTo(bakary.email)).toHaveLength(1);
    expect((await eventsOf(reference)).find((event) => event.kind === "reinstated")?.actorId).toBe(admin.id);
  });

  it("asks for a reason before refunding", async () => {
    const late = await course("Remboursée");
    const chaka = await learner("Chaka");
    const { reference } = await onlineCheckout(chaka, late.id);
    await expireAbandonedPayments(handle.db, new Date(Date.now() + 49 * 3600_000));
    await payAtGateway(reference, chaka);
    await expect(settlePaymentToReconcile(handle.db, services, admin, reference, "refund", "  ")).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { note: expect.any(String) },
    });
    expect(
      await settlePaymentToReconcile(handle.db, services, admin, reference, "refund", "L'apprenant ne veut plus la formation"),
    ).toMatchObject({ status: "refunded", refundReason: "L'apprenant ne veut plus la formation" });
  });
});

describe("a course paid twice", () => {
  it("flags the second payment for a refund, and refuses to reinstate it", async () => {
    const twice = await course("Payée deux fois");
    const djeneba = await learner("Djeneba");
    const first = await onlineCheckout(djeneba, twice.id, "mobile_money");
    // Another method: another payment (the first stays open at the provider).
    const second = await onlineCheckout(djeneba, twice.id, "card");
    expect(second.reference).not.toBe(first.reference);
    expect(await payAtGateway(first.reference, djeneba)).toMatchObject({ status: "completed" });
    expect(await paymentOf(second.reference)).toMatchObject({ status: "failed", failureReason: expect.stringMatching(/Remplacé/) });

    expect(await payAtGateway(second.reference, djeneba)).toMatchObject({ status: "to_reconcile" });
    expect(await paymentOf(second.reference)).toMatchObject({
      status: "to_reconcile",
      reconcileReason: expect.stringContaining(`déjà réglée par le paiement ${first.reference}`),
    });
    const row = (await listPaymentsToReconcile(handle.db, admin)).find((entry) => entry.reference === second.reference);
    expect(row).toMatchObject({ canReinstate: false });
    await expect(settlePaymentToReconcile(handle.db, services, admin, second.reference, "reinstate", "")).rejects.toMatchObject({
      code: "conflict",
      reason: "already_paid",
    });
    // Refused inside its transaction: still to reconcile, no second receipt.
    expect((await paymentOf(second.reference)).status).toBe("to_reconcile");
    await settlePaymentToReconcile(handle.db, services, admin, second.reference, "refund", "Payé deux fois");
    expect(await paymentOf(second.reference)).toMatchObject({ status: "refunded" });
    expect(await paymentOf(first.reference)).toMatchObject({ status: "completed" });
    expect(await enrolmentStatus(djeneba.id, twice.id)).toBe("active");
    expect(await receiptsTo(djeneba.email)).toHaveLength(1);
  });
});

describe("a second 'S'inscrire'", () => {
  it("reuses the pending online payment instead of opening another, even when clicked at once", async () => {
    const once = await course("Un seul paiement");
    const fanta = await learner("Fanta");
    const clicks = await Promise.all([1, 2, 3].map(() => startCheckout(handle.db, services, fanta, once.id, "mobile_money")));
    const references = new Set(clicks.map((click) => (click.kind === "redirect" ? click.reference : click.kind)));
    expect(references.size).toBe(1);
    const rows = await handle.db.select().from(payments).where(eq(payments.courseId, once.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.checkoutUrl).toBe(`/paiement/bac-a-sable/${rows[0]!.reference}`);
    const again = await startCheckout(handle.db, services, fanta, once.id, "mobile_money");
    expect(again).toEqual({ kind: "redirect", url: rows[0]!.checkoutUrl, reference: rows[0]!.reference });
  });
});

describe("cash recorded at the same instant by several admins", () => {
  it("keeps one recording and tells the others which receipt it was", async () => {
    const counter = await course("Au guichet");
    const gaoussou = await learner("Gaoussou");
    const outcome = await startCheckout(handle.db, services, gaoussou, counter.id, "cash");
    if (outcome.kind !== "cash") throw new Error("not cash");
    const receipts = ["R-101", "R-102", "R-103", "R-104", "R-105"];
    const results = await Promise.allSettled(
      receipts.map((receipt, index) => recordCashPayment(handle.db, services, index % 2 ? otherAdmin : admin, outcome.reference, receipt)),
    );
    const won = results.filter((result) => result.status === "fulfilled");
    expect(won).toHaveLength(1);
    const kept = (await paymentOf(outcome.reference)).receiptNumber!;
    expect(receipts).toContain(kept);
    for (const result of results.filter((entry) => entry.status === "rejected") as PromiseRejectedResult[]) {
      expect(result.reason).toMatchObject({
        code: "conflict",
        reason: "already_recorded",
        message: `Ce paiement est déjà enregistré, avec le reçu n° ${kept}.`,
      });
    }
    // The winner's double click (the same receipt): the same recording, no error, nothing new.
    await expect(recordCashPayment(handle.db, services, admin, outcome.reference, kept)).resolves.toMatchObject({
      status: "completed",
      receiptNumber: kept,
    });
    expect(await receiptsTo(gaoussou.email)).toHaveLength(1);
    expect((await eventsOf(outcome.reference)).filter((event) => event.kind === "completed")).toHaveLength(1);
  });
});
