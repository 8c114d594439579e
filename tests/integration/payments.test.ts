/**
 * Enrolment and payment through the capabilities, as the checkout, the gateway, the provider's
 * notification and the admin's counter use them: free and paid courses, the three ways to pay,
 * forged and repeated notifications, wrong amounts, refunds, expiry, full courses.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { enrolments, files, lessons, mailOutbox, paymentEvents, payments, sandboxTransactions } from "~/.server/db/schema";
import { getCourseBySlug } from "~/.server/catalogue";
import { AppError } from "~/.server/errors";
import { followsCourse, getLearnerCourse, getReadableFile } from "~/.server/learning";
import {
  confirmOnlinePayment,
  expireAbandonedPayments,
  getReceiptPdf,
  handlePaymentNotification,
  listPayments,
  paymentMethods,
  recordCashPayment,
  refundPayment,
  startCheckout,
  toWinAnsi,
} from "~/.server/payments";
import type { PaymentProvider } from "~/.server/payments/providers/provider";
import { createSandboxProvider, SANDBOX_SIGNATURE_HEADER, signSandboxNotification } from "~/.server/payments/providers/sandbox";
import type { Payments } from "~/.server/payments/setup";
import type { Role } from "~/lib/roles";
import { formatFcfa } from "~/lib/format";
import { createCourse, createUser, type CourseOverrides, type TestUser } from "../factories";
import { pdfTextRuns } from "../setup/pdf";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
const SECRET = "secret-de-la-passerelle-de-test";
/** Notifications the gateway sent, as requests the notification route would receive. */
const sent: Request[] = [];
let services: Payments;

/** A person with a phone (the payer's details go to the provider and the mails). */
const person = (role: Role, firstName: string) => createUser(handle.db, { role, firstName, lastName: "Diallo", phone: "+223 76 00 00 00" });

let admin: TestUser;
let teacher: TestUser;

/** A published course of two 30-minute lessons, 120 000 FCFA unless told. */
async function publishedCourse(title: string, extra: CourseOverrides = {}) {
  return (await createCourse(handle.db, { instructor: teacher, title, priceFcfa: 120_000, ...extra })).course;
}

/** "N étudiants" as the course's public page shows it. */
const shownStudents = async (slug: string) => (await getCourseBySlug(handle.db, slug))!.studentCount;

const paymentOf = async (reference: string) => (await handle.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const enrolmentOf = async (userId: string, courseId: number) =>
  (
    await handle.db
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)))
  )[0];
const mailsTo = (to: string) => handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

beforeAll(async () => {
  handle = await createTestDatabase();
  const sandbox = createSandboxProvider({
    db: handle.db,
    secret: SECRET,
    fetch: async (url, init) => {
      sent.push(new Request(String(url), init as RequestInit));
      return new Response("OK");
    },
  });
  services = { online: sandbox, sandbox, publicUrl: "http://campus.test", mailEnv: { LOG_LEVEL: "silent" } };
  admin = await person("admin", "Moussa");
  teacher = await person("teacher", "Kadiatou");
});
afterAll(async () => handle?.close());

