/**
 * The quiz form's values as typed (strings, so a failed save gives back exactly what was typed),
 * read from its FormData, and the editing intents of its buttons (add, remove, move a question;
 * apply a question's new type). Shared by the server (without JavaScript the buttons submit the
 * form and the action sends it back changed) and the browser (the same change, in the page).
 */

import { isCorrectionMode, isQuestionType, QUIZ_DEFAULTS, type CorrectionMode, type QuestionType } from "./quiz";
import { fieldElementId, parseFormTab } from "./form-tabs";
import { newRowKey, parseRowKey } from "./row-key";

export type QuestionValues = {
  /** Names the row in the page while it is edited and moved (never stored). */
  key: string;
  /** "q_…" once saved ("" for a new one): kept so the per-question analysis follows it. */
  id: string;
  type: QuestionType;
  /** The type the row's fields were drawn for: a different `type` on save means it changed without JavaScript. */
  shownType: QuestionType;
  question: string;
  options: string[];
  correctAnswer: string;
  points: string;
  explanation: string;
};

export type QuizFormValues = {
  title: string;
  description: string;
  courseId: string;
  lessonId: string;
  questions: QuestionValues[];
  timeLimitOn: boolean;
  timeLimitMinutes: string;
  maxAttempts: string;
  passingScore: string;
  /** Questions drawn per attempt; "" for all of them. */
  drawCount: string;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  corrections: CorrectionMode;
  /** With "after_date": a `datetime-local` value, Bamako time. */
  correctionsAt: string;
  required: boolean;
};

/** A question's fields for its type: four empty options and index 0 for a QCM, "true" for Vrai/Faux, nothing for a short answer. */
export function resetForType(question: QuestionValues, type: QuestionType): QuestionValues {
  return {
    ...question,
    type,
    shownType: type,
    options: type === "multiple_choice" ? Array.from({ length: QUIZ_DEFAULTS.optionCount }, () => "") : [],
    correctAnswer: type === "multiple_choice" ? "0" : type === "true_false" ? "true" : "",
  };
}

export function emptyQuestion(type: QuestionType = "multiple_choice"): QuestionValues {
  return resetForType(
    { key: newRowKey(), id: "", type, shownType: type, question: "", options: [], correctAnswer: "", points: "1", explanation: "" },
    type,
  );
}

export function emptyQuizValues(): QuizFormValues {
  return {
    title: "",
    description: "",
    courseId: "",
    lessonId: "",
    questions: [],
    timeLimitOn: false,
    timeLimitMinutes: String(QUIZ_DEFAULTS.timeLimitMinutes),
    maxAttempts: String(QUIZ_DEFAULTS.maxAttempts),
    passingScore: String(QUIZ_DEFAULTS.passingScore),
    drawCount: "",
    shuffleQuestions: false,
    shuffleOptions: false,
    // An exam's answers stay closed while the learner may try again.
    corrections: "after_last_attempt",
    correctionsAt: "",
    required: false,
  };
}

const MAX_QUESTIONS = 100;
const questionField = /^questions\[(\d{1,3})\]\.(\w+)(?:\[(\d)\])?$/;
const checked = (value: FormDataEntryValue | null) => value === "on" || value === "true";

