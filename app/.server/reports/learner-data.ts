import { asc, eq } from "drizzle-orm";
import { zipSync, strToU8 } from "fflate";
import { gradeLabels } from "~/lib/certificates";
import { formatNumericDateTime } from "~/lib/dates";
import { enrolmentStatusLabels } from "~/lib/learning";
import { paymentMethodLabels, paymentStatusLabels } from "~/lib/payments";
import { isRole, roleLabels } from "~/lib/roles";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import {
  certificates,
  courses,
  enrolments,
  forumReplies,
  forumThreads,
  lessonProgress,
  lessons,
  messages,
  payments,
  quizAttempts,
  quizzes,
  users,
} from "../db/schema";
import { AppError } from "../errors";
import { toCsv } from "../http/csv";

/**
 * « Télécharger mes données »: everything the platform keeps about the acting user, read across
 * the capabilities that own it, always filtered on the actor's own id (never an id from the
 * request). The JSON keeps values as stored (ISO dates, amounts in whole FCFA); the CSV files
 * (one per kind, in a zip) use the house CSV (semicolons, French dates and labels).
 */

export type MyData = Awaited<ReturnType<typeof readMyData>>;

export async function readMyData(db: Database, actor: Actor, now = new Date()) {
  const [account] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      phone: users.phone,
      role: users.role,
      emailVerified: users.emailVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      dataSaver: users.dataSaver,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, actor.id));
  if (!account) throw AppError.notFound("Compte introuvable.");
  const [enrolmentRows, paymentRows, progressRows, quizRows, certificateRows, messageRows, threadRows, replyRows] = await Promise.all([
    db
      .select({
        course: courses.title,
        status: enrolments.status,
        progress: enrolments.progress,
        enrolledAt: enrolments.enrolledAt,
        activatedAt: enrolments.activatedAt,
        completedAt: enrolments.completedAt,
      })
      .from(enrolments)
      .innerJoin(courses, eq(courses.id, enrolments.courseId))
      .where(eq(enrolments.userId, actor.id))
      .orderBy(asc(enrolments.enrolledAt), asc(enrolments.id)),
    db
      .select({
        reference: payments.reference,
        course: courses.title,
        amountFcfa: payments.amount,
        method: payments.method,
        methodDetail: payments.methodDetail,
        status: payments.status,
        receiptNumber: payments.receiptNumber,
        createdAt: payments.createdAt,
        completedAt: payments.completedAt,
        refundedAt: payments.refundedAt,
      })
      .from(payments)
      .innerJoin(courses, eq(courses.id, payments.courseId))
      .where(eq(payments.userId, actor.id))
      .orderBy(asc(payments.createdAt), asc(payments.id)),
    db
      .select({
        course: courses.title,
        lesson: lessons.title,
        completedAt: lessonProgress.completedAt,
        positionSeconds: lessonProgress.positionSeconds,
        updatedAt: lessonProgress.updatedAt,
      })
      .from(lessonProgress)
      .innerJoin(enrolments, eq(enrolments.id, lessonProgress.enrolmentId))
      .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
      .innerJoin(courses, eq(courses.id, enrolments.courseId))
      .where(eq(enrolments.userId, actor.id))
      .orderBy(asc(courses.title), asc(lessons.position), asc(lessons.id)),
    db
      .select({
        quiz: quizzes.title,
        course: courses.title,
        attemptNumber: quizAttempts.attemptNumber,
        status: quizAttempts.status,
        startedAt: quizAttempts.startedAt,
        submittedAt: quizAttempts.submittedAt,
        score: quizAttempts.score,
        passed: quizAttempts.passed,
      })
      .from(quizAttempts)
      .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .where(eq(quizAttempts.userId, actor.id))
      .orderBy(asc(quizAttempts.startedAt), asc(quizAttempts.id)),
    db
      .select({
        code: certificates.code,
        course: certificates.courseTitle,
        name: certificates.learnerName,
        issuedAt: certificates.issuedAt,
        validUntil: certificates.validUntil,
        score: certificates.score,
        grade: certificates.grade,
        status: certificates.status,
        revokedAt: certificates.revokedAt,
        revokedReason: certificates.revokedReason,
      })
      .from(certificates)
      .where(eq(certificates.userId, actor.id))
      .orderBy(asc(certificates.issuedAt), asc(certificates.code)),
    db
      .select({ conversationId: messages.conversationId, body: messages.body, sentAt: messages.createdAt })
      .from(messages)
      .where(eq(messages.senderId, actor.id))
      .orderBy(asc(messages.createdAt), asc(messages.id)),
    db
      .select({
        threadId: forumThreads.id,
        title: forumThreads.title,
        body: forumThreads.body,
        createdAt: forumThreads.createdAt,
        editedAt: forumThreads.editedAt,
      })
      .from(forumThreads)
      .where(eq(forumThreads.authorId, actor.id))
      .orderBy(asc(forumThreads.createdAt), asc(forumThreads.id)),
    db
      .select({
        threadId: forumReplies.threadId,
        title: forumThreads.title,
        body: forumReplies.body,
        createdAt: forumReplies.createdAt,
        editedAt: forumReplies.editedAt,
      })
      .from(forumReplies)
      .innerJoin(forumThreads, eq(forumThreads.id, forumReplies.threadId))
      .where(eq(forumReplies.authorId, actor.id))
      .orderBy(asc(forumReplies.createdAt), asc(forumReplies.id)),
  ]);
  return {
    exportedAt: now,
    account,
    enrolments: enrolmentRows,
    payments: paymentRows,
    lessonProgress: progressRows,
    quizResults: quizRows,
    certificates: certificateRows,
    messagesSent: messageRows,
    forumPosts: [
      ...threadRows.map((row) => ({ kind: "thread" as const, ...row })),
      ...replyRows.map((row) => ({ kind: "reply" as const, ...row })),
    ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
  };
}