describe("enrolling", () => {
  it("opens a free course at once, once, however often it is clicked", async () => {
    const course = await publishedCourse("Initiation gratuite", { priceFcfa: 0 });
    const learner = await person("user", "Awa");
    const before = await shownStudents(course.slug);
    const [first, second] = [
      await startCheckout(handle.db, services, learner, course.id, null),
      await startCheckout(handle.db, services, learner, course.id, "cash"),
    ];
    expect(first.kind).toBe("enrolled");
    expect(second.kind).toBe("already");
    const rows = await handle.db.select().from(enrolments).where(eq(enrolments.courseId, course.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "active", userId: learner.id });
    expect(await handle.db.select().from(payments).where(eq(payments.courseId, course.id))).toEqual([]);
    expect(await shownStudents(course.slug)).toBe(before + 1);
  });

  it("refuses a course that is full, a draft, and a paid course without a way to pay", async () => {
    const course = await publishedCourse("Petit groupe", { maxStudents: 1 });
    const first = await person("user", "Bintou");
    const second = await person("user", "Cheick");
    await startCheckout(handle.db, services, first, course.id, "cash");
    await expect(startCheckout(handle.db, services, second, course.id, "cash")).rejects.toMatchObject({
      code: "conflict",
      reason: "full",
      message: expect.stringMatching(/complète/),
    });
    // The first learner asking again is not refused: their seat is theirs.
    await expect(startCheckout(handle.db, services, first, course.id, "cash")).resolves.toMatchObject({ kind: "cash" });
    const draft = await createCourse(handle.db, { instructor: teacher, title: "Pas encore ouvert", status: "draft" });
    await expect(startCheckout(handle.db, services, second, draft.course.id, "cash")).rejects.toMatchObject({ code: "not_found" });
    const paid = await publishedCourse("Sans moyen");
    await expect(startCheckout(handle.db, services, second, paid.id, null)).rejects.toMatchObject({ code: "invalid" });
    await expect(startCheckout(handle.db, { ...services, online: null }, second, paid.id, "mobile_money")).rejects.toMatchObject({
      code: "unavailable",
    });
  });

  it("offers online methods only with a provider, and says when it is the test gateway", () => {
    expect(paymentMethods(services).map((method) => [method.method, method.test])).toEqual([
      ["mobile_money", true],
      ["card", true],
      ["cash", false],
    ]);
    expect(paymentMethods({ ...services, online: null }).map((method) => method.method)).toEqual(["cash"]);
  });
});

