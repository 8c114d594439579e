/**
 * Certificates through their capability: the completion rule, issued exactly once when the last
 * lesson and the last required quiz race, the learner told, the signed Open Badges credential
 * verified with the published key (and refused when one byte changes), the revocation list,
 * verification (valid, expired, revoked), and an admin's revocation and re-issue.
 */
import { gunzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  completionOf,
  getCertificateBadgePng,
  getCertificateCredential,
  getCertificatePdf,
  getOwnCertificate,
  issueCertificateIfComplete,
  listAllCertificates,
  listMyCertificates,
  listPublicKeys,
  myCertificateSummary,
  reissueCertificate,
  revocationList,
  revokeCertificate,
  verifyCertificateCode,
  type Certificates,
} from "~/.server/certificates";
import type { DatabaseHandle } from "~/.server/db/client";
import { certificates, issuerKeys, jobs, notifications, quizzes, users } from "~/.server/db/schema";
import { COMPLETION_CHECK_QUEUE, type CompletionCheck } from "~/.server/learning";
import { isAppError } from "~/.server/errors";
import { createJobService } from "~/.server/jobs";
import { setLessonDone } from "~/.server/learning";
import { listOutbox } from "~/.server/mail";
import { sendNotificationEmail, type NotificationEmailJob } from "~/.server/notifications";
import { startAttempt, submitAttempt } from "~/.server/quizzes/attempts";
import { createCourse, createQuiz, createUser, enrol, rightAnswers, takeQuiz, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let teacher: TestUser;
let admin: TestUser;
const services: Certificates = {
  publicUrl: "http://campus.test",
  secret: "un secret de test assez long pour la dérivation",
};

/** A course of two lessons with a required quiz, and an enrolled learner. */
async function setting(options: { required?: boolean } = {}) {
  const { course, lessons } = await createCourse(handle.db, {
    instructor: teacher,
    priceFcfa: 0,
    lessons: [{ durationMinutes: 90 }, { durationMinutes: 60 }],
  });
  const quiz = await createQuiz(handle.db, teacher, course, { required: options.required ?? true });
  const learner = await createUser(handle.db, { firstName: "Aïssata", lastName: "Keïta" });
  await enrol(handle.db, learner, course);
  return { course, lessons, quiz, learner, check: { userId: learner.id, courseId: course.id } satisfies CompletionCheck };
}

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.reason, fieldErrors: error.fieldErrors };
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  handle = await createTestDatabase();
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Traoré" });
  admin = await createUser(handle.db, { role: "admin" });
});

afterAll(async () => {
  await handle?.close();
});

