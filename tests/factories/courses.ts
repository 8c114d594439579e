import { eq } from "drizzle-orm";
import { createCourse as saveNewCourse } from "~/.server/courses/authoring";
import type { Database } from "~/.server/db/client";
import { courses } from "~/.server/db/schema";
import type { CourseStatus } from "~/lib/course-status";
import { createUser, type TestUser } from "./users";

export type LessonOverrides = { title?: string; description?: string; content?: string; durationMinutes?: number; isFree?: boolean };

export type CourseOverrides = {
  /** The teacher (or admin) who writes it; a new teacher by default. */
  instructor?: TestUser;
  title?: string;
  description?: string;
  /** A seeded category's slug ("tech", "energie", "agriculture"...). */
  category?: string;
  /** A seeded level's slug ("debutant", "intermediaire", "avance", "expert"). */
  level?: string;
  priceFcfa?: number;
  maxStudents?: number | null;
  durationWeeks?: number;
  status?: CourseStatus;
  /** How many lessons ("Leçon 1", "Leçon 2"...), or the lessons themselves. Default: 2. */
  lessons?: number | LessonOverrides[];
};

let sequence = 0;

/**
 * A course with its lessons, written through the course form's capability (createCourse) as its
 * instructor: published, 50 000 FCFA, two lessons of 30 minutes unless told otherwise.
 */
export async function createCourse(db: Database, overrides: CourseOverrides = {}) {
  sequence += 1;
  const instructor = overrides.instructor ?? (await createUser(db, { role: "teacher", firstName: "Seydou", lastName: "Konaté" }));
  const lessons: LessonOverrides[] =
    typeof overrides.lessons === "object"
      ? overrides.lessons
      : Array.from({ length: overrides.lessons ?? 2 }, (_, index) => ({ title: `Leçon ${index + 1}`, durationMinutes: 30 }));
  const saved = await saveNewCourse(db, instructor, {
    title: overrides.title ?? `Formation de test ${sequence}`,
    description: overrides.description ?? "Une formation créée pour un test.",
    category: overrides.category ?? "tech",
    level: overrides.level ?? "debutant",
    priceFcfa: overrides.priceFcfa ?? 50_000,
    maxStudents: overrides.maxStudents ?? null,
    durationWeeks: overrides.durationWeeks ?? 4,
    // A teacher may not create a course already archived (the status rule): archived afterwards.
    status: overrides.status === "archived" ? "published" : (overrides.status ?? "published"),
    lessons: lessons.map((lesson, index) => ({
      title: lesson.title ?? `Leçon ${index + 1}`,
      description: lesson.description ?? "",
      content: lesson.content ?? "",
      durationMinutes: lesson.durationMinutes ?? 30,
      isFree: lesson.isFree ?? false,
    })),
  });
  if (overrides.status === "archived") {
    await db.update(courses).set({ status: "archived" }).where(eq(courses.id, saved.course.id));
    saved.course.status = "archived";
  }
  return { course: saved.course, lessons: saved.lessons, instructor };
}
