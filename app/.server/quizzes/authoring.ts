import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { fieldErrorsOf } from "~/lib/form-result";
import { fromDateTimeLocal, toDateTimeLocal } from "~/lib/dates";
import { correctionModes, QUIZ_DEFAULTS, round2, type QuizQuestion } from "~/lib/quiz";
import { questionsWithPendingType, type QuizFormValues } from "~/lib/quiz-form";
import { requiredChoice } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, lessons, quizAttempts, quizzes } from "../db/schema";
import { AppError } from "../errors";
import { canAuthorQuizzes, canManageQuiz, managedQuizzesWhere } from "./policy";

export type Quiz = typeof quizzes.$inferSelect;

/** The spec's two messages for a quiz that cannot be saved. */
export const MISSING_DATA = "Données manquantes : veuillez remplir tous les champs obligatoires et ajouter au moins une question.";
export const MISSING_QUESTION = "Question manquante : veuillez saisir une question.";

/** A whole number typed in a field; anything unreadable becomes `fallback` (the spec's rule). */
const integerOr = (fallback: number) =>
  z.string().transform((text) => {
    const value = Number(text.trim().replace(/[\s\u00a0\u202f]/g, ""));
    return text.trim() !== "" && Number.isSafeInteger(value) ? value : fallback;
  });

const questionSchema = z
  .object({
    id: z.string(),
    type: z.enum(["multiple_choice", "true_false", "short_answer"]),
    question: z.string().trim().min(1, "Veuillez saisir une question.").max(2000, "2 000 caractères au plus."),
    options: z.array(z.string().trim().max(500, "500 caractères au plus.")),
    correctAnswer: z.string().trim().max(500, "500 caractères au plus."),
    points: integerOr(QUIZ_DEFAULTS.points).pipe(z.number().min(1, "Au moins 1 point.").max(100, "100 points au plus.")),
    explanation: z.string().trim().max(2000, "2 000 caractères au plus."),
  })
  .superRefine((question, context) => {
    if (question.type === "multiple_choice") {
      question.options.forEach((option, index) => {
        if (!option) context.addIssue({ code: "custom", path: ["options", index], message: "Saisissez cette option." });
      });
      if (!/^[0-3]$/.test(question.correctAnswer) || question.options.length !== QUIZ_DEFAULTS.optionCount)
        context.addIssue({ code: "custom", path: ["correctAnswer"], message: "Choisissez la bonne réponse." });
    } else if (question.type === "true_false") {
      if (question.correctAnswer !== "true" && question.correctAnswer !== "false")
        context.addIssue({ code: "custom", path: ["correctAnswer"], message: "Choisissez Vrai ou Faux." });
    } else if (!question.correctAnswer) {
      context.addIssue({ code: "custom", path: ["correctAnswer"], message: "Saisissez la réponse attendue." });
    }
  });

const quizSchema = z.object({
  title: z.string().trim().min(1, "Saisissez un titre.").max(200, "200 caractères au plus."),
  description: z.string().trim().max(5000, "5 000 caractères au plus."),
  courseId: requiredChoice("Choisissez un cours."),
  lessonId: z
    .string()
    .regex(/^(\d{1,9})?$/, "Choisissez une leçon de la liste.")
    .transform((value) => (value ? Number(value) : null)),
  questions: z.array(questionSchema).min(1, "Ajoutez au moins une question.").max(100, "100 questions au plus."),
  timeLimitOn: z.boolean(),
  timeLimitMinutes: integerOr(QUIZ_DEFAULTS.timeLimitMinutes).pipe(
    z.number().min(1, "Au moins 1 minute.").max(600, "600 minutes (10 heures) au plus."),
  ),
  maxAttempts: integerOr(QUIZ_DEFAULTS.maxAttempts).pipe(
    z.number().min(1, "Entre 1 et 10 tentatives.").max(10, "Entre 1 et 10 tentatives."),
  ),
  passingScore: integerOr(QUIZ_DEFAULTS.passingScore).pipe(z.number().min(0, "Entre 0 et 100 %.").max(100, "Entre 0 et 100 %.")),
  drawCount: z
    .string()
    .trim()
    .regex(/^\d{0,3}$/, "Tapez un nombre de questions, ou laissez vide.")
    .transform((value) => (value === "" ? null : Number(value))),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  corrections: z.enum(correctionModes),
  correctionsAt: z.string().transform((value) => (value.trim() === "" ? null : fromDateTimeLocal(value.trim()))),
  required: z.boolean(),
});