/** Reads the form: plain names, `questions[2].question`, `questions[2].options[1]`… (rows in index order). */
export function quizValuesFromFormData(form: FormData): QuizFormValues {
  const values = emptyQuizValues();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  values.title = text("title");
  values.description = text("description");
  values.courseId = text("courseId");
  values.lessonId = text("lessonId");
  values.timeLimitMinutes = text("timeLimitMinutes") || values.timeLimitMinutes;
  values.maxAttempts = text("maxAttempts");
  values.passingScore = text("passingScore");
  values.drawCount = text("drawCount");
  const corrections = text("corrections");
  if (isCorrectionMode(corrections)) values.corrections = corrections;
  values.correctionsAt = text("correctionsAt");
  // Checkboxes: a hidden "false" precedes each, so the last value wins.
  const lastChecked = (name: string) => checked(form.getAll(name).at(-1) ?? null);
  values.timeLimitOn = lastChecked("timeLimitOn");
  values.shuffleQuestions = lastChecked("shuffleQuestions");
  values.shuffleOptions = lastChecked("shuffleOptions");
  values.required = lastChecked("required");

  const rows = new Map<number, QuestionValues>();
  for (const [name, raw] of form.entries()) {
    if (typeof raw !== "string") continue;
    const match = questionField.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= MAX_QUESTIONS) continue;
    const row = rows.get(index) ?? { ...emptyQuestion(), options: [] };
    const field = match[2];
    if (field === "options" && match[3] !== undefined) {
      const options = [...row.options];
      options[Number(match[3])] = raw;
      row.options = options;
    } else if (field === "type" && isQuestionType(raw)) row.type = raw;
    else if (field === "shownType" && isQuestionType(raw)) row.shownType = raw;
    else if (field === "key") row.key = parseRowKey(raw) ?? row.key;
    else if (field === "id" || field === "question" || field === "correctAnswer" || field === "points" || field === "explanation")
      row[field] = raw;
    rows.set(index, row);
  }
  values.questions = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => ({
      ...row,
      options: row.shownType === "multiple_choice" ? Array.from({ length: QUIZ_DEFAULTS.optionCount }, (_, i) => row.options[i] ?? "") : [],
    }));
  return values;
}

export type QuizEditIntent =
  { kind: "add-question" } | { kind: "remove-question" | "move-question-up" | "move-question-down" | "apply-type"; index: number };

/** "add-question", "remove-question:2", "move-question-up:1", "apply-type:0"… or null (saving, or anything unknown). */
export function parseQuizEditIntent(intent: unknown): QuizEditIntent | null {
  if (intent === "add-question") return { kind: "add-question" };
  if (typeof intent !== "string") return null;
  const match = /^(remove-question|move-question-up|move-question-down|apply-type):(\d{1,3})$/.exec(intent);
  return match ? { kind: match[1] as "remove-question", index: Number(match[2]) } : null;
}

export function quizEditIntentValue(intent: QuizEditIntent): string {
  return "index" in intent ? `${intent.kind}:${intent.index}` : intent.kind;
}

function move<T>(items: T[], from: number, to: number): T[] {
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return items;
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

/** The form after one of its editing buttons: nothing saved; out-of-range positions change nothing. */
export function applyQuizEditIntent(values: QuizFormValues, intent: QuizEditIntent): QuizFormValues {
  switch (intent.kind) {
    case "add-question":
      return values.questions.length >= MAX_QUESTIONS ? values : { ...values, questions: [...values.questions, emptyQuestion()] };
    case "remove-question":
      return { ...values, questions: values.questions.filter((_, index) => index !== intent.index) };
    case "move-question-up":
      return { ...values, questions: move(values.questions, intent.index, intent.index - 1) };
    case "move-question-down":
      return { ...values, questions: move(values.questions, intent.index, intent.index + 1) };
    case "apply-type":
      return {
        ...values,
        questions: values.questions.map((question, index) =>
          index === intent.index && question.type !== question.shownType ? resetForType(question, question.type) : question,
        ),
      };
  }
}

/** Questions whose type changed without JavaScript and whose fields are not drawn for it yet. */
export function questionsWithPendingType(values: QuizFormValues): number[] {
  return values.questions.flatMap((question, index) => (question.type !== question.shownType ? [index] : []));
}

export const quizFormTabs = [
  { id: "informations", label: "Informations" },
  { id: "questions", label: "Questions" },
  { id: "parametres", label: "Paramètres" },
] as const;
export type QuizFormTab = (typeof quizFormTabs)[number]["id"];

export function parseQuizFormTab(value: unknown): QuizFormTab {
  return parseFormTab(quizFormTabs, value);
}

/** The tab showing a field ("title", "questions.2.question", "passingScore"…). */
export function quizTabOfField(field: string): QuizFormTab {
  if (field.startsWith("questions")) return "questions";
  if (["timeLimitMinutes", "maxAttempts", "passingScore", "drawCount", "corrections", "correctionsAt"].includes(field)) return "parametres";
  return "informations";
}

/** A field's element id, from its error key ("questions.2.question" → "quiz-questions-2-question"). */
export function quizFieldId(field: string): string {
  return fieldElementId("quiz", field);
}