/** The JSON file: one document, dates as ISO 8601. */
export function myDataJson(data: MyData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

const when = (date: Date | null) => (date ? formatNumericDateTime(date) : "");
const yesNo = (value: boolean | null) => (value === null ? "" : value ? "Oui" : "Non");
const attemptStatusLabels = { in_progress: "En cours", submitted: "Envoyée", expired: "Temps écoulé" } as const;

/** One CSV per kind, named for the zip. */
export function myDataCsvFiles(data: MyData): Record<string, string> {
  const { account } = data;
  return {
    "compte.csv": toCsv(
      ["E-mail", "Prénom", "Nom", "Téléphone", "Rôle", "E-mail confirmé", "Double authentification", "Économie de données", "Créé le"],
      [
        [
          account.email,
          account.firstName,
          account.lastName,
          account.phone,
          isRole(account.role) ? roleLabels[account.role] : account.role,
          yesNo(account.emailVerified),
          yesNo(account.twoFactorEnabled),
          yesNo(account.dataSaver),
          when(account.createdAt),
        ],
      ],
    ),
    "inscriptions.csv": toCsv(
      ["Formation", "Statut", "Progression (%)", "Inscrit le", "Ouverte le", "Terminée le"],
      data.enrolments.map((row) => [
        row.course,
        enrolmentStatusLabels[row.status],
        row.progress,
        when(row.enrolledAt),
        when(row.activatedAt),
        when(row.completedAt),
      ]),
    ),
    "paiements.csv": toCsv(
      ["Référence", "Formation", "Montant (FCFA)", "Moyen", "Détail", "Statut", "Reçu", "Créé le", "Payé le", "Remboursé le"],
      data.payments.map((row) => [
        row.reference,
        row.course,
        row.amountFcfa,
        paymentMethodLabels[row.method],
        row.methodDetail,
        paymentStatusLabels[row.status],
        row.receiptNumber,
        when(row.createdAt),
        when(row.completedAt),
        when(row.refundedAt),
      ]),
    ),
    "progression.csv": toCsv(
      ["Formation", "Leçon", "Terminée le", "Position de la vidéo (s)", "Dernière visite"],
      data.lessonProgress.map((row) => [row.course, row.lesson, when(row.completedAt), row.positionSeconds, when(row.updatedAt)]),
    ),
    "quiz.csv": toCsv(
      ["Formation", "Quiz", "Tentative", "Statut", "Commencée le", "Envoyée le", "Score (%)", "Réussie"],
      data.quizResults.map((row) => [
        row.course,
        row.quiz,
        row.attemptNumber,
        attemptStatusLabels[row.status],
        when(row.startedAt),
        when(row.submittedAt),
        row.score,
        yesNo(row.passed),
      ]),
    ),
    "certificats.csv": toCsv(
      ["Numéro", "Formation", "Titulaire", "Délivré le", "Valable jusqu'au", "Score (%)", "Mention", "Statut", "Révoqué le", "Motif"],
      data.certificates.map((row) => [
        row.code,
        row.course,
        row.name,
        when(row.issuedAt),
        when(row.validUntil),
        row.score,
        row.grade ? gradeLabels[row.grade] : "",
        row.status === "revoked" ? "Révoqué" : "Valide",
        when(row.revokedAt),
        row.revokedReason,
      ]),
    ),
    "messages.csv": toCsv(
      ["Conversation", "Envoyé le", "Message"],
      data.messagesSent.map((row) => [row.conversationId, when(row.sentAt), row.body]),
    ),
    "forum.csv": toCsv(
      ["Type", "Sujet", "Texte", "Publié le", "Modifié le"],
      data.forumPosts.map((row) => [
        row.kind === "thread" ? "Sujet" : "Réponse",
        row.title,
        row.body,
        when(row.createdAt),
        when(row.editedAt),
      ]),
    ),
  };
}

/** The CSV files in one zip (fflate, already installed with pdfkit). */
export function myDataZip(data: MyData): Uint8Array {
  const files = Object.fromEntries(Object.entries(myDataCsvFiles(data)).map(([name, csv]) => [name, strToU8(csv)]));
  return zipSync(files, { level: 6, mtime: data.exportedAt });
}
