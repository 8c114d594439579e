import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { certificateState, gradeLabels } from "~/lib/certificates";
import type { Actor } from "../auth/actor";
import { getInstitute } from "../catalogue";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { certificates, courses, enrolments, users } from "../db/schema";
import { AppError } from "../errors";
import { followingEnrolment } from "../learning";
import { bakePng, renderBadgePng } from "./badge";
import { issuerUrls } from "./credential";
import { renderCertificatePdf } from "./pdf";
import { canDownloadCertificate, canReadCertificate } from "./policy";
import type { Certificate, Certificates } from "./services";

export function publicView(row: Certificate, now: Date) {
  const state = certificateState(row, now);
  return { ...row, state, gradeLabel: row.grade ? gradeLabels[row.grade] : null };
}
export type CertificateView = ReturnType<typeof publicView>;

/**
 * "Mes certificats": the actor's certificates (current ones: a replaced certificate gives way to
 * its replacement), newest first, the revoked ones apart, and the courses in progress with what
 * they still need. The tiles count these lists, so a tile never contradicts its tab.
 */
export async function listMyCertificates(db: Database, actor: Actor, now = new Date()) {
  const rows = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, actor.id), isNull(certificates.replacedAt)))
    .orderBy(desc(certificates.issuedAt));
  const views = rows.map((row) => publicView(row, now));
  const earned = views.filter((row) => row.state !== "revoked");
  const revoked = views.filter((row) => row.state === "revoked");
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
    .where(and(eq(enrolments.userId, actor.id), followingEnrolment()))
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
    revoked,
    inProgress,
    tiles: {
      certificates: earned.length,
      credits: earned.reduce((sum, row) => sum + row.credits, 0),
      averageScore: scored.length ? Math.round((scored.reduce((sum, row) => sum + row.score!, 0) / scored.length) * 100) / 100 : null,
      // The courses followed are either finished (certified) or in the "En cours" list: one split, two tiles.
      completed: following.length - inProgress.length,
      inProgress: inProgress.length,
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
  if (!row || !canReadCertificate(actor, row)) throw AppError.notFound("Certificat introuvable.");
  return publicView(row, now);
}

/** A certificate to download (PDF, badge): its holder's while it is not revoked, any for an admin. */
async function certificateToDownload(db: Database, actor: Actor, code: string, now = new Date()) {
  const certificate = await getOwnCertificate(db, actor, code, now);
  if (!canDownloadCertificate(actor, certificate))
    throw AppError.forbidden("Ce certificat a été révoqué : il ne peut plus être téléchargé ni partagé.");
  return certificate;
}

/** "Télécharger": the certificate as a PDF (A4 landscape, QR code to its verification page), for its learner or an admin. */
export async function getCertificatePdf(db: Database, services: Certificates, actor: Actor, code: string, now = new Date()) {
  const certificate = await certificateToDownload(db, actor, code, now);
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
  const certificate = await certificateToDownload(db, actor, code);
  return { filename: `certificat-${certificate.code}.jwt`, body: certificate.credential };
}

/** The badge picture with the signed credential baked in (Open Badges 3.0 PNG), for its holder or an admin. */
export async function getCertificateBadgePng(db: Database, actor: Actor, code: string) {
  const certificate = await certificateToDownload(db, actor, code);
  const institute = await getInstitute(db);
  const png = await renderBadgePng({ instituteName: institute.name, courseTitle: certificate.courseTitle, code: certificate.code });
  return { filename: `badge-${certificate.code}.png`, png: bakePng(png, certificate.credential) };
}