describe("paying online through the gateway", () => {
  it("keeps the course closed until the provider confirms, then opens it and mails the receipt, once", async () => {
    const course = await publishedCourse("Cybersécurité appliquée");
    const learner = await person("user", "Djeneba");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "mobile_money");
    expect(outcome).toMatchObject({ kind: "redirect", url: expect.stringMatching(/^\/paiement\/bac-a-sable\/ICEF-/) });
    if (outcome.kind !== "redirect") return;
    expect(await paymentOf(outcome.reference)).toMatchObject({
      status: "pending",
      amount: 120000,
      currency: "XOF",
      method: "mobile_money",
      provider: "sandbox",
    });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("pending_payment");
    expect(await followsCourse(handle.db, learner, course.id)).toBe(false);
    await expect(getLearnerCourse(handle.db, learner, course.slug)).rejects.toMatchObject({ code: "forbidden", reason: "pending_payment" });

    // Coming back before paying: still pending, nothing opened.
    expect((await confirmOnlinePayment(handle.db, services, "sandbox", outcome.reference, "return")).status).toBe("pending");

    sent.length = 0;
    expect(await services.sandbox!.decide(outcome.reference, true, learner.id)).toEqual({
      returnUrl: `http://campus.test/paiement/retour?reference=${outcome.reference}`,
    });
    expect(sent).toHaveLength(1);
    const notification = sent[0]!;
    const replay = notification.clone();
    const result = await handlePaymentNotification(handle.db, services, "sandbox", notification);
    expect(result).toMatchObject({ status: "completed", reference: outcome.reference });
    expect(await paymentOf(outcome.reference)).toMatchObject({
      status: "completed",
      methodDetail: "Mobile money de test",
      providerReference: `SBX-${outcome.reference}`,
    });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("active");
    expect(await followsCourse(handle.db, learner, course.id)).toBe(true);
    const mails = await mailsTo(learner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("Paiement reçu");
    expect(mails[0]!.attachments).toEqual([
      { filename: `recu-${outcome.reference}.pdf`, contentType: "application/pdf", size: expect.any(Number) },
    ]);

    // The same notification again, and the learner's return: nothing changes, no second mail.
    expect(await handlePaymentNotification(handle.db, services, "sandbox", replay)).toMatchObject({ status: "completed" });
    expect(await confirmOnlinePayment(handle.db, services, "sandbox", outcome.reference, "return")).toMatchObject({ status: "completed" });
    expect(await mailsTo(learner.email)).toHaveLength(1);
    expect(await shownStudents(course.slug)).toBe(1);
    // Clicking "S'inscrire" again: already enrolled, no new payment.
    expect((await startCheckout(handle.db, services, learner, course.id, "card")).kind).toBe("already");
  });

  it("settles a payment once when the notification and the learner's return arrive together", async () => {
    const course = await publishedCourse("Deux confirmations");
    const learner = await person("user", "Sidiki");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "mobile_money");
    if (outcome.kind !== "redirect") throw new Error("no redirect");
    await services.sandbox!.decide(outcome.reference, true, learner.id);
    const results = await Promise.all([
      confirmOnlinePayment(handle.db, services, "sandbox", outcome.reference, "notification"),
      confirmOnlinePayment(handle.db, services, "sandbox", outcome.reference, "return"),
    ]);
    expect(results.map((result) => result.status)).toEqual(["completed", "completed"]);
    expect((await mailsTo(learner.email)).filter((mail) => mail.subject.includes("Paiement reçu"))).toHaveLength(1);
    const events = await handle.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, (await paymentOf(outcome.reference)).id));
    expect(events.filter((event) => event.kind === "completed")).toHaveLength(1);
  });

  it("ignores a notification whose signature is forged", async () => {
    const course = await publishedCourse("Données et IA");
    const learner = await person("user", "Fanta");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "card");
    if (outcome.kind !== "redirect") throw new Error("no redirect");
    // The gateway approved, but the forger signs with a wrong key and hopes to be believed.
    await handle.db.update(sandboxTransactions).set({ status: "approved" }).where(eq(sandboxTransactions.reference, outcome.reference));
    const fields = { reference: outcome.reference, status: "approved", amount: "120000", currency: "XOF" };
    const forged = new Request("http://campus.test/api/paiements/notification/sandbox", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        [SANDBOX_SIGNATURE_HEADER]: signSandboxNotification("mauvaise-clé", fields),
      },
      body: new URLSearchParams(fields),
    });
    expect(await handlePaymentNotification(handle.db, services, "sandbox", forged)).toBeNull();
    const unsigned = new Request("http://campus.test/x", { method: "POST", body: new URLSearchParams(fields) });
    expect(await handlePaymentNotification(handle.db, services, "sandbox", unsigned)).toBeNull();
    expect((await paymentOf(outcome.reference)).status).toBe("pending");
    expect(await handlePaymentNotification(handle.db, services, "inconnu", forged)).toBeNull();
  });

  it("refuses and logs a payment whose amount does not match", async () => {
    const course = await publishedCourse("Montant faussé");
    const learner = await person("user", "Gaoussou");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "mobile_money");
    if (outcome.kind !== "redirect") throw new Error("no redirect");
    await handle.db.update(sandboxTransactions).set({ amount: 100 }).where(eq(sandboxTransactions.reference, outcome.reference));
    await services.sandbox!.decide(outcome.reference, true, learner.id);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const result = await confirmOnlinePayment(handle.db, services, "sandbox", outcome.reference, "return");
      expect(result).toMatchObject({ status: "failed", message: expect.stringMatching(/Montant ou devise différents/) });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    const payment = await paymentOf(outcome.reference);
    expect(payment.status).toBe("failed");
    const events = await handle.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
    expect(events.map((event) => event.kind)).toContain("amount_mismatch");
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("pending_payment");
  });

  it("records a refusal at the gateway, then lets the learner pay another way", async () => {
    const course = await publishedCourse("Second essai");
    const learner = await person("user", "Hawa");
    const first = await startCheckout(handle.db, services, learner, course.id, "mobile_money");
    if (first.kind !== "redirect") throw new Error("no redirect");
    await services.sandbox!.decide(first.reference, false, learner.id);
    expect(await confirmOnlinePayment(handle.db, services, "sandbox", first.reference, "return")).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/refusé/),
    });
    // Deciding twice on the gateway does nothing more.
    await services.sandbox!.decide(first.reference, true, learner.id);
    expect((await paymentOf(first.reference)).status).toBe("failed");
    const second = await startCheckout(handle.db, services, learner, course.id, "card");
    if (second.kind !== "redirect") throw new Error("no redirect");
    await services.sandbox!.decide(second.reference, true, learner.id);
    await confirmOnlinePayment(handle.db, services, "sandbox", second.reference, "return");
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("active");
  });

  it("fails cleanly when the provider cannot open the payment", async () => {
    const broken: PaymentProvider = {
      ...services.online!,
      createCheckout: async () => {
        throw AppError.unavailable("Le service de paiement ne répond pas. Réessayez dans un instant.");
      },
    };
    const course = await publishedCourse("Fournisseur en panne");
    const learner = await person("user", "Issa");
    await expect(startCheckout(handle.db, { ...services, online: broken }, learner, course.id, "mobile_money")).rejects.toMatchObject({
      code: "unavailable",
      message: "Le service de paiement ne répond pas. Réessayez dans un instant.",
    });
    const [payment] = await handle.db.select().from(payments).where(eq(payments.userId, learner.id));
    expect(payment).toMatchObject({ status: "failed" });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("pending_payment");
  });
});

