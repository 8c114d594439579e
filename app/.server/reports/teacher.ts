import { and, avg, count, countDistinct, desc, eq, gte, inArray, isNotNull, sql, sum } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import { courses, enrolments, forumThreads, lessons, quizAttempts, quizzes, users } from "../db/schema";
import { followingEnrolment } from "../learning";

/**
 * The teacher's dashboard: figures over the courses the actor manages (a teacher's own, every
 * course for an admin), read from learning, quizzes and forum tables. Writes nothing.
 *
 * Definitions (shown on the page):
 * - active students: distinct learners with an active enrolment (following, not yet finished);
 * - success rate: among the enrolments opened on these courses (active or completed), the share
 *   completed (every lesson done); null when there is none;
 * - course hours: the sum of the lessons' durations.
 */

/** Enrolments that opened (paid, or free) and were not cancelled nor left pending. */
const OPENED = ["active", "completed", "paused"] as const;

export async function getTeacherDashboard(db: Database, actor: Actor) {
  const managed = db.select({ id: courses.id }).from(courses).where(managedCoursesWhere(actor));
  const courseFigures = db
    .select({ total: count(), published: count(sql`case when ${eq(courses.status, "published")} then 1 end`) })
    .from(courses)
    .where(managedCoursesWhere(actor));
  const learnerFigures = db
    .select({
      active: countDistinct(sql`case when ${eq(enrolments.status, "active")} then ${enrolments.userId} end`),
      learners: countDistinct(enrolments.userId),
      following: count(sql`case when ${followingEnrolment()} then 1 end`),
      completed: count(sql`case when ${eq(enrolments.status, "completed")} then 1 end`),
    })
    .from(enrolments)
    .where(and(inArray(enrolments.courseId, managed), inArray(enrolments.status, [...OPENED])));
  const minuteFigures = db
    .select({ minutes: sum(lessons.durationMinutes) })
    .from(lessons)
    .where(inArray(lessons.courseId, managed));

  const progressRows = db
    .select({
      courseId: enrolments.courseId,
      learners: count().as("learners"),
      averageProgress: avg(enrolments.progress).as("average_progress"),
    })
    .from(enrolments)
    // The managed courses only: the join below cannot narrow a grouped subquery.
    .where(and(inArray(enrolments.courseId, managed), inArray(enrolments.status, [...OPENED])))
    .groupBy(enrolments.courseId)
    .as("progress_rows");
  const courseRows = db
    .select({
      id: courses.id,
      slug: courses.slug,
      title: courses.title,
      status: courses.status,
      learners: progressRows.learners,
      averageProgress: progressRows.averageProgress,
    })
    .from(courses)
    .leftJoin(progressRows, eq(progressRows.courseId, courses.id))
    .where(managedCoursesWhere(actor))
    .orderBy(desc(courses.updatedAt), desc(courses.id))
    .limit(8);

  // Four independent reads: at the same time, so the page waits for one round trip, not four.
  const [[courseRow], [learnerRow], [minutesRow], courseList] = await Promise.all([
    courseFigures,
    learnerFigures,
    minuteFigures,
    courseRows,
  ]);

  const following = Number(learnerRow?.following ?? 0);
  const completed = Number(learnerRow?.completed ?? 0);
  return {
    cards: {
      courses: Number(courseRow?.total ?? 0),
      publishedCourses: Number(courseRow?.published ?? 0),
      activeStudents: Number(learnerRow?.active ?? 0),
      learners: Number(learnerRow?.learners ?? 0),
      successRate: following ? Math.round((completed / following) * 100) : null,
      completed,
      following,
      courseMinutes: Number(minutesRow?.minutes ?? 0),
    },
    courses: courseList.map((row) => ({
      ...row,
      learners: Number(row.learners ?? 0),
      averageProgress: row.averageProgress === null ? null : Math.round(Number(row.averageProgress)),
    })),
  };
}

