/**
 * The course form's values as typed (strings, so that a failed save gives back exactly what was
 * typed), read from its FormData, and the editing intents of its buttons (add, remove, move a
 * lesson; add, remove an objective or a prerequisite). Shared by the server (without JavaScript the
 * buttons submit the form and the action re-renders it changed) and the browser (the same change,
 * applied client-side).
 */

import { isCourseStatus, type CourseStatus } from "./course-status";
import { fieldElementId, parseFormTab } from "./form-tabs";
import { newRowKey, parseRowKey } from "./row-key";

export type LessonValues = {
  /** Names the row in the page while it is edited and moved (never stored). */
  key: string;
  /** The lesson's id once saved ("" for a new one): kept so that saving updates it in place. */
  id: string;
  title: string;
  description: string;
  content: string;
  videoUrl: string;
  /** An uploaded video (files.id), set by the upload widget. */
  videoFileId: string;
  /** Uploaded documents (files.id), in the order shown. */
  attachmentIds: string[];
  durationMinutes: string;
  isFree: boolean;
};

export type CourseFormValues = {
  title: string;
  description: string;
  category: string;
  level: string;
  durationWeeks: string;
  priceFcfa: string;
  maxStudents: string;
  liveSessionUrl: string;
  /** "2026-12-01T18:00" (a datetime-local field, Bamako time, which is UTC). */
  nextLiveAt: string;
  /** An uploaded cover image (files.id), set by the upload widget. */
  thumbnailFileId: string;
  /** Only an admin's form has it: the teacher to assign ("" keeps the current one). */
  instructorId: string;
  status: string;
  objectives: string[];
  prerequisites: string[];
  /** The "add" boxes of the two lists: a text typed there and not yet added is saved too. */
  newObjective: string;
  newPrerequisite: string;
  lessons: LessonValues[];
};

export function emptyLesson(): LessonValues {
  return {
    key: newRowKey(),
    id: "",
    title: "",
    description: "",
    content: "",
    videoUrl: "",
    videoFileId: "",
    attachmentIds: [],
    durationMinutes: "0",
    isFree: false,
  };
}

export function emptyCourseValues(): CourseFormValues {
  return {
    title: "",
    description: "",
    category: "",
    level: "",
    durationWeeks: "",
    priceFcfa: "",
    maxStudents: "",
    liveSessionUrl: "",
    nextLiveAt: "",
    thumbnailFileId: "",
    instructorId: "",
    status: "draft",
    objectives: [],
    prerequisites: [],
    newObjective: "",
    newPrerequisite: "",
    lessons: [],
  };
}

const MAX_ROWS = 200;
const lessonField = /^lessons\[(\d{1,3})\]\.(\w+)$/;
const listItem = /^(objectives|prerequisites)\[(\d{1,3})\]$/;

/**
 * Reads the form's fields: plain names (title...), `objectives[0]`, `prerequisites[1]` and
 * `lessons[2].title` (rows in index order, gaps closed up). Unknown names are ignored.
 */
export function courseValuesFromFormData(form: FormData): CourseFormValues {
  const values = emptyCourseValues();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  for (const key of [
    "title",
    "description",
    "category",
    "level",
    "durationWeeks",
    "priceFcfa",
    "maxStudents",
    "liveSessionUrl",
    "nextLiveAt",
    "thumbnailFileId",
    "instructorId",
    "newObjective",
    "newPrerequisite",
  ] as const) {
    values[key] = text(key);
  }
  values.status = text("status") || "draft";

  const lists: Record<"objectives" | "prerequisites", Map<number, string>> = { objectives: new Map(), prerequisites: new Map() };
  const lessonRows = new Map<number, LessonValues>();
  for (const [name, raw] of form.entries()) {
    if (typeof raw !== "string") continue;
    const item = listItem.exec(name);
    if (item) {
      const index = Number(item[2]);
      if (index < MAX_ROWS) lists[item[1] as "objectives" | "prerequisites"].set(index, raw);
      continue;
    }
    const lesson = lessonField.exec(name);
    if (!lesson) continue;
    const index = Number(lesson[1]);
    if (index >= MAX_ROWS) continue;
    const row = lessonRows.get(index) ?? emptyLesson();
    const field = lesson[2];
    // A checkbox posts "on" only when ticked; a hidden "false" before it may come first.
    if (field === "isFree") row.isFree = row.isFree || raw === "on" || raw === "true";
    else if (field === "attachmentIds")
      row.attachmentIds = raw && row.attachmentIds.length < 50 ? [...row.attachmentIds, raw] : row.attachmentIds;
    else if (field === "key") row.key = parseRowKey(raw) ?? row.key;
    else if (
      field === "id" ||
      field === "title" ||
      field === "description" ||
      field === "content" ||
      field === "videoUrl" ||
      field === "videoFileId" ||
      field === "durationMinutes"
    )
      row[field] = raw;
    lessonRows.set(index, row);
  }
  const ordered = <T>(map: Map<number, T>) => [...map.entries()].sort(([a], [b]) => a - b).map(([, value]) => value);
  values.objectives = ordered(lists.objectives);
  values.prerequisites = ordered(lists.prerequisites);
  values.lessons = ordered(lessonRows);
  return values;
}

