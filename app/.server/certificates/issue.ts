import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { gradeLabels, gradeOf } from "~/lib/certificates";
import { queryRows, type Database } from "../db/client";
import { certificates, courses, enrolments, lessons, quizAttempts, quizzes, users } from "../db/schema";
import type { CompletionCheck } from "../learning";
import { notifyUser } from "../notifications";
import { newReadableCode } from "../payments";
import { buildCredential, issuerUrls, signCredential } from "./credential";
import { issuerIdentity, type Certificates } from "./services";

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
export async function certificateFacts(db: Database, userId: string, courseId: number) {
  const [row] = await db
    .select({
      learner: { firstName: users.firstName, lastName: users.lastName, name: users.name, email: users.email },
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
    learnerEmail: row.learner.email,
    course: row.course,
    instructorName: instructor ? fullName(instructor) : null,
    // One credit per hour of lessons, at least one.
    credits: Math.max(1, Math.round((minutes?.total ?? 0) / 60)),
  };
}

export type NewCertificate = {
  userId: string;
  courseId: number;
  learnerName: string;
  learnerEmail: string;
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
export async function insertCertificate(tx: Database, services: Certificates, input: NewCertificate) {
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
    learnerEmail: input.learnerEmail,
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
      learnerEmail: facts.learnerEmail,
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