export type TeacherActivity = {
  kind: "enrolment" | "quiz" | "completion" | "forum";
  at: Date;
  learner: string;
  courseTitle: string | null;
  detail: string | null;
};

const learnerName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

/**
 * What happened lately in the actor's courses: enrolments opened, quiz attempts submitted,
 * courses completed, and forum threads started by their learners; newest first.
 */
export async function listTeacherActivity(
  db: Database,
  actor: Actor,
  options: { since: Date; limit?: number },
): Promise<TeacherActivity[]> {
  const limit = options.limit ?? 10;
  const managed = db.select({ id: courses.id }).from(courses).where(managedCoursesWhere(actor));
  const [enrolled, finished, attempts, threads] = await Promise.all([
    db
      .select({ at: enrolments.activatedAt, learner: learnerName, courseTitle: courses.title })
      .from(enrolments)
      .innerJoin(courses, eq(courses.id, enrolments.courseId))
      .innerJoin(users, eq(users.id, enrolments.userId))
      .where(and(inArray(enrolments.courseId, managed), isNotNull(enrolments.activatedAt), gte(enrolments.activatedAt, options.since)))
      .orderBy(desc(enrolments.activatedAt))
      .limit(limit),
    db
      .select({ at: enrolments.completedAt, learner: learnerName, courseTitle: courses.title })
      .from(enrolments)
      .innerJoin(courses, eq(courses.id, enrolments.courseId))
      .innerJoin(users, eq(users.id, enrolments.userId))
      .where(and(inArray(enrolments.courseId, managed), isNotNull(enrolments.completedAt), gte(enrolments.completedAt, options.since)))
      .orderBy(desc(enrolments.completedAt))
      .limit(limit),
    db
      .select({
        at: quizAttempts.submittedAt,
        learner: learnerName,
        courseTitle: courses.title,
        quizTitle: quizzes.title,
        score: quizAttempts.score,
        passed: quizAttempts.passed,
      })
      .from(quizAttempts)
      .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .innerJoin(users, eq(users.id, quizAttempts.userId))
      .where(and(inArray(quizzes.courseId, managed), isNotNull(quizAttempts.submittedAt), gte(quizAttempts.submittedAt, options.since)))
      .orderBy(desc(quizAttempts.submittedAt))
      .limit(limit),
    db
      .select({ at: forumThreads.createdAt, learner: learnerName, title: forumThreads.title })
      .from(forumThreads)
      .innerJoin(users, eq(users.id, forumThreads.authorId))
      .where(
        and(
          gte(forumThreads.createdAt, options.since),
          sql`${forumThreads.hiddenAt} is null`,
          // Threads by the learners of the actor's courses.
          inArray(
            forumThreads.authorId,
            db
              .select({ userId: enrolments.userId })
              .from(enrolments)
              .where(and(inArray(enrolments.courseId, managed), inArray(enrolments.status, [...OPENED]))),
          ),
        ),
      )
      .orderBy(desc(forumThreads.createdAt))
      .limit(limit),
  ]);
  const items: TeacherActivity[] = [
    ...enrolled.map((row) => ({
      kind: "enrolment" as const,
      at: row.at!,
      learner: row.learner,
      courseTitle: row.courseTitle,
      detail: null,
    })),
    ...finished.map((row) => ({
      kind: "completion" as const,
      at: row.at!,
      learner: row.learner,
      courseTitle: row.courseTitle,
      detail: null,
    })),
    ...attempts.map((row) => ({
      kind: "quiz" as const,
      at: row.at!,
      learner: row.learner,
      courseTitle: row.courseTitle,
      detail: `${row.quizTitle} : ${row.score === null ? "—" : `${Math.round(Number(row.score))} %`}${row.passed ? " (réussi)" : row.passed === false ? " (non réussi)" : ""}`,
    })),
    ...threads.map((row) => ({ kind: "forum" as const, at: row.at, learner: row.learner, courseTitle: null, detail: row.title })),
  ];
  return items.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
}
