import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, lte, max, sql } from "drizzle-orm";
import { z } from "zod";
import { formatMonth, isoDay, startOfMonth } from "~/lib/dates";
import { analyticsRanges, type AnalyticsRange } from "~/lib/teaching";
import type { Actor } from "../auth/actor";
import { managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import {
  courses,
  enrolments,
  lessonProgress,
  lessons,
  liveSessionAttendance,
  liveSessionRegistrations,
  liveSessions,
  quizAttempts,
  quizzes,
} from "../db/schema";

/**
 * The teacher's analytics over a period (7 j, 30 j, 90 j, 1 an), over the courses the actor
 * manages, optionally one course. Every figure is filtered by the period:
 * - enrolments: opened (paid, or free) during the period;
 * - completion rate: of those, the share finished today;
 * - where learners stop: of those (one course), the share that finished each lesson;
 * - quiz scores: per quiz, the average of each learner's best score among attempts sent in the period;
 * - live attendance: sessions held in the period, registered and present.
 */

const DAY = 24 * 60 * 60 * 1000;
const rangeDays: Record<AnalyticsRange, number> = { "7j": 7, "30j": 30, "90j": 90, "1an": 365 };

export const analyticsFiltersSchema = z.object({
  range: z.enum(analyticsRanges).catch("30j"),
  course: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
});
export type AnalyticsFilters = z.infer<typeof analyticsFiltersSchema>;

export function parseAnalyticsFilters(searchParams: URLSearchParams): AnalyticsFilters {
  return analyticsFiltersSchema.parse({ range: searchParams.get("periode") ?? undefined, course: searchParams.get("cours") ?? undefined });
}

/** The period's buckets for "enrolments over time": days (7 j), 5-day spans (30 j), 15-day spans (90 j), months (1 an). */
function buckets(range: AnalyticsRange, now: Date): Array<{ start: Date; end: Date; label: string }> {
  if (range === "1an") {
    return Array.from({ length: 12 }, (_, index) => {
      const start = startOfMonth(now, 11 - index);
      const end = index === 11 ? now : startOfMonth(now, 10 - index);
      return { start, end, label: formatMonth(start) };
    });
  }
  const span = { "7j": 1, "30j": 5, "90j": 15 }[range];
  const total = rangeDays[range];
  return Array.from({ length: total / span }, (_, index) => {
    const start = new Date(now.getTime() - (total - index * span) * DAY);
    const end = new Date(start.getTime() + span * DAY);
    const [, month, day] = isoDay(start).split("-");
    return { start, end, label: `${day}/${month}` };
  });
}

export async function getTeacherAnalytics(db: Database, actor: Actor, filters: AnalyticsFilters, now = new Date()) {
  const since = filters.range === "1an" ? startOfMonth(now, 11) : new Date(now.getTime() - rangeDays[filters.range] * DAY);
  const courseScope = and(managedCoursesWhere(actor), filters.course ? eq(courses.id, filters.course) : undefined);
  const scoped = db.select({ id: courses.id }).from(courses).where(courseScope);
  const opened = and(
    inArray(enrolments.courseId, scoped),
    isNotNull(enrolments.activatedAt),
    gte(enrolments.activatedAt, since),
    lte(enrolments.activatedAt, now),
  );

  function quizFigures() {
    const best = db
      .select({ quizId: quizAttempts.quizId, userId: quizAttempts.userId, best: max(quizAttempts.score).as("best") })
      .from(quizAttempts)
      .where(and(isNotNull(quizAttempts.score), gte(quizAttempts.submittedAt, since), lte(quizAttempts.submittedAt, now)))
      .groupBy(quizAttempts.quizId, quizAttempts.userId)
      .as("best");
    return db
      .select({
        id: quizzes.id,
        title: quizzes.title,
        courseTitle: courses.title,
        learners: count(best.userId),
        average: sql<string | null>`avg(${best.best})`,
      })
      .from(quizzes)
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .innerJoin(best, eq(best.quizId, quizzes.id))
      .where(courseScope)
      .groupBy(quizzes.id, quizzes.title, courses.title)
      .orderBy(asc(courses.title), asc(quizzes.title));
  }

  function sessionFigures() {
    const registered = db
      .select({ sessionId: liveSessionRegistrations.sessionId, n: count().as("registered") })
      .from(liveSessionRegistrations)
      .groupBy(liveSessionRegistrations.sessionId)
      .as("registered");
    const present = db
      .select({ sessionId: liveSessionAttendance.sessionId, n: count().as("present") })
      .from(liveSessionAttendance)
      .groupBy(liveSessionAttendance.sessionId)
      .as("present");
    return db
      .select({
        id: liveSessions.id,
        title: liveSessions.title,
        courseTitle: courses.title,
        startsAt: liveSessions.startsAt,
        registered: sql<number>`coalesce(${registered.n}, 0)`.mapWith(Number),
        present: sql<number>`coalesce(${present.n}, 0)`.mapWith(Number),
      })
      .from(liveSessions)
      .innerJoin(courses, eq(courses.id, liveSessions.courseId))
      .leftJoin(registered, eq(registered.sessionId, liveSessions.id))
      .leftJoin(present, eq(present.sessionId, liveSessions.id))
      .where(and(courseScope, eq(liveSessions.status, "scheduled"), gte(liveSessions.startsAt, since), lt(liveSessions.startsAt, now)))
      .orderBy(desc(liveSessions.startsAt));
  }

  const perCourseRows = db
    .select({
      id: courses.id,
      title: courses.title,
      enrolments: count(enrolments.id),
      completed: count(sql`case when ${eq(enrolments.status, "completed")} then 1 end`),
    })
    .from(courses)
    .leftJoin(enrolments, and(eq(enrolments.courseId, courses.id), opened))
    .where(courseScope)
    .groupBy(courses.id, courses.title)
    .orderBy(desc(count(enrolments.id)), asc(courses.title));

  const dateRows = db.select({ at: enrolments.activatedAt }).from(enrolments).where(opened);
  // The course, quiz and session figures at once; only the funnel waits on the course figures:
  // two round trips, not five.
  const [perCourse, dates, quizRows, sessionRows] = await Promise.all([perCourseRows, dateRows, quizFigures(), sessionFigures()]);
  const overTime = buckets(filters.range, now).map((bucket) => ({
    label: bucket.label,
    count: dates.filter((row) => row.at! >= bucket.start && row.at! < bucket.end).length,
  }));

  // Where learners stop: one course (the chosen one, else the one with most enrolments in the period).
  const funnelCourse = perCourse.find((row) => row.id === filters.course) ?? perCourse.find((row) => row.enrolments > 0) ?? null;
  let funnel: {
    courseId: number;
    courseTitle: string;
    learners: number;
    lessons: Array<{ title: string; reached: number; share: number }>;
  } | null = null;
  if (funnelCourse) {
    const courseEnrolments = db
      .select({ id: enrolments.id })
      .from(enrolments)
      .where(and(opened, eq(enrolments.courseId, funnelCourse.id)));
    const lessonRows = await db
      .select({ id: lessons.id, title: lessons.title, reached: count(lessonProgress.enrolmentId) })
      .from(lessons)
      .leftJoin(
        lessonProgress,
        and(
          eq(lessonProgress.lessonId, lessons.id),
          isNotNull(lessonProgress.completedAt),
          inArray(lessonProgress.enrolmentId, courseEnrolments),
        ),
      )
      .where(eq(lessons.courseId, funnelCourse.id))
      .groupBy(lessons.id, lessons.title, lessons.position)
      .orderBy(asc(lessons.position), asc(lessons.id));
    const learners = Number(funnelCourse.enrolments);
    funnel = {
      courseId: funnelCourse.id,
      courseTitle: funnelCourse.title,
      learners,
      lessons: lessonRows.map((row) => ({
        title: row.title,
        reached: Number(row.reached),
        share: learners ? Math.round((Number(row.reached) / learners) * 100) : 0,
      })),
    };
  }

  const totalEnrolments = perCourse.reduce((sum, row) => sum + Number(row.enrolments), 0);
  const totalCompleted = perCourse.reduce((sum, row) => sum + Number(row.completed), 0);
  const quizList = quizRows.map((row) => ({
    ...row,
    learners: Number(row.learners),
    average: row.average === null ? null : Math.round(Number(row.average)),
  }));
  const graded = quizList.reduce((sum, row) => sum + row.learners, 0);
  const totalRegistered = sessionRows.reduce((sum, row) => sum + row.registered, 0);
  const totalPresent = sessionRows.reduce((sum, row) => sum + row.present, 0);
  return {
    range: filters.range,
    since,
    totals: {
      enrolments: totalEnrolments,
      completed: totalCompleted,
      completionRate: totalEnrolments ? Math.round((totalCompleted / totalEnrolments) * 100) : null,
      averageQuizScore: graded ? Math.round(quizList.reduce((sum, row) => sum + (row.average ?? 0) * row.learners, 0) / graded) : null,
      sessions: sessionRows.length,
      present: totalPresent,
    },
    enrolmentsOverTime: overTime,
    courses: perCourse.map((row) => ({
      id: row.id,
      title: row.title,
      enrolments: Number(row.enrolments),
      completed: Number(row.completed),
      completionRate: Number(row.enrolments) ? Math.round((Number(row.completed) / Number(row.enrolments)) * 100) : null,
    })),
    funnel,
    quizzes: quizList,
    sessions: sessionRows,
    attendanceRate: totalRegistered ? Math.round((totalPresent / totalRegistered) * 100) : null,
  };
}
export type TeacherAnalytics = Awaited<ReturnType<typeof getTeacherAnalytics>>;
