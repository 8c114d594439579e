import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { createContext } from "react-router";
import { certificateState, gradeLabels, gradeOf, normalizeCertificateCode, type CertificateState } from "~/lib/certificates";
import type { Actor } from "../auth/actor";
import { getInstitute } from "../catalogue";
import { queryRows, type Database } from "../db/client";
import { containsText } from "../db/like";
import { preparedQuery } from "../db/prepared";
import { certificates, courses, enrolments, lessons, quizAttempts, quizzes, users } from "../db/schema";
import type { CompletionCheck } from "../learning";
import { AppError } from "../errors";
import { notifyUser } from "../notifications";
import { newReadableCode } from "../payments";
import { buildCredential, issuerProfile, issuerUrls, signCredential, signedStatusList, type IssuerIdentity } from "./credential";
import { renderCertificatePdf } from "./pdf";
import { canDownloadCertificate, canManageCertificates } from "./policy";
import { consumeRateLimit } from "../rate-limit";

export type Certificate = typeof certificates.$inferSelect;

/** What the certificates capability needs besides the database: built once per process. */
export interface Certificates {
  publicUrl: string;
  /** The application secret: the signing key is stored encrypted with a key derived from it. */
  secret: string;
}

export const certificatesContext = createContext<Certificates>();

async function issuerIdentity(db: Database, publicUrl: string): Promise<IssuerIdentity> {
  const institute = await getInstitute(db);
  return { name: institute.name, email: institute.email, address: institute.address, url: publicUrl };
}

/**
 * The completion rule of a course for a learner: an enrolment completed (every lesson done) and
 * every required quiz (not deleted) passed at least once. Returns the figures the certificate
 * states, or null while the rule does not hold.
 */
