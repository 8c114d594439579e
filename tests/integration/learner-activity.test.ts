/**
 * The learners' activity behind the administration's analytics: the database keeps, for each
 * learner and day, the first and last moment they did something (learner_activity_days, written by
 * triggers whoever writes the lessons' progress or the quiz attempts). The cards and the timeline
 * read it: exact on either side of a period's edge that cuts a day, and a lesson touched again
 * later still counts on the day it was first done.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { queryRows } from "~/.server/db/client";
import { saveVideoPosition, setLessonDone } from "~/.server/learning";
import { getAnalyticsKpis, getTimeline } from "~/.server/reports/admin-analytics";
import { windowOf } from "~/.server/reports";
import { createCourse, createQuiz, createUser, enrol, takeQuiz, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let admin: TestUser;
let teacher: TestUser;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  handle = await createTestDatabase();
  admin = await createUser(handle.db, { role: "admin", createdAt: at("2020-01-01T00:00:00Z") });
  teacher = await createUser(handle.db, { role: "teacher", createdAt: at("2020-01-01T00:00:00Z") });
}, 60_000);
afterAll(async () => handle?.close());

async function learnerInCourse(name: string) {
  const db = handle.db;
  const { course, lessons } = await createCourse(db, { instructor: teacher, priceFcfa: 0, title: `Cours de ${name}`, lessons: 3 });
  const learner = await createUser(db, { firstName: name, createdAt: at("2020-01-01T00:00:00Z") });
  await enrol(db, learner, course);
  return { learner, course, lessons };
}

const daysOf = (learner: TestUser) =>
  queryRows<{ day: string; first_at: Date; last_at: Date }>(
    handle.db,
    sql`select day::text, first_at, last_at from learner_activity_days where user_id = ${learner.id} order by day`,
  );

describe("the days kept by the database", () => {
  it("keep each day's first and last moment, from lessons, video positions and quizzes", async () => {
    const { learner, course, lessons } = await learnerInCourse("Fanta");
    await setLessonDone(handle.db, learner, lessons[0]!.id, true, at("2020-02-03T09:00:00Z"));
    await saveVideoPosition(handle.db, learner, lessons[1]!.id, 40, at("2020-02-03T18:30:00Z"));
    await setLessonDone(handle.db, learner, lessons[1]!.id, true, at("2020-02-03T12:00:00Z"));
    const quiz = await createQuiz(handle.db, teacher, course);
    await takeQuiz(handle.db, learner, course, quiz, () => ({}), at("2020-02-05T07:15:00Z"));

    const days = await daysOf(learner);
    expect(days.map((row) => [row.day, new Date(row.first_at).toISOString(), new Date(row.last_at).toISOString()])).toEqual([
      ["2020-02-03", "2020-02-03T09:00:00.000Z", "2020-02-03T18:30:00.000Z"],
      ["2020-02-05", expect.stringMatching(/^2020-02-05T07:15/), expect.stringMatching(/^2020-02-05T07:15/)],
    ]);
  });

  it("count a lesson touched again later on the day it was first done too", async () => {
    const { learner, lessons } = await learnerInCourse("Gaoussou");
    await setLessonDone(handle.db, learner, lessons[0]!.id, true, at("2020-04-02T10:00:00Z"));
    // Undone a week later: lesson_progress now keeps only 9 April.
    await setLessonDone(handle.db, learner, lessons[0]!.id, false, at("2020-04-09T10:00:00Z"));

    const week = await getTimeline(handle.db, admin, windowOf("7j", at("2020-04-04T00:00:00Z")));
    expect(week.map((span) => span.activeLearners)).toEqual([0, 0, 0, 0, 0, 1, 0]);
    const kpis = await getAnalyticsKpis(handle.db, admin, windowOf("7j", at("2020-04-10T00:00:00Z")));
    expect(kpis.activeLearners).toMatchObject({ current: 1, previous: 1 });
  });
});

describe("a period's edge that cuts a day", () => {
  it("puts the morning before the edge and the evening after it", async () => {
    const { learner, lessons } = await learnerInCourse("Hawa");
    // 5 June: once at 08:00, once at 20:00. The 7-day windows and spans below end at 14:00.
    await setLessonDone(handle.db, learner, lessons[0]!.id, true, at("2020-06-05T08:00:00Z"));
    await setLessonDone(handle.db, learner, lessons[1]!.id, true, at("2020-06-05T20:00:00Z"));

    // Window ending 5 June 14:00: the morning is in it, the evening after it.
    const before = await getAnalyticsKpis(handle.db, admin, windowOf("7j", at("2020-06-05T14:00:00Z")));
    expect(before.activeLearners).toMatchObject({ current: 1, previous: 0 });
    // Window starting 5 June 14:00: the evening is in it, the morning in the previous one.
    const after = await getAnalyticsKpis(handle.db, admin, windowOf("7j", at("2020-06-12T14:00:00Z")));
    expect(after.activeLearners).toMatchObject({ current: 1, previous: 1 });
    // Neither: a window ending the day before, and one starting the day after.
    const earlier = await getAnalyticsKpis(handle.db, admin, windowOf("7j", at("2020-05-28T14:00:00Z")));
    expect(earlier.activeLearners).toMatchObject({ current: 0, previous: 0 });

    // Days of the week ending 8 June 14:00: [2 June 14:00, 3 June 14:00) … [7 June 14:00, 8 June 14:00).
    const timeline = await getTimeline(handle.db, admin, windowOf("7j", at("2020-06-08T14:00:00Z")));
    expect(timeline.map((span) => span.activeLearners)).toEqual([0, 0, 0, 1, 1, 0, 0]);
    expect(timeline[3]).toMatchObject({ label: "04/06", dailyActiveLearners: 1 });
    expect(timeline[4]).toMatchObject({ label: "05/06", dailyActiveLearners: 1 });
  });

  it("counts each learner once per span, and learner-days on calendar days", async () => {
    const { learner, lessons } = await learnerInCourse("Issa");
    const { learner: other, lessons: otherLessons } = await learnerInCourse("Kadia");
    // Issa on 3, 4 and 6 August; Kadia on 4 August. A 30-day window ending 10 August 00:00:
    // its last span is [5 August, 10 August), the one before [31 July, 5 August).
    await setLessonDone(handle.db, learner, lessons[0]!.id, true, at("2020-08-03T10:00:00Z"));
    await setLessonDone(handle.db, learner, lessons[1]!.id, true, at("2020-08-04T10:00:00Z"));
    await setLessonDone(handle.db, learner, lessons[2]!.id, true, at("2020-08-06T10:00:00Z"));
    await setLessonDone(handle.db, other, otherLessons[0]!.id, true, at("2020-08-04T16:00:00Z"));

    const timeline = await getTimeline(handle.db, admin, windowOf("30j", at("2020-08-10T00:00:00Z")));
    expect(timeline.at(-2)).toMatchObject({ activeLearners: 2, dailyActiveLearners: 0.6 });
    expect(timeline.at(-1)).toMatchObject({ activeLearners: 1, dailyActiveLearners: 0.2 });
    const kpis = await getAnalyticsKpis(handle.db, admin, windowOf("30j", at("2020-08-10T00:00:00Z")));
    expect(kpis.activeLearners.current).toBe(2);
  });
});