describe("paying cash at the office", () => {
  it("gives a reference and the instructions, and opens the course once an admin records the cash", async () => {
    const course = await publishedCourse("Énergie solaire au comptant");
    const learner = await person("user", "Kadidia");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "cash");
    if (outcome.kind !== "cash") throw new Error("not cash");
    expect(outcome.reference).toMatch(/^ICEF-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    const [instructions] = await mailsTo(learner.email);
    expect(instructions!.text).toContain(outcome.reference);
    expect(instructions!.text).toContain(formatFcfa(120000));
    expect(instructions!.text).toContain("Cité SEMA, Bamako, Mali");
    expect(instructions!.text).toMatch(/Lundi – Vendredi : 8h00 – 18h00/);
    // Asking again gives the same reference, and no second mail.
    expect(await startCheckout(handle.db, services, learner, course.id, "cash")).toEqual(outcome);
    expect(await mailsTo(learner.email)).toHaveLength(1);

    await expect(recordCashPayment(handle.db, services, teacher, outcome.reference, "R-001")).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(recordCashPayment(handle.db, services, learner, outcome.reference, "R-001")).rejects.toBeInstanceOf(AppError);
    await expect(recordCashPayment(handle.db, services, admin, outcome.reference, "  ")).rejects.toMatchObject({ code: "invalid" });
    // A reference typed by the admin that matches nothing: a message beside the field.
    await expect(recordCashPayment(handle.db, services, admin, "ICEF-XXXX-XXXX", "R-001")).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { reference: "Aucun paiement en espèces ne porte cette référence." },
    });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("pending_payment");

    // Typed loosely at the counter: lower case, no dashes.
    const recorded = await recordCashPayment(handle.db, services, admin, outcome.reference.toLowerCase().replace(/-/g, " "), "R-2026-0042");
    expect(recorded).toMatchObject({ status: "completed", receiptNumber: "R-2026-0042", recordedBy: admin.id });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("active");
    await expect(recordCashPayment(handle.db, services, admin, outcome.reference, "R-2026-0043")).rejects.toMatchObject({
      message: "Ce paiement est déjà enregistré, avec le reçu n° R-2026-0042.",
    });
    expect((await mailsTo(learner.email)).map((mail) => mail.subject)).toEqual([
      expect.stringContaining("paiement à l'institut"),
      expect.stringContaining("Paiement reçu"),
    ]);

    const receipt = await getReceiptPdf(handle.db, learner, outcome.reference);
    expect(receipt.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    // The receipt says what was paid, by whom, for what, under which reference.
    const receiptText = pdfTextRuns(receipt.pdf);
    expect(receiptText).toEqual(
      expect.arrayContaining([
        outcome.reference,
        "R-2026-0042",
        learner.email,
        course.title,
        "Espèces, payées à l'institut",
        toWinAnsi(formatFcfa(120000)),
      ]),
    );
    await expect(getReceiptPdf(handle.db, await person("user", "Curieux"), outcome.reference)).rejects.toMatchObject({ code: "not_found" });
    expect((await getReceiptPdf(handle.db, admin, outcome.reference)).filename).toBe(`recu-${outcome.reference}.pdf`);
  });
});