/**
 * The settings that depend on one another, checked even when other fields are at fault (a zod
 * refinement would wait for them): the draw between 1 and the number of questions, a date for
 * corrections "from a date".
 */
function settingErrors(values: QuizFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const draw = values.drawCount.trim();
  const count = values.questions.length;
  if (/^\d{1,3}$/.test(draw) && (Number(draw) < 1 || Number(draw) > count)) {
    errors.drawCount =
      count === 0
        ? "Ajoutez d'abord des questions au quiz."
        : `Entre 1 et ${count} : le quiz a ${count > 1 ? `${count} questions` : "une question"}. Laissez vide pour les poser toutes.`;
  }
  if (values.corrections === "after_date" && !fromDateTimeLocal(values.correctionsAt.trim())) {
    errors.correctionsAt = "Choisissez la date et l'heure d'ouverture des corrections.";
  }
  return errors;
}

function newQuestionId(): string {
  return `q_${randomBytes(8).toString("base64url")}`;
}

/**
 * Checks what the form sent: the spec's "Données manquantes" when the title, the course or every
 * question is missing, "Question manquante" when a question has no text, a message beside every
 * other field at fault. A question whose type was changed without JavaScript is sent back to
 * complete before anything is saved.
 */
function readQuizForm(values: QuizFormValues) {
  const pending = questionsWithPendingType(values);
  if (pending.length) {
    throw AppError.invalid(
      Object.fromEntries(pending.map((index) => [`questions.${index}.type`, "Le type a changé : complétez la question pour ce type."])),
      "Complétez les questions dont le type a changé, puis enregistrez.",
    );
  }
  const parsed = quizSchema.safeParse(values);
  const settings = settingErrors(values);
  if (parsed.success && Object.keys(settings).length === 0) return parsed.data;
  const issues = parsed.success ? [] : parsed.error.issues;
  const missing = issues.some((issue) => issue.path.length === 1 && ["title", "courseId", "questions"].includes(String(issue.path[0])));
  const questionless = issues.some((issue) => issue.path[0] === "questions" && issue.path[2] === "question");
  throw AppError.invalid(
    { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...settings },
    missing ? MISSING_DATA : questionless ? MISSING_QUESTION : undefined,
  );
}

type QuizInput = ReturnType<typeof readQuizForm>;

/** The course (and lesson) of a quiz, checked: a course the actor manages, a lesson of that course. */
async function checkPlacement(db: Database, actor: Actor, input: Pick<QuizInput, "courseId" | "lessonId">) {
  const [course] = await db
    .select({ id: courses.id, instructorId: courses.instructorId })
    .from(courses)
    .where(eq(courses.id, input.courseId));
  if (!course || !canManageQuiz(actor, course)) throw AppError.invalid({ courseId: "Choisissez un de vos cours." });
  if (input.lessonId !== null) {
    const [lesson] = await db
      .select({ id: lessons.id })
      .from(lessons)
      .where(and(eq(lessons.id, input.lessonId), eq(lessons.courseId, input.courseId)));
    if (!lesson) throw AppError.invalid({ lessonId: "Cette leçon n'appartient pas au cours choisi." });
  }
}

function storedQuestions(input: QuizInput, previous: QuizQuestion[] = []): QuizQuestion[] {
  const known = new Set(previous.map((question) => question.id));
  return input.questions.map((question) => ({
    // An id the quiz already had is kept (the analysis follows it); anything else is a new question.
    id: known.has(question.id) ? question.id : newQuestionId(),
    type: question.type,
    question: question.question,
    options: question.type === "multiple_choice" ? question.options : [],
    correctAnswer: question.correctAnswer,
    points: question.points,
    explanation: question.explanation,
  }));
}