describe("issuing", () => {
  it("waits for every lesson and every required quiz", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    await setLessonDone(handle.db, learner, lessons[0]!.id, true);
    await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
    expect(await completionOf(handle.db, check)).toBeNull();
    expect(await issueCertificateIfComplete(handle.db, services, check)).toBeNull();
    await setLessonDone(handle.db, learner, lessons[1]!.id, true);
    expect(await completionOf(handle.db, check)).toEqual({ score: 100 });

    const failed = await setting();
    for (const lesson of failed.lessons) await setLessonDone(handle.db, failed.learner, lesson.id, true);
    await takeQuiz(handle.db, failed.learner, failed.course, failed.quiz, () => ({}));
    expect(await completionOf(handle.db, failed.check)).toBeNull();
  });

  it("issues once when the last lesson and the last required quiz race, through the jobs they enqueue", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    await setLessonDone(handle.db, learner, lessons[0]!.id, true);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id);
    const now = new Date();
    await Promise.all([
      setLessonDone(handle.db, learner, lessons[1]!.id, true, now),
      submitAttempt(handle.db, learner, attempt.id, rightAnswers()(attempt.questions), now),
    ]);
    const checks = await handle.db.select().from(jobs).where(eq(jobs.queue, COMPLETION_CHECK_QUEUE));
    expect(checks.filter((job) => (job.payload as CompletionCheck).userId === learner.id)).toHaveLength(2);

    // Two workers run the checks; and the rule is checked twice more at once for good measure.
    const worker = () =>
      createJobService({
        database: handle,
        tickMs: 3_600_000,
        pollMs: 3_600_000,
        onError: (error) => {
          throw error;
        },
        queues: [
          { queue: COMPLETION_CHECK_QUEUE, run: (payload: CompletionCheck) => issueCertificateIfComplete(handle.db, services, payload) },
        ],
      });
    const [one, two] = [worker(), worker()];
    await Promise.all([
      one.runDue(),
      two.runDue(),
      issueCertificateIfComplete(handle.db, services, check),
      issueCertificateIfComplete(handle.db, services, check),
    ]);
    await Promise.all([one.stop(), two.stop()]);
    const issued = await handle.db.select().from(certificates).where(eq(certificates.userId, learner.id));
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({
      courseId: course.id,
      learnerName: "Aïssata Keïta",
      instructorName: "Seydou Traoré",
      score: 100,
      grade: "excellent",
      credits: 3,
      status: "valid",
    });
    expect(issued[0]!.code).toMatch(/^ICEF(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(issued[0]!.validUntil!.getUTCFullYear() - issued[0]!.issuedAt.getUTCFullYear()).toBe(3);
    // The learner is told once, in the app and by e-mail (the notification's queued mail).
    const notices = await handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, learner.id), eq(notifications.kind, "certificate_issued")));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: "Certificat obtenu", link: "/dashboard/certificates" });
    const [mailJob] = await handle.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `notification-email:${notices[0]!.id}`));
    await sendNotificationEmail(
      handle.db,
      { mailEnv: { LOG_LEVEL: "silent" }, publicUrl: services.publicUrl },
      mailJob!.payload as NotificationEmailJob,
    );
    const [mail] = await listOutbox(handle.db, learner.email, 1);
    expect(mail!.subject).toContain("Certificat obtenu");
    expect(mail!.text).toContain(course.title);
    expect(mail!.text).toContain(`http://campus.test/certificats/${issued[0]!.code}`);
  });

  it("takes the grade from the score bands, and no grade without a quiz", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
    // 2 of 3 points: 66.67 is below the default 70; with a passing score of 60 it passes as "Bien".
    await handle.db.update(quizzes).set({ passingScore: 60 }).where(eq(quizzes.id, quiz.id));
    await takeQuiz(handle.db, learner, course, quiz, (questions) => {
      const answers = rightAnswers()(questions);
      delete answers[questions.find((question) => question.type === "short_answer")!.id];
      return answers;
    });
    expect(await issueCertificateIfComplete(handle.db, services, check)).toMatchObject({ score: 66.67, grade: "bien" });

    const { course: plain, lessons: plainLessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 1 });
    const learner2 = await createUser(handle.db);
    await enrol(handle.db, learner2, plain);
    await setLessonDone(handle.db, learner2, plainLessons[0]!.id, true);
    expect(await issueCertificateIfComplete(handle.db, services, { userId: learner2.id, courseId: plain.id })).toMatchObject({
      score: null,
      grade: null,
      credits: 1,
    });
  });
});