export type EditIntent =
  | { kind: "add-lesson" | "add-objective" | "add-prerequisite" | "remove-thumbnail" }
  | { kind: "remove-lesson" | "move-lesson-up" | "move-lesson-down" | "remove-video"; index: number }
  | { kind: "remove-objective" | "remove-prerequisite"; index: number }
  | { kind: "remove-attachment"; index: number; attachment: number };

/**
 * The value of an editing button: "add-lesson", "remove-lesson:2", "move-lesson-up:1",
 * "remove-attachment:2:0"... or null (saving, or anything unknown).
 */
export function parseEditIntent(intent: unknown): EditIntent | null {
  if (typeof intent !== "string") return null;
  if (intent === "add-lesson" || intent === "add-objective" || intent === "add-prerequisite" || intent === "remove-thumbnail")
    return { kind: intent };
  const attachment = /^remove-attachment:(\d{1,3}):(\d{1,2})$/.exec(intent);
  if (attachment) return { kind: "remove-attachment", index: Number(attachment[1]), attachment: Number(attachment[2]) };
  const match = /^(remove-lesson|move-lesson-up|move-lesson-down|remove-video|remove-objective|remove-prerequisite):(\d{1,3})$/.exec(
    intent,
  );
  if (!match) return null;
  return { kind: match[1] as "remove-lesson", index: Number(match[2]) };
}

/** The value of an editing button, as `parseEditIntent` reads it back. */
export function editIntentValue(intent: EditIntent): string {
  if (intent.kind === "remove-attachment") return `${intent.kind}:${intent.index}:${intent.attachment}`;
  return "index" in intent ? `${intent.kind}:${intent.index}` : intent.kind;
}

function updateLesson(values: CourseFormValues, index: number, change: (lesson: LessonValues) => LessonValues): CourseFormValues {
  return { ...values, lessons: values.lessons.map((lesson, position) => (position === index ? change(lesson) : lesson)) };
}

function move<T>(items: T[], from: number, to: number): T[] {
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return items;
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

/** The form after one of its editing buttons: nothing is saved, out-of-range positions change nothing. */
export function applyEditIntent(values: CourseFormValues, intent: EditIntent): CourseFormValues {
  switch (intent.kind) {
    case "add-lesson":
      return { ...values, lessons: [...values.lessons, emptyLesson()] };
    case "remove-lesson":
      return { ...values, lessons: values.lessons.filter((_, index) => index !== intent.index) };
    case "move-lesson-up":
      return { ...values, lessons: move(values.lessons, intent.index, intent.index - 1) };
    case "move-lesson-down":
      return { ...values, lessons: move(values.lessons, intent.index, intent.index + 1) };
    case "add-objective": {
      const text = values.newObjective.trim();
      return text ? { ...values, objectives: [...values.objectives, text], newObjective: "" } : values;
    }
    case "add-prerequisite": {
      const text = values.newPrerequisite.trim();
      return text ? { ...values, prerequisites: [...values.prerequisites, text], newPrerequisite: "" } : values;
    }
    case "remove-objective":
      return { ...values, objectives: values.objectives.filter((_, index) => index !== intent.index) };
    case "remove-prerequisite":
      return { ...values, prerequisites: values.prerequisites.filter((_, index) => index !== intent.index) };
    case "remove-thumbnail":
      return { ...values, thumbnailFileId: "" };
    case "remove-video":
      return updateLesson(values, intent.index, (lesson) => ({ ...lesson, videoFileId: "" }));
    case "remove-attachment":
      return updateLesson(values, intent.index, (lesson) => ({
        ...lesson,
        attachmentIds: lesson.attachmentIds.filter((_, index) => index !== intent.attachment),
      }));
  }
}

/** The Paramètres tab's summary, from what is typed (unreadable minutes count as zero here). */
export function courseSummary(values: CourseFormValues) {
  const minutes = values.lessons.reduce((total, lesson) => {
    const value = Number(lesson.durationMinutes);
    return total + (Number.isSafeInteger(value) && value > 0 ? value : 0);
  }, 0);
  const price = Number(values.priceFcfa.replace(/[\s\u00a0\u202f]/g, ""));
  return {
    lessonCount: values.lessons.length,
    totalMinutes: minutes,
    priceFcfa: Number.isSafeInteger(price) && price > 0 ? price : 0,
    status: isCourseStatus(values.status) ? values.status : ("draft" as CourseStatus),
  };
}

/** The four tabs of the course form, in order. */
export const courseFormTabs = [
  { id: "informations", label: "Informations de base" },
  { id: "lecons", label: "Contenu & Leçons" },
  { id: "objectifs", label: "Objectifs & Prérequis" },
  { id: "parametres", label: "Paramètres" },
] as const;
export type CourseFormTab = (typeof courseFormTabs)[number]["id"];

export function parseCourseFormTab(value: unknown): CourseFormTab {
  return parseFormTab(courseFormTabs, value);
}

/** The tab showing a field ("title", "lessons.2.title", "objectives.0"...). */
export function tabOfField(field: string): CourseFormTab {
  if (field.startsWith("lessons")) return "lecons";
  if (
    field.startsWith("objectives") ||
    field.startsWith("prerequisites") ||
    field.startsWith("newObjective") ||
    field.startsWith("newPrerequisite")
  )
    return "objectifs";
  if (field === "status") return "parametres";
  return "informations";
}

/** A field's element id, from its error key ("lessons.2.title" → "champ-lessons-2-title"). */
export function fieldId(field: string): string {
  return fieldElementId("champ", field);
}