function quizColumns(input: QuizInput) {
  return {
    courseId: input.courseId,
    lessonId: input.lessonId,
    title: input.title,
    description: input.description,
    timeLimitMinutes: input.timeLimitOn ? input.timeLimitMinutes : null,
    maxAttempts: input.maxAttempts,
    passingScore: input.passingScore,
    drawCount: input.drawCount,
    shuffleQuestions: input.shuffleQuestions,
    shuffleOptions: input.shuffleOptions,
    corrections: input.corrections,
    // Kept only where it counts: the date of corrections "from a date".
    correctionsAt: input.corrections === "after_date" ? input.correctionsAt : null,
    required: input.required,
  };
}

/** "Créer le quiz": on one of the actor's courses. */
export async function createQuiz(db: Database, actor: Actor, values: QuizFormValues, now = new Date()): Promise<Quiz> {
  if (!canAuthorQuizzes(actor)) throw AppError.forbidden();
  const input = readQuizForm(values);
  await checkPlacement(db, actor, input);
  const [quiz] = await db
    .insert(quizzes)
    .values({ ...quizColumns(input), questions: storedQuestions(input), createdBy: actor.id, createdAt: now, updatedAt: now })
    .returning();
  return quiz!;
}

/**
 * Saves the quiz as edited. Past attempts keep the questions they were given: their scores never
 * change; the next attempts get the new questions.
 */
export async function updateQuiz(db: Database, actor: Actor, id: number, values: QuizFormValues, now = new Date()): Promise<Quiz> {
  const current = await getManagedQuiz(db, actor, id);
  const input = readQuizForm(values);
  await checkPlacement(db, actor, input);
  const [quiz] = await db
    .update(quizzes)
    .set({ ...quizColumns(input), questions: storedQuestions(input, current.questions), updatedAt: now })
    .where(and(eq(quizzes.id, id), isNull(quizzes.deletedAt)))
    .returning();
  if (!quiz) throw AppError.notFound("Quiz introuvable.");
  return quiz;
}

/** The quiz as its manager sees it (right answers included); a 404 for anyone else, or once deleted. */
export async function getManagedQuiz(db: Database, actor: Actor, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) throw AppError.notFound("Quiz introuvable.");
  const [row] = await db
    .select({ quiz: quizzes, courseTitle: courses.title, instructorId: courses.instructorId })
    .from(quizzes)
    .innerJoin(courses, eq(quizzes.courseId, courses.id))
    .where(and(eq(quizzes.id, id), isNull(quizzes.deletedAt)));
  if (!row || !canManageQuiz(actor, row)) throw AppError.notFound("Quiz introuvable.");
  return { ...row.quiz, courseTitle: row.courseTitle };
}

/** "Supprimer": the quiz leaves the lists and the completion rule; its attempts stay for the records. */
export async function deleteQuiz(db: Database, actor: Actor, id: number, now = new Date()) {
  const quiz = await getManagedQuiz(db, actor, id);
  await db.update(quizzes).set({ deletedAt: now, updatedAt: now }).where(eq(quizzes.id, quiz.id));
  return quiz;
}

/** A stored quiz as the form shows it. */
export function quizFormValuesOf(quiz: Quiz): QuizFormValues {
  return {
    title: quiz.title,
    description: quiz.description,
    courseId: String(quiz.courseId),
    lessonId: quiz.lessonId === null ? "" : String(quiz.lessonId),
    questions: quiz.questions.map((question) => ({
      key:
        question.id
          .replace(/[^a-z0-9]/gi, "")
          .toLowerCase()
          .slice(0, 40) || "q",
      id: question.id,
      type: question.type,
      shownType: question.type,
      question: question.question,
      options: question.type === "multiple_choice" ? [...question.options] : [],
      correctAnswer: question.correctAnswer,
      points: String(question.points),
      explanation: question.explanation,
    })),
    timeLimitOn: quiz.timeLimitMinutes !== null,
    timeLimitMinutes: String(quiz.timeLimitMinutes ?? QUIZ_DEFAULTS.timeLimitMinutes),
    maxAttempts: String(quiz.maxAttempts),
    passingScore: String(quiz.passingScore),
    drawCount: quiz.drawCount === null ? "" : String(quiz.drawCount),
    shuffleQuestions: quiz.shuffleQuestions,
    shuffleOptions: quiz.shuffleOptions,
    corrections: quiz.corrections,
    correctionsAt: quiz.correctionsAt ? toDateTimeLocal(quiz.correctionsAt) : "",
    required: quiz.required,
  };
}