describe("the credential", () => {
  it("verifies with the published key and fails when one byte changes", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
    await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
    const certificate = (await issueCertificateIfComplete(handle.db, services, check))!;

    const header = decodeProtectedHeader(certificate.credential);
    expect(header).toMatchObject({ alg: "EdDSA", typ: "JWT" });
    const kid = String(header.kid).split("/").pop()!;
    expect(header.kid).toBe(`http://campus.test/certificats/cles/${kid}`);
    const [published] = (await listPublicKeys(handle.db)).filter((key) => key.kid === kid);
    expect(published!.jwk).not.toHaveProperty("d");
    const key = await importJWK(published!.jwk, "EdDSA");

    const { payload } = await jwtVerify(certificate.credential, key, { issuer: "http://campus.test/certificats/emetteur" });
    expect(payload).toMatchObject({
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      jti: `urn:uuid:${certificate.id}`,
      id: `urn:uuid:${certificate.id}`,
      nbf: Math.floor(certificate.issuedAt.getTime() / 1000),
      exp: Math.floor(certificate.validUntil!.getTime() / 1000),
      credentialSubject: { type: ["AchievementSubject"], achievement: { name: course.title, achievementType: "Certificate" } },
      credentialStatus: { type: "BitstringStatusListEntry", statusListIndex: String(certificate.statusIndex) },
    });
    expect(payload.sub).toBe((payload.credentialSubject as { id: string }).id);
    expect(JSON.stringify(payload)).toContain("Aïssata Keïta");

    // One byte changed in the payload (the name), or in the signature: refused.
    const [head, body, signature] = certificate.credential.split(".");
    const forgedBody = Buffer.from(Buffer.from(body!, "base64url").toString("utf8").replace("Aïssata", "Aïssatu")).toString("base64url");
    await expect(jwtVerify(`${head}.${forgedBody}.${signature}`, key)).rejects.toThrow();
    const bytes = Buffer.from(signature!, "base64url");
    bytes[0] = bytes[0]! ^ 1;
    await expect(jwtVerify(`${head}.${body}.${bytes.toString("base64url")}`, key)).rejects.toThrow();

    // The key is stored encrypted: the private half is not in the table in clear.
    const [stored] = await handle.db.select().from(issuerKeys).where(eq(issuerKeys.kid, kid));
    expect(stored!.encryptedPrivateJwk).not.toContain('"d"');
  });
});

