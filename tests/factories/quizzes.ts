import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { createQuiz as saveNewQuiz } from "~/.server/quizzes/authoring";
import { startAttempt, submitAttempt } from "~/.server/quizzes/attempts";
import { toDateTimeLocal } from "~/lib/dates";
import type { CorrectionMode, QuestionType } from "~/lib/quiz";
import { emptyQuizValues, type QuestionValues } from "~/lib/quiz-form";

export type QuestionOverrides = {
  type?: QuestionType;
  question?: string;
  options?: string[];
  correctAnswer?: string;
  points?: number;
  explanation?: string;
};

export type QuizOverrides = {
  title?: string;
  lessonId?: number | null;
  /** Default: a QCM (right answer "1"), a Vrai/Faux ("true") and a short answer ("Bamako"), one point each. */
  questions?: QuestionOverrides[];
  timeLimitMinutes?: number | null;
  maxAttempts?: number;
  passingScore?: number;
  shuffleQuestions?: boolean;
  shuffleOptions?: boolean;
  /** Default "after_submit" (the answers shown at once), so that a test of another rule says which. */
  corrections?: CorrectionMode;
  correctionsAt?: Date;
  /** Questions drawn per attempt; default all. */
  drawCount?: number;
  required?: boolean;
};

export const DEFAULT_QUESTIONS: QuestionOverrides[] = [
  {
    type: "multiple_choice",
    question: "Quelle est l'unité de la puissance ?",
    options: ["Le volt", "Le watt", "L'ampère", "L'ohm"],
    correctAnswer: "1",
  },
  { type: "true_false", question: "Le soleil est une source d'énergie renouvelable.", correctAnswer: "true" },
  { type: "short_answer", question: "Quelle est la capitale du Mali ?", correctAnswer: "Bamako" },
];

/**
 * The right answers to DEFAULT_QUESTIONS (or questions shaped like them) as a learner gives them,
 * whatever order the options were shuffled in; `shortAnswer` is typed for the short question.
 */
export const rightAnswers =
  (shortAnswer = "Bamako") =>
  (questions: ReadonlyArray<{ id: string; type: QuestionType; options: string[] }>): Record<string, string> =>
    Object.fromEntries(
      questions.map((question) => [
        question.id,
        question.type === "multiple_choice"
          ? String(question.options.indexOf("Le watt"))
          : question.type === "true_false"
            ? "true"
            : shortAnswer,
      ]),
    );

/** A quiz on `course`, written through the quizzes capability by `author` (the course's teacher or an admin). */
export async function createQuiz(db: Database, author: Actor, course: { id: number }, overrides: QuizOverrides = {}) {
  const values = emptyQuizValues();
  const questions: QuestionValues[] = (overrides.questions ?? DEFAULT_QUESTIONS).map((question, index) => {
    const type = question.type ?? "multiple_choice";
    return {
      key: `k${index}`,
      id: "",
      type,
      shownType: type,
      question: question.question ?? `Question ${index + 1}`,
      options: type === "multiple_choice" ? (question.options ?? ["A", "B", "C", "D"]) : [],
      correctAnswer: question.correctAnswer ?? (type === "true_false" ? "true" : type === "multiple_choice" ? "0" : "réponse"),
      points: String(question.points ?? 1),
      explanation: question.explanation ?? "",
    };
  });
  return saveNewQuiz(db, author, {
    ...values,
    title: overrides.title ?? "Quiz final",
    courseId: String(course.id),
    lessonId: overrides.lessonId ? String(overrides.lessonId) : "",
    questions,
    timeLimitOn: overrides.timeLimitMinutes != null,
    timeLimitMinutes: String(overrides.timeLimitMinutes ?? 30),
    maxAttempts: String(overrides.maxAttempts ?? 3),
    passingScore: String(overrides.passingScore ?? 70),
    shuffleQuestions: overrides.shuffleQuestions ?? false,
    shuffleOptions: overrides.shuffleOptions ?? false,
    drawCount: overrides.drawCount === undefined ? "" : String(overrides.drawCount),
    corrections: overrides.corrections ?? "after_submit",
    correctionsAt: overrides.correctionsAt ? toDateTimeLocal(overrides.correctionsAt) : "",
    required: overrides.required ?? false,
  });
}

/** The learner takes the quiz once, through the capability: starts, answers (question id → answer), submits. */
export async function takeQuiz(
  db: Database,
  learner: Actor,
  course: { slug: string },
  quiz: { id: number },
  answers: (questions: Array<{ id: string; type: QuestionType; question: string; options: string[] }>) => Record<string, string>,
  now = new Date(),
) {
  const { attempt } = await startAttempt(db, learner, course.slug, quiz.id, now);
  return submitAttempt(db, learner, attempt.id, answers(attempt.questions), now);
}