describe("refunds and expiry", () => {
  it("lets an admin refund a payment, which closes the course", async () => {
    const course = await publishedCourse("À rembourser");
    const learner = await person("user", "Lassana");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "cash");
    if (outcome.kind !== "cash") throw new Error("not cash");
    await expect(refundPayment(handle.db, admin, outcome.reference, "Erreur")).rejects.toMatchObject({ code: "conflict" });
    await recordCashPayment(handle.db, services, admin, outcome.reference, "R-9");
    await expect(refundPayment(handle.db, teacher, outcome.reference, "Je rembourse")).rejects.toMatchObject({ code: "forbidden" });
    await expect(refundPayment(handle.db, admin, outcome.reference, "")).rejects.toMatchObject({ code: "invalid" });
    const refunded = await refundPayment(handle.db, admin, outcome.reference, "Formation annulée par l'apprenant");
    expect(refunded).toMatchObject({ status: "refunded", refundedBy: admin.id, refundReason: "Formation annulée par l'apprenant" });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("cancelled");
    expect(await followsCourse(handle.db, learner, course.id)).toBe(false);
    // The course card no longer counts them.
    expect(await shownStudents(course.slug)).toBe(0);
    await expect(refundPayment(handle.db, admin, outcome.reference, "Deux fois")).rejects.toMatchObject({ code: "conflict" });
    // The receipt stays available, saying it was refunded; enrolling again starts a new payment.
    expect((await getReceiptPdf(handle.db, learner, outcome.reference)).pdf.length).toBeGreaterThan(500);
    const again = await startCheckout(handle.db, services, learner, course.id, "cash");
    expect(again.kind === "cash" && again.reference).not.toBe(outcome.reference);
  });

  it("expires a payment left pending for 48 hours and frees the seat", async () => {
    const course = await publishedCourse("Place libérée", { maxStudents: 1 });
    const learner = await person("user", "Mariam");
    const late = await person("user", "Nouhoum");
    const outcome = await startCheckout(handle.db, services, learner, course.id, "cash");
    if (outcome.kind !== "cash") throw new Error("not cash");
    await expect(startCheckout(handle.db, services, late, course.id, "cash")).rejects.toMatchObject({ code: "conflict", reason: "full" });
    const inOneDay = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await expireAbandonedPayments(handle.db, inOneDay);
    expect((await paymentOf(outcome.reference)).status).toBe("pending");
    const inThreeDays = new Date(Date.now() + 49 * 60 * 60 * 1000);
    expect(await expireAbandonedPayments(handle.db, inThreeDays)).toBeGreaterThanOrEqual(1);
    expect(await paymentOf(outcome.reference)).toMatchObject({ status: "failed", failureReason: expect.stringMatching(/48 heures/) });
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("cancelled");
    await expect(startCheckout(handle.db, services, late, course.id, "cash")).resolves.toMatchObject({ kind: "cash" });
    // Too late for the expired one: the admin cannot record it any more.
    await expect(recordCashPayment(handle.db, services, admin, outcome.reference, "R-10")).rejects.toMatchObject({ code: "conflict" });
  });

  it("keeps an enrolment open while another of its payments is still pending", async () => {
    const course = await publishedCourse("Deux tentatives");
    const learner = await person("user", "Penda");
    const cash = await startCheckout(handle.db, services, learner, course.id, "cash");
    if (cash.kind !== "cash") throw new Error("not cash");
    await handle.db
      .update(payments)
      .set({ createdAt: new Date(Date.now() - 50 * 60 * 60 * 1000) })
      .where(eq(payments.reference, cash.reference));
    const online = await startCheckout(handle.db, services, learner, course.id, "mobile_money");
    expect(online.kind).toBe("redirect");
    await expireAbandonedPayments(handle.db);
    expect((await paymentOf(cash.reference)).status).toBe("failed");
    expect((await enrolmentOf(learner.id, course.id))?.status).toBe("pending_payment");
  });
});

