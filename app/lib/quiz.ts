/**
 * Quizzes as both sides see them (browser-safe): the question model, grading, and the figures of
 * the results screen. Pure functions: the quizzes capability stores and authorizes, these compute.
 */

export const questionTypes = ["multiple_choice", "true_false", "short_answer"] as const;
export type QuestionType = (typeof questionTypes)[number];

export const questionTypeLabels: Record<QuestionType, string> = {
  multiple_choice: "QCM",
  true_false: "Vrai/Faux",
  short_answer: "Réponse courte",
};

export function isQuestionType(value: unknown): value is QuestionType {
  return typeof value === "string" && (questionTypes as readonly string[]).includes(value);
}

/**
 * A question as the teacher saved it. `correctAnswer` is the option's index ("0"–"3") for a QCM,
 * "true" or "false" for Vrai/Faux, the expected text for a short answer.
 */
export type QuizQuestion = {
  /** "q_…", kept across edits: the per-question analysis follows it. */
  id: string;
  type: QuestionType;
  question: string;
  /** Four texts for a QCM; empty otherwise. */
  options: string[];
  correctAnswer: string;
  points: number;
  explanation: string;
};

/** A question as one attempt was given it: options in the order shown, the right index mapped to that order. */
export type AttemptQuestion = QuizQuestion;

/** A question as the learner sees it before submitting: no right answer, no explanation. */
export type PublicQuestion = Pick<QuizQuestion, "id" | "type" | "question" | "options" | "points">;

export type QuestionResult = { questionId: string; correct: boolean; points: number; earned: number };

/**
 * When learners see the expected answers of their graded attempts (the rule is the quizzes
 * capability's policy): the first is the default, the one a quiz that counts for a certificate needs.
 */
export const correctionModes = ["after_last_attempt", "after_submit", "after_date", "never"] as const;
export type CorrectionMode = (typeof correctionModes)[number];

export function isCorrectionMode(value: unknown): value is CorrectionMode {
  return typeof value === "string" && (correctionModes as readonly string[]).includes(value);
}

/** The editor's choices: a label and what the learner then sees. */
export const correctionModeChoices: Record<CorrectionMode, { label: string; hint: string }> = {
  after_last_attempt: {
    label: "Après la dernière tentative ou la réussite",
    hint: "Pour un examen : tant qu'il lui reste une tentative, l'apprenant voit son score et ses questions justes ou fausses, sans les réponses attendues. Une fois le quiz réussi, il ne se repasse plus.",
  },
  after_submit: {
    label: "Après chaque envoi",
    hint: "Pour s'entraîner : les réponses attendues et les explications dès l'envoi de chaque tentative.",
  },
  after_date: {
    label: "À partir d'une date",
    hint: "Les corrections s'ouvrent à tous à la date choisie ; le quiz se ferme alors aux nouvelles tentatives.",
  },
  never: {
    label: "Jamais",
    hint: "L'apprenant voit son score et ses questions justes ou fausses, jamais les réponses attendues.",
  },
};

export const QUIZ_DEFAULTS = {
  timeLimitMinutes: 30,
  maxAttempts: 3,
  passingScore: 70,
  points: 1,
  optionCount: 4,
} as const;

export function toPublicQuestion(question: QuizQuestion): PublicQuestion {
  return { id: question.id, type: question.type, question: question.question, options: question.options, points: question.points };
}

/** A quiz form's answer fields are named `answers.<question id>`. */
export const ANSWER_PREFIX = "answers.";

/** The answers a quiz form holds: its `answers.<question id>` fields (the last value of each). */
export function answersOf(form: FormData): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && name.startsWith(ANSWER_PREFIX)) answers[name.slice(ANSWER_PREFIX.length)] = value;
  }
  return answers;
}