/** The courses (by title) and their lessons a quiz may be placed on: the actor's own, every course for an admin. */
export async function listQuizPlacementOptions(db: Database, actor: Actor) {
  const courseRows = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(managedQuizzesWhere(actor))
    .orderBy(asc(courses.title), asc(courses.id));
  const lessonRows = courseRows.length
    ? await db
        .select({ id: lessons.id, title: lessons.title, courseId: lessons.courseId })
        .from(lessons)
        .where(
          inArray(
            lessons.courseId,
            courseRows.map((course) => course.id),
          ),
        )
        .orderBy(asc(lessons.position), asc(lessons.id))
    : [];
  return courseRows.map((course) => ({
    ...course,
    lessons: lessonRows.filter((lesson) => lesson.courseId === course.id).map(({ id, title }) => ({ id, title })),
  }));
}

const graded = sql`${quizAttempts.status} in ('submitted', 'expired')`;

/**
 * "Quiz & Évaluations": the actor's quizzes (every quiz for an admin), newest first, each with its
 * course, its questions and its graded attempts' figures; and the four summary cards.
 */
export async function listManagedQuizzes(db: Database, actor: Actor) {
  const rows = await db
    .select({
      id: quizzes.id,
      title: quizzes.title,
      description: quizzes.description,
      courseId: quizzes.courseId,
      courseTitle: courses.title,
      questions: quizzes.questions,
      drawCount: quizzes.drawCount,
      timeLimitMinutes: quizzes.timeLimitMinutes,
      maxAttempts: quizzes.maxAttempts,
      passingScore: quizzes.passingScore,
      required: quizzes.required,
      createdAt: quizzes.createdAt,
      attempts: sql<number>`count(${quizAttempts.id}) filter (where ${graded})`.mapWith(Number),
      passedAttempts: sql<number>`count(${quizAttempts.id}) filter (where ${graded} and ${quizAttempts.passed})`.mapWith(Number),
      scoreSum: sql<number>`coalesce(sum(${quizAttempts.score}) filter (where ${graded}), 0)`.mapWith(Number),
    })
    .from(quizzes)
    .innerJoin(courses, eq(quizzes.courseId, courses.id))
    .leftJoin(quizAttempts, eq(quizAttempts.quizId, quizzes.id))
    .where(and(managedQuizzesWhere(actor), isNull(quizzes.deletedAt)))
    .groupBy(quizzes.id, courses.id)
    .orderBy(desc(quizzes.createdAt), desc(quizzes.id));
  const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
  const summary = {
    totalQuizzes: rows.length,
    totalAttempts: attempts,
    averageScore: attempts ? round2(rows.reduce((sum, row) => sum + row.scoreSum, 0) / attempts) : 0,
    passRate: attempts ? round2((rows.reduce((sum, row) => sum + row.passedAttempts, 0) / attempts) * 100) : 0,
  };
  const list = rows.map(({ questions, scoreSum, passedAttempts, ...row }) => ({
    ...row,
    questionCount: questions.length,
    totalPoints: questions.reduce((sum, question) => sum + question.points, 0),
    averageScore: row.attempts ? round2(scoreSum / row.attempts) : null,
    passRate: row.attempts ? round2((passedAttempts / row.attempts) * 100) : null,
  }));
  return { quizzes: list, summary };
}