describe("the lessons and their files", () => {
  it("stay closed to a learner whose payment is pending, and open once paid", async () => {
    const course = await publishedCourse("Avec vidéo");
    const learner = await person("user", "Oumar");
    const videoId = randomUUID();
    await handle.db.insert(files).values({
      id: videoId,
      purpose: "lesson_video",
      storageKey: `videos/${videoId}.mp4`,
      originalName: "v.mp4",
      contentType: "video/mp4",
      size: 10,
      courseId: course.id,
    });
    const [lesson] = await handle.db.select().from(lessons).where(eq(lessons.courseId, course.id));
    await handle.db.update(lessons).set({ videoFileId: videoId }).where(eq(lessons.id, lesson!.id));
    await expect(getReadableFile(handle.db, learner, videoId)).rejects.toMatchObject({ code: "not_found" });
    await expect(getLearnerCourse(handle.db, learner, course.slug)).rejects.toMatchObject({ code: "forbidden", reason: "not_enrolled" });
    const outcome = await startCheckout(handle.db, services, learner, course.id, "cash");
    if (outcome.kind !== "cash") throw new Error("not cash");
    await expect(getReadableFile(handle.db, learner, videoId)).rejects.toMatchObject({ code: "not_found" });
    await expect(getLearnerCourse(handle.db, learner, course.slug)).rejects.toMatchObject({ code: "forbidden", reason: "pending_payment" });
    await recordCashPayment(handle.db, services, admin, outcome.reference, "R-11");
    await expect(getReadableFile(handle.db, learner, videoId)).resolves.toMatchObject({ visibility: "private" });
    expect((await getLearnerCourse(handle.db, learner, course.slug)).lessons).toHaveLength(2);
  });
});

describe("the teacher's course list", () => {
  it("counts the enrolments and the revenue actually kept (refunds out)", async () => {
    const { getManagedCourseStats, listManagedCourses } = await import("~/.server/reports");
    const own = await person("teacher", "Yacouba");
    const result = await createCourse(handle.db, { instructor: own, title: "Revenus réels", priceFcfa: 50_000 });
    expect(await getManagedCourseStats(handle.db, own)).toMatchObject({ total: 1, enrolments: 0, revenueFcfa: 0 });
    const paid = await person("user", "Zeinab");
    const refunded = await person("user", "Adama");
    const waiting = await person("user", "Boubacar");
    for (const learner of [paid, refunded]) {
      const outcome = await startCheckout(handle.db, services, learner, result.course.id, "cash");
      if (outcome.kind !== "cash") throw new Error("not cash");
      await recordCashPayment(handle.db, services, admin, outcome.reference, "R");
      if (learner === refunded) await refundPayment(handle.db, admin, outcome.reference, "Annulation");
    }
    await startCheckout(handle.db, services, waiting, result.course.id, "cash");
    expect(await getManagedCourseStats(handle.db, own)).toMatchObject({ enrolments: 1, revenueFcfa: 50000 });
    expect((await listManagedCourses(handle.db, own))[0]?.enrolmentCount).toBe(1);
  });
});

describe("the finance list", () => {
  it("shows every payment to admins only, searched by course, e-mail or reference, filtered by status", async () => {
    await expect(listPayments(handle.db, teacher)).rejects.toMatchObject({ code: "forbidden" });
    const all = await listPayments(handle.db, admin);
    expect(all.length).toBeGreaterThan(5);
    const byCourse = await listPayments(handle.db, admin, { q: "cybersécurité" });
    expect(byCourse.every((payment) => payment.courseTitle === "Cybersécurité appliquée")).toBe(true);
    expect(byCourse.length).toBeGreaterThanOrEqual(1);
    const someone = all.find((payment) => payment.status === "completed")!;
    expect((await listPayments(handle.db, admin, { q: someone.userEmail.toUpperCase() })).map((payment) => payment.userEmail)).toContain(
      someone.userEmail,
    );
    expect((await listPayments(handle.db, admin, { q: someone.reference.toLowerCase() })).map((payment) => payment.reference)).toEqual([
      someone.reference,
    ]);
    expect((await listPayments(handle.db, admin, { status: "refunded" })).every((payment) => payment.status === "refunded")).toBe(true);
    expect(await listPayments(handle.db, admin, { q: "%_" })).toEqual([]);
  });
});