/** "  L'Énergie   SOLAIRE " and "l'energie solaire" compare equal: case, accents and extra spaces ignored. */
export function normalizeShortAnswer(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[’‘`]/g, "'").replace(/\s+/g, " ").trim();
}

export function isCorrect(question: QuizQuestion, answer: string | undefined): boolean {
  if (answer === undefined || answer === "") return false;
  if (question.type === "short_answer") {
    const expected = normalizeShortAnswer(question.correctAnswer);
    return expected !== "" && normalizeShortAnswer(answer) === expected;
  }
  return answer === question.correctAnswer;
}

/** Two decimals, as every figure of the results screen. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The score of an attempt: the points of the questions answered right over all the points, as a
 * percentage with two decimals; passed when it reaches the passing score.
 */
export function gradeAttempt(questions: QuizQuestion[], answers: Record<string, string>, passingScore: number) {
  const results: QuestionResult[] = questions.map((question) => {
    const correct = isCorrect(question, answers[question.id]);
    return { questionId: question.id, correct, points: question.points, earned: correct ? question.points : 0 };
  });
  const totalPoints = results.reduce((sum, result) => sum + result.points, 0);
  const earnedPoints = results.reduce((sum, result) => sum + result.earned, 0);
  const score = totalPoints === 0 ? 0 : round2((earnedPoints / totalPoints) * 100);
  return { results, totalPoints, earnedPoints, score, passed: score >= passingScore };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * The questions one attempt is given: `drawCount` of them drawn at random when the quiz sets one
 * below its number of questions (kept in the quiz's order unless it shuffles), shuffled when the
 * quiz says so, a QCM's options too (its right index then follows its option). The attempt keeps
 * them: later edits do not touch it.
 */
export function prepareAttemptQuestions(
  questions: QuizQuestion[],
  settings: { shuffleQuestions: boolean; shuffleOptions: boolean; drawCount?: number | null },
  random: () => number = Math.random,
): AttemptQuestion[] {
  const { drawCount } = settings;
  const drawn =
    drawCount && drawCount < questions.length
      ? new Set(
          shuffled(
            questions.map((_, index) => index),
            random,
          ).slice(0, drawCount),
        )
      : null;
  const pool = drawn ? questions.filter((_, index) => drawn.has(index)) : questions;
  const ordered = settings.shuffleQuestions ? shuffled(pool, random) : [...pool];
  return ordered.map((question) => {
    if (!settings.shuffleOptions || question.type !== "multiple_choice") return { ...question, options: [...question.options] };
    const order = shuffled(
      question.options.map((_, index) => index),
      random,
    );
    return {
      ...question,
      options: order.map((index) => question.options[index]!),
      correctAnswer: String(order.indexOf(Number(question.correctAnswer))),
    };
  });
}

/**
 * A repeatable random source: the same `seed` gives the same numbers (mulberry32 over a string
 * hash). For a draw that must be made again identically, as an offline attempt's.
 */
export function seededRandom(seed: string): () => number {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The text of an answer as given, for the corrections ("Vrai", the option's text, the typed text). */
export function answerLabel(question: Pick<QuizQuestion, "type" | "options">, answer: string | undefined): string {
  if (answer === undefined || answer === "") return "Sans réponse";
  if (question.type === "true_false") return answer === "true" ? "Vrai" : answer === "false" ? "Faux" : answer;
  if (question.type === "multiple_choice") return question.options[Number(answer)] ?? "Sans réponse";
  return answer;
}

/**
 * The required quiz a learner who has done every lesson takes next for their certificate: the
 * first not passed yet with an attempt left (one in progress counts as left). None: nothing waits.
 */
export function nextRequiredQuiz<
  Quiz extends { required: boolean; passed: boolean; attemptsUsed: number; maxAttempts: number; inProgressId: number | null },
>(quizzes: readonly Quiz[]): Quiz | undefined {
  return quizzes.find((quiz) => quiz.required && !quiz.passed && (quiz.inProgressId !== null || quiz.attemptsUsed < quiz.maxAttempts));
}

export type GradedAttempt = { userId: string; score: number; passed: boolean };

/**
 * The quiz statistics of the results screen, rounded to two decimals: attempts, unique students,
 * average score, attempt pass rate, and student pass rate (on each student's best attempt).
 */
export function quizStats(attempts: GradedAttempt[]) {
  const best = new Map<string, GradedAttempt>();
  for (const attempt of attempts) {
    const current = best.get(attempt.userId);
    if (!current || attempt.score > current.score) best.set(attempt.userId, attempt);
  }
  const students = [...best.values()];
  const percent = (part: number, whole: number) => (whole === 0 ? 0 : round2((part / whole) * 100));
  return {
    totalAttempts: attempts.length,
    uniqueStudents: students.length,
    averageScore: attempts.length === 0 ? 0 : round2(attempts.reduce((sum, attempt) => sum + attempt.score, 0) / attempts.length),
    attemptPassRate: percent(attempts.filter((attempt) => attempt.passed).length, attempts.length),
    studentPassRate: percent(students.filter((attempt) => attempt.passed).length, students.length),
  };
}

export const scoreBucketLabels = ["0-20", "21-40", "41-60", "61-80", "81-100"] as const;

/** How many scores fall in each of the five buckets (a score of 20.5 is in 21-40). */
export function scoreDistribution(scores: number[]) {
  const counts = [0, 0, 0, 0, 0];
  for (const score of scores) {
    const bucket = score <= 20 ? 0 : score <= 40 ? 1 : score <= 60 ? 2 : score <= 80 ? 3 : 4;
    counts[bucket]! += 1;
  }
  return scoreBucketLabels.map((label, index) => ({
    label,
    count: counts[index]!,
    share: scores.length === 0 ? 0 : round2((counts[index]! / scores.length) * 100),
  }));
}

/** The per-question badge: 70 % or more "default", 50 % or more "secondary", below "destructive". */
export type SuccessTone = "default" | "secondary" | "destructive";
export function successTone(rate: number): SuccessTone {
  return rate >= 70 ? "default" : rate >= 50 ? "secondary" : "destructive";
}

/**
 * Each question's success rate over the graded attempts that were given it, in the quiz's current
 * order (then questions since removed), labelled with the latest text.
 */
export function questionAnalysis(
  current: Pick<QuizQuestion, "id" | "question">[],
  attempts: Array<{ questions: Pick<QuizQuestion, "id" | "question">[]; results: QuestionResult[] | null }>,
) {
  const stats = new Map<string, { question: string; asked: number; correct: number }>();
  for (const question of current) stats.set(question.id, { question: question.question, asked: 0, correct: 0 });
  for (const attempt of attempts) {
    for (const result of attempt.results ?? []) {
      const entry = stats.get(result.questionId) ?? {
        question: attempt.questions.find((question) => question.id === result.questionId)?.question ?? "Question supprimée",
        asked: 0,
        correct: 0,
      };
      entry.asked += 1;
      if (result.correct) entry.correct += 1;
      stats.set(result.questionId, entry);
    }
  }
  return [...stats.entries()].map(([id, entry], index) => {
    const rate = entry.asked === 0 ? 0 : round2((entry.correct / entry.asked) * 100);
    return { id, position: index + 1, question: entry.question, asked: entry.asked, correct: entry.correct, rate, tone: successTone(rate) };
  });
}

/** Scores written the French way (« 12,5 % »): the one percentage helper, re-exported for the quiz screens. */
export { formatPercent } from "./format";

/** The seconds left before a deadline (never negative); null without one. */
export function secondsLeft(deadline: Date | null, now: Date): number | null {
  if (!deadline) return null;
  return Math.max(0, Math.floor((deadline.getTime() - now.getTime()) / 1000));
}

/** "12:05", "1:02:09": a countdown. */
export function formatCountdown(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const two = (value: number) => String(value).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}