export async function completionOf(db: Database, check: CompletionCheck) {
  const [enrolment] = await db
    .select({ status: enrolments.status })
    .from(enrolments)
    .where(and(eq(enrolments.userId, check.userId), eq(enrolments.courseId, check.courseId)));
  if (enrolment?.status !== "completed") return null;
  const quizRows = await db
    .select({
      id: quizzes.id,
      required: quizzes.required,
      best: sql<number | null>`max(${quizAttempts.score}) filter (where ${quizAttempts.status} in ('submitted', 'expired'))`.mapWith(
        (value) => (value === null ? null : Number(value)),
      ),
      passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}), false)`,
    })
    .from(quizzes)
    .leftJoin(quizAttempts, and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.userId, check.userId)))
    .where(and(eq(quizzes.courseId, check.courseId), isNull(quizzes.deletedAt)))
    .groupBy(quizzes.id);
  const required = quizRows.filter((quiz) => quiz.required);
  if (required.some((quiz) => !quiz.passed)) return null;
  // The score: the best attempts at the quizzes that count (required ones, else any taken).
  const counted = (required.length ? required : quizRows).map((quiz) => quiz.best).filter((best): best is number => best !== null);
  const score = counted.length ? Math.round((counted.reduce((sum, best) => sum + best, 0) / counted.length) * 100) / 100 : null;
  return { score };
}

function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

const fullName = (row: { firstName: string; lastName: string; name?: string }) =>
  `${row.firstName} ${row.lastName}`.trim() || row.name || "";

/** The facts of a new certificate (course, learner, teacher), read once at issue. */
async function certificateFacts(db: Database, userId: string, courseId: number) {
  const [row] = await db
    .select({
      learner: { firstName: users.firstName, lastName: users.lastName, name: users.name },
      course: {
        id: courses.id,
        slug: courses.slug,
        title: courses.title,
        description: courses.description,
        objectives: courses.objectives,
        instructorId: courses.instructorId,
        validityMonths: courses.certificateValidityMonths,
      },
    })
    .from(users)
    .innerJoin(courses, eq(courses.id, courseId))
    .where(eq(users.id, userId));
  if (!row) return null;
  const [instructor] = row.course.instructorId
    ? await db
        .select({ firstName: users.firstName, lastName: users.lastName, name: users.name })
        .from(users)
        .where(eq(users.id, row.course.instructorId))
    : [];
  const [minutes] = await db
    .select({ total: sql<number>`coalesce(sum(${lessons.durationMinutes}), 0)`.mapWith(Number) })
    .from(lessons)
    .where(eq(lessons.courseId, courseId));
  return {
    learnerName: fullName(row.learner),
    course: row.course,
    instructorName: instructor ? fullName(instructor) : null,
    // One credit per hour of lessons, at least one.
    credits: Math.max(1, Math.round((minutes?.total ?? 0) / 60)),
  };
}

type NewCertificate = {
  userId: string;
  courseId: number;
  learnerName: string;
  courseTitle: string;
  courseDescription: string;
  courseSlug: string;
  instructorName: string | null;
  issuedAt: Date;
  validUntil: Date | null;
  score: number | null;
  credits: number;
  skills: string[];
  replacesId?: string;
};

/** Writes a certificate with its signed credential, in the caller's transaction; null if one is already current. */
async function insertCertificate(tx: Database, services: Certificates, input: NewCertificate) {
  const id = randomUUID();
  const code = newReadableCode("ICEF", 3);
  const [next] = await queryRows<{ statusIndex: number }>(tx, sql`select nextval('certificate_status_index_seq')::int as "statusIndex"`);
  const statusIndex = next!.statusIndex;
  const grade = gradeOf(input.score);
  const credential = buildCredential(services.publicUrl, await issuerIdentity(tx, services.publicUrl), {
    id,
    code,
    userId: input.userId,
    learnerName: input.learnerName,
    courseTitle: input.courseTitle,
    courseDescription: input.courseDescription,
    courseUrl: `${services.publicUrl}/formations/${input.courseSlug}`,
    issuedAt: input.issuedAt,
    validUntil: input.validUntil,
    credits: input.credits,
    skills: input.skills,
    score: input.score,
    gradeLabel: grade ? gradeLabels[grade] : null,
    statusIndex,
  });
  const jws = await signCredential(tx, services.secret, services.publicUrl, credential, credential.credentialSubject.id);
  const [row] = await tx
    .insert(certificates)
    .values({
      id,
      code,
      userId: input.userId,
      courseId: input.courseId,
      learnerName: input.learnerName,
      courseTitle: input.courseTitle,
      instructorName: input.instructorName,
      issuedAt: input.issuedAt,
      validUntil: input.validUntil,
      score: input.score,
      grade,
      credits: input.credits,
      skills: input.skills,
      statusIndex,
      credential: jws,
      replacesId: input.replacesId ?? null,
      createdAt: input.issuedAt,
    })
    // The partial unique index (one current certificate per learner and course) makes this once.
    .onConflictDoNothing()
    .returning();
  // The learner is told in the app and, as they chose (by default yes), by e-mail: once, with the certificate.
  if (row)
    await notifyUser(tx, {
      userId: input.userId,
      kind: "certificate_issued",
      title: input.replacesId ? "Certificat corrigé" : "Certificat obtenu",
      body: input.replacesId
        ? `Votre certificat « ${input.courseTitle} » a été réémis à votre nom corrigé (n° ${code}). L'ancien n'est plus valide.`
        : `Félicitations ! Votre certificat « ${input.courseTitle} » est délivré (n° ${code}). Téléchargez-le en PDF, partagez-le ou ajoutez-le à LinkedIn ; un employeur peut le vérifier sur ${issuerUrls(services.publicUrl).verification(code)}.`,
      link: "/dashboard/certificates",
      key: `certificate:${row.id}`,
      now: input.issuedAt,
    });
  return row ?? null;
}

/**
 * Issues the certificate when the completion rule holds (the `enrolments.completion-check` job):
 * exactly once, whatever runs twice. Returns the new certificate, or null (rule not met, or
 * already issued).
 */
export async function issueCertificateIfComplete(db: Database, services: Certificates, check: CompletionCheck, now = new Date()) {
  const completion = await completionOf(db, check);
  if (!completion) return null;
  const [existing] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.userId, check.userId), eq(certificates.courseId, check.courseId), isNull(certificates.replacedAt)));
  if (existing) return null;
  const facts = await certificateFacts(db, check.userId, check.courseId);
  if (!facts) return null;
  return db.transaction((tx) =>
    insertCertificate(tx, services, {
      userId: check.userId,
      courseId: check.courseId,
      learnerName: facts.learnerName,
      courseTitle: facts.course.title,
      courseDescription: facts.course.description,
      courseSlug: facts.course.slug,
      instructorName: facts.instructorName,
      issuedAt: now,
      validUntil: facts.course.validityMonths === null ? null : addMonths(now, facts.course.validityMonths),
      score: completion.score,
      credits: facts.credits,
      skills: facts.course.objectives,
    }),
  );
}

function publicView(row: Certificate, now: Date) {
  const state = certificateState(row, now);
  return { ...row, state, gradeLabel: row.grade ? gradeLabels[row.grade] : null };
}
export type CertificateView = ReturnType<typeof publicView>;

/**
 * "Mes Certificats": the actor's certificates (current ones: a replaced certificate gives way to
 * its replacement), newest first, and the courses in progress with what they still need.
 */
export async function listMyCertificates(db: Database, actor: Actor, now = new Date()) {
  const rows = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, actor.id), isNull(certificates.replacedAt)))
    .orderBy(desc(certificates.issuedAt));
  const earned = rows.map((row) => publicView(row, now));
  const following = await db
    .select({
      courseId: courses.id,
      slug: courses.slug,
      title: courses.title,
      status: enrolments.status,
      progress: enrolments.progress,
      activatedAt: enrolments.activatedAt,
      durationWeeks: courses.durationWeeks,
      lastLessonId: enrolments.lastLessonId,
      instructorId: courses.instructorId,
      lessonCount: sql<number>`(select count(*) from "lessons" where "lessons"."course_id" = "courses"."id")`.mapWith(Number),
      lessonsDone:
        sql<number>`(select count(*) from "lesson_progress" where "lesson_progress"."enrolment_id" = "enrolments"."id" and "lesson_progress"."completed_at" is not null)`.mapWith(
          Number,
        ),
      requiredScore: sql<
        number | null
      >`(select max("quizzes"."passing_score") from "quizzes" where "quizzes"."course_id" = "courses"."id" and "quizzes"."required" and "quizzes"."deleted_at" is null)`.mapWith(
        (value) => (value === null ? null : Number(value)),
      ),
      instructorFirstName: users.firstName,
      instructorLastName: users.lastName,
    })
    .from(enrolments)
    .innerJoin(courses, eq(enrolments.courseId, courses.id))
    .leftJoin(users, eq(users.id, courses.instructorId))
    .where(and(eq(enrolments.userId, actor.id), inArray(enrolments.status, ["active", "completed"])))
    .orderBy(desc(enrolments.activatedAt));
  const certified = new Set(rows.map((row) => row.courseId));
  const inProgress = following
    .filter((row) => !certified.has(row.courseId))
    .map((row) => {
      const started = row.activatedAt ?? now;
      // At the pace so far; before any progress, the course's planned length.
      const elapsed = now.getTime() - started.getTime();
      const estimatedEnd =
        row.progress > 0 && row.progress < 100
          ? new Date(now.getTime() + (elapsed * (100 - row.progress)) / row.progress)
          : row.progress >= 100
            ? now
            : new Date(started.getTime() + Math.max(1, row.durationWeeks) * 7 * 24 * 3600 * 1000);
      return {
        slug: row.slug,
        title: row.title,
        progress: row.progress,
        lessonsDone: row.lessonsDone,
        lessonCount: row.lessonCount,
        requiredScore: row.requiredScore,
        instructorName: row.instructorFirstName ? `${row.instructorFirstName} ${row.instructorLastName}`.trim() : null,
        estimatedEnd,
        waitingForQuiz: row.status === "completed",
      };
    });
  const scored = earned.filter((row) => row.score !== null);
  return {
    earned,
    inProgress,
    tiles: {
      certificates: earned.filter((row) => row.state !== "revoked").length,
      credits: earned.filter((row) => row.state !== "revoked").reduce((sum, row) => sum + row.credits, 0),
      averageScore: scored.length ? Math.round((scored.reduce((sum, row) => sum + row.score!, 0) / scored.length) * 100) / 100 : null,
      completed: following.filter((row) => row.status === "completed").length,
      inProgress: following.filter((row) => row.status === "active").length,
    },
  };
}

const myCertificatesQuery = preparedQuery("learner_certificates", (db) =>
  db
    .select({ courseId: certificates.courseId, status: certificates.status })
    .from(certificates)
    .where(and(eq(certificates.userId, sql.placeholder("userId")), isNull(certificates.replacedAt))),
);

/**
 * The dashboard's view of the actor's certificates, in one query: how many are valid, and the
 * courses certified (revoked or expired ones included: issued, not waiting on the learner).
 */
export async function myCertificateSummary(db: Database, actor: Actor): Promise<{ valid: number; courseIds: Set<number> }> {
  const rows = await myCertificatesQuery(db).execute({ userId: actor.id });
  return {
    valid: rows.filter((row) => row.status === "valid").length,
    courseIds: new Set(rows.map((row) => row.courseId).filter((id) => id !== null)),
  };
}

/** For the reports read model: the current certificates of the given courses, with their state. */
export async function certificatesFor(db: Database, courseIds: number[], now = new Date()) {
  if (courseIds.length === 0) return [];
  const rows = await db
    .select()
    .from(certificates)
    .where(and(inArray(certificates.courseId, courseIds), isNull(certificates.replacedAt)));
  return rows.map((row) => ({
    courseId: row.courseId!,
    userId: row.userId,
    code: row.code,
    issuedAt: row.issuedAt,
    score: row.score,
    state: certificateState(row, now),
  }));
}

/** One certificate for its learner or an admin (anyone else: a 404), by code. */
export async function getOwnCertificate(db: Database, actor: Actor, code: string, now = new Date()) {
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
  if (!row || !canDownloadCertificate(actor, row)) throw AppError.notFound("Certificat introuvable.");
  return publicView(row, now);
}

/** "Télécharger": the certificate as a PDF (A4 landscape, QR code to its verification page), for its learner or an admin. */
export async function getCertificatePdf(db: Database, services: Certificates, actor: Actor, code: string, now = new Date()) {
  const certificate = await getOwnCertificate(db, actor, code, now);
  const institute = await getInstitute(db);
  const pdf = await renderCertificatePdf({
    institute,
    code: certificate.code,
    learnerName: certificate.learnerName,
    courseTitle: certificate.courseTitle,
    instructorName: certificate.instructorName,
    issuedAt: certificate.issuedAt,
    validUntil: certificate.validUntil,
    score: certificate.score,
    gradeLabel: certificate.gradeLabel,
    credits: certificate.credits,
    verificationUrl: issuerUrls(services.publicUrl).verification(certificate.code),
    revoked: certificate.state === "revoked",
  });
  return { filename: `certificat-${certificate.code}.pdf`, pdf };
}

/** The signed Open Badges 3.0 credential (VC-JWT) as a file, for its learner or an admin: verifiable with the published key alone. */
export async function getCertificateCredential(db: Database, actor: Actor, code: string) {
  const certificate = await getOwnCertificate(db, actor, code);
  return { filename: `certificat-${certificate.code}.jwt`, body: certificate.credential };
}

/**
 * The public verification of a code: valid, expired or revoked, with the name, the course and the
 * dates, and nothing else personal. Null when no certificate has this code.
 */
export async function verifyCertificateCode(db: Database, code: string, now = new Date()) {
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
  if (!row) return null;
  const state: CertificateState = certificateState(row, now);
  const [replacement] = row.replacedAt
    ? await db.select({ code: certificates.code }).from(certificates).where(eq(certificates.replacesId, row.id))
    : [];
  return {
    code: row.code,
    state,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    issuedAt: row.issuedAt,
    validUntil: row.validUntil,
    gradeLabel: row.grade ? gradeLabels[row.grade] : null,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    replacementCode: replacement?.code ?? null,
  };
}

/** Public look-ups allowed per address: plenty for an employer, too few to walk the codes. */
export const VERIFICATION_LIMIT = { limit: 30, windowSeconds: 10 * 60 };

/**
 * A visitor's look-up (the QR code's page, the code form): the code read as typed (case, spaces
 * and dashes forgiven), counted against the visitor's address, then verified.
 */
export async function verifyForVisitor(db: Database, rawCode: string, ip: string, now = new Date()) {
  const code = normalizeCertificateCode(rawCode);
  if (!code) return { status: "invalid" as const };
  const allowed = await consumeRateLimit(db, `certificate-verify:ip:${ip}`, { ...VERIFICATION_LIMIT, now });
  if (!allowed.allowed) return { status: "rate_limited" as const, retryAfterSeconds: allowed.retryAfterSeconds };
  const certificate = await verifyCertificateCode(db, code, now);
  return certificate ? { status: "found" as const, certificate } : { status: "not_found" as const, code };
}

/** The published revocation list, signed now. */
export async function revocationList(db: Database, services: Certificates, now = new Date()) {
  const revoked = await db.select({ index: certificates.statusIndex }).from(certificates).where(eq(certificates.status, "revoked"));
  return signedStatusList(
    db,
    services.secret,
    services.publicUrl,
    await issuerIdentity(db, services.publicUrl),
    revoked.map((row) => row.index),
    now,
  );
}

export { issuerUrls } from "./credential";
export { anonymiseCertificateHolder } from "./holder";
export { getPublicKey, listPublicKeys } from "./keys";

/** The issuer's public Profile (Open Badges 3.0), published at its id. */
export async function publishedIssuerProfile(db: Database, services: Certificates) {
  return issuerProfile(services.publicUrl, await issuerIdentity(db, services.publicUrl));
}

/** The admin list: every certificate, searched by code, learner or course, newest first. */
export async function listAllCertificates(db: Database, actor: Actor, filters: { q?: string; statut?: string } = {}, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Page introuvable.");
  const conditions: SQL[] = [];
  const q = filters.q?.trim();
  if (q) conditions.push(containsText(q, certificates.code, certificates.learnerName, certificates.courseTitle));
  if (filters.statut === "revoque") conditions.push(eq(certificates.status, "revoked"));
  if (filters.statut === "valide")
    conditions.push(
      and(
        eq(certificates.status, "valid"),
        sql`(${certificates.validUntil} is null or ${certificates.validUntil} > ${now.toISOString()}::timestamptz)`,
      )!,
    );
  if (filters.statut === "expire")
    conditions.push(and(eq(certificates.status, "valid"), sql`${certificates.validUntil} <= ${now.toISOString()}::timestamptz`)!);
  const rows = await db
    .select({ certificate: certificates, email: users.email, currentFirstName: users.firstName, currentLastName: users.lastName })
    .from(certificates)
    .leftJoin(users, eq(certificates.userId, users.id))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(certificates.issuedAt), asc(certificates.code))
    .limit(500);
  return rows.map((row) => {
    const currentName = row.currentFirstName !== null ? `${row.currentFirstName} ${row.currentLastName ?? ""}`.trim() : null;
    return {
      ...publicView(row.certificate, now),
      email: row.email,
      currentName,
      nameChanged: currentName !== null && currentName !== row.certificate.learnerName,
    };
  });
}

/** "Révoquer" with a reason: the verification page then says so; the revocation list publishes it. Once. */
export async function revokeCertificate(db: Database, actor: Actor, id: string, reason: string, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Certificat introuvable.");
  const text = reason.trim();
  if (text.length < 3) throw AppError.invalid({ reason: "Indiquez la raison de la révocation." });
  if (text.length > 500) throw AppError.invalid({ reason: "500 caractères au plus." });
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).for("update");
    if (!row) throw AppError.notFound("Certificat introuvable.");
    if (row.status === "revoked") throw AppError.conflict("Ce certificat est déjà révoqué.", "already_revoked");
    const [revoked] = await tx
      .update(certificates)
      .set({ status: "revoked", revokedAt: now, revokedReason: text, revokedBy: actor.id })
      .where(eq(certificates.id, id))
      .returning();
    return revoked!;
  });
}

/**
 * "Réémettre" after the learner's name was corrected: the old certificate is revoked (replaced)
 * and a new one, with the current name and the same course, score and dates, is issued and
 * signed. Only when the name really changed, so a second click does nothing more.
 */
export async function reissueCertificate(db: Database, services: Certificates, actor: Actor, id: string, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Certificat introuvable.");
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).for("update");
    if (!row || !row.userId || !row.courseId) throw AppError.notFound("Certificat introuvable.");
    if (row.replacedAt) throw AppError.conflict("Ce certificat a déjà été remplacé.", "already_replaced");
    const facts = await certificateFacts(tx, row.userId, row.courseId);
    if (!facts) throw AppError.notFound("Certificat introuvable.");
    if (facts.learnerName === row.learnerName)
      throw AppError.conflict("Le nom de l'apprenant n'a pas changé : rien à corriger.", "same_name");
    await tx
      .update(certificates)
      .set({
        replacedAt: now,
        status: "revoked",
        revokedAt: row.revokedAt ?? now,
        revokedReason: row.revokedReason ?? "Remplacé par un nouveau certificat après correction du nom.",
        revokedBy: row.revokedBy ?? actor.id,
      })
      .where(eq(certificates.id, id));
    const replacement = await insertCertificate(tx, services, {
      userId: row.userId,
      courseId: row.courseId,
      learnerName: facts.learnerName,
      courseTitle: row.courseTitle,
      courseDescription: facts.course.description,
      courseSlug: facts.course.slug,
      instructorName: row.instructorName,
      issuedAt: row.issuedAt,
      validUntil: row.validUntil,
      score: row.score,
      credits: row.credits,
      skills: row.skills,
      replacesId: row.id,
    });
    return replacement!;
  });
}