describe("verification, revocation and re-issue", () => {
  it("says valid, then expired past its date, then revoked with the reason, and publishes the revocation", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
    await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
    const certificate = (await issueCertificateIfComplete(handle.db, services, check))!;

    expect(await verifyCertificateCode(handle.db, certificate.code)).toMatchObject({
      state: "valid",
      learnerName: "Aïssata Keïta",
      courseTitle: course.title,
    });
    const later = new Date(certificate.validUntil!.getTime() + 1000);
    expect(await verifyCertificateCode(handle.db, certificate.code, later)).toMatchObject({ state: "expired" });
    expect(await verifyCertificateCode(handle.db, "ICEF-AAAA-BBBB-CCCC")).toBeNull();
    expect(Object.keys((await verifyCertificateCode(handle.db, certificate.code))!)).not.toContain("email");

    expect(await refusal(revokeCertificate(handle.db, teacher, certificate.id, "Fraude"))).toMatchObject({ code: "not_found" });
    expect(await refusal(revokeCertificate(handle.db, admin, certificate.id, " "))).toMatchObject({ code: "invalid" });
    // Two admins at once: one revocation, the other refused.
    const twice = await Promise.allSettled([
      revokeCertificate(handle.db, admin, certificate.id, "Fraude constatée à l'examen"),
      revokeCertificate(handle.db, admin, certificate.id, "Fraude constatée à l'examen"),
    ]);
    expect(twice.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await refusal(revokeCertificate(handle.db, admin, certificate.id, "Encore"))).toMatchObject({ reason: "already_revoked" });
    expect(await verifyCertificateCode(handle.db, certificate.code)).toMatchObject({
      state: "revoked",
      revokedReason: "Fraude constatée à l'examen",
    });

    const list = await revocationList(handle.db, services);
    const { payload } = await jwtVerify(list, await importJWK((await listPublicKeys(handle.db))[0]!.jwk, "EdDSA"));
    const bits = gunzipSync(Buffer.from(String((payload.credentialSubject as { encodedList: string }).encodedList).slice(1), "base64url"));
    expect(bits.length).toBe(16_384);
    const bit = (index: number) => (bits[index >> 3]! >> (7 - (index & 7))) & 1;
    expect(bit(certificate.statusIndex)).toBe(1);
    expect(bit(certificate.statusIndex + 1)).toBe(0);

    // The learner's page and count leave the revoked one out of the figures.
    // Revoked, it is not counted, but the course is not waiting for a certificate either.
    expect(await myCertificateSummary(handle.db, learner)).toEqual({ valid: 0, courseIds: new Set([course.id]) });
    // It leaves the earned list for a list of its own, with the reason; the tiles count the lists.
    const mine = await listMyCertificates(handle.db, learner);
    expect(mine.earned).toEqual([]);
    expect(mine.revoked).toEqual([expect.objectContaining({ code: certificate.code, revokedReason: "Fraude constatée à l'examen" })]);
    expect(mine.tiles).toMatchObject({ certificates: 0, credits: 0, inProgress: mine.inProgress.length });
    // Its holder no longer downloads it (PDF, signed file, badge); an admin still can (marked revoked).
    // One at a time: a refusal started before it is awaited is an unhandled rejection.
    for (const download of [
      () => getCertificatePdf(handle.db, services, learner, certificate.code),
      () => getCertificateCredential(handle.db, learner, certificate.code),
      () => getCertificateBadgePng(handle.db, learner, certificate.code),
    ])
      expect(await refusal(download())).toMatchObject({ code: "forbidden" });
    expect((await getCertificateCredential(handle.db, admin, certificate.code)).body).toBe(certificate.credential);

    // The holder is told once, in the app and by e-mail (always: not a preference), however many clicks.
    const notices = await handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, learner.id), eq(notifications.kind, "certificate_revoked")));
    expect(notices).toHaveLength(1);
    const mailJobs = await handle.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `notification-email:${notices[0]!.id}`));
    expect(mailJobs).toHaveLength(1);
    for (const job of mailJobs)
      await sendNotificationEmail(
        handle.db,
        { mailEnv: { LOG_LEVEL: "silent" }, publicUrl: services.publicUrl },
        job.payload as NotificationEmailJob,
      );
    const mails = (await listOutbox(handle.db, learner.email, 20)).filter((mail) => mail.subject.includes("révoqué"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Fraude constatée à l'examen");
    expect(mails[0]!.text).toContain(certificate.code);
  });

  it("re-issues after a name correction, once; only an admin; the learner alone downloads theirs", async () => {
    const { lessons, course, quiz, learner, check } = await setting();
    for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
    await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
    const first = (await issueCertificateIfComplete(handle.db, services, check))!;
    const stranger = await createUser(handle.db);
    expect(await refusal(getOwnCertificate(handle.db, stranger, first.code))).toMatchObject({ code: "not_found" });
    expect((await getOwnCertificate(handle.db, learner, first.code)).id).toBe(first.id);
    expect((await getOwnCertificate(handle.db, admin, first.code)).id).toBe(first.id);

    expect(await refusal(reissueCertificate(handle.db, services, admin, first.id))).toMatchObject({ reason: "same_name" });
    await handle.db.update(users).set({ firstName: "Aïssatou" }).where(eq(users.id, learner.id));
    expect(await refusal(reissueCertificate(handle.db, services, teacher, first.id))).toMatchObject({ code: "not_found" });
    const second = await reissueCertificate(handle.db, services, admin, first.id);
    expect(second).toMatchObject({ learnerName: "Aïssatou Keïta", replacesId: first.id, issuedAt: first.issuedAt, score: first.score });
    expect(second.code).not.toBe(first.code);
    expect(await refusal(reissueCertificate(handle.db, services, admin, first.id))).toMatchObject({ reason: "already_replaced" });
    expect(await verifyCertificateCode(handle.db, first.code)).toMatchObject({ state: "revoked", replacementCode: second.code });
    expect((await listMyCertificates(handle.db, learner)).earned.map((row) => row.code)).toEqual([second.code]);
    // The completion rule does not issue a third one.
    expect(await issueCertificateIfComplete(handle.db, services, check)).toBeNull();
    const all = await listAllCertificates(handle.db, admin, { q: "Aïssatou" });
    expect(all.map((row) => row.code)).toContain(second.code);
    expect(await refusal(listAllCertificates(handle.db, teacher))).toMatchObject({ code: "not_found" });
  });
});
