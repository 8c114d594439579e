/**
 * Quizzes through their capability: authoring (validation, placement, another teacher refused),
 * attempts (server timing, answers saved as given, the limit under concurrency, grading on the
 * server, each attempt keeping its questions), results, statistics and the CSV.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, quizAttempts } from "~/.server/db/schema";
import { isAppError } from "~/.server/errors";
import {
  createQuiz as saveQuiz,
  deleteQuiz,
  getManagedQuiz,
  listManagedQuizzes,
  quizFormValuesOf,
  updateQuiz,
} from "~/.server/quizzes/authoring";
import {
  closeAttemptAtDeadline,
  getLearnerAttempt,
  getLearnerQuiz,
  saveAnswers,
  startAttempt,
  submitAttempt,
} from "~/.server/quizzes/attempts";
import { exportQuizResultsCsv, getQuizAnalytics, listQuizResults } from "~/.server/quizzes/results";
import { emptyQuizValues } from "~/lib/quiz-form";
import { createCourse, createQuiz, createUser, enrol, rightAnswers, takeQuiz, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let course: Awaited<ReturnType<typeof createCourse>>["course"];
let lessons: Awaited<ReturnType<typeof createCourse>>["lessons"];
// Typed loosely: a short answer counts whatever its case and spaces.
const answersAsTyped = rightAnswers("  BAMAKO ");

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.reason, fieldErrors: error.fieldErrors, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  handle = await createTestDatabase();
  teacher = await createUser(handle.db, { role: "teacher" });
  otherTeacher = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
  ({ course, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 2 }));
});

afterAll(async () => {
  await handle?.close();
});

describe("authoring", () => {
  it("says what is missing in the spec's words, beside each field", async () => {
    const empty = await refusal(saveQuiz(handle.db, teacher, emptyQuizValues()));
    expect(empty).toMatchObject({ code: "invalid", message: expect.stringContaining("Données manquantes") });
    expect(empty.fieldErrors).toMatchObject({
      title: "Saisissez un titre.",
      courseId: "Choisissez un cours.",
      questions: "Ajoutez au moins une question.",
    });

    const values = quizFormValuesOf(await createQuiz(handle.db, teacher, course));
    values.questions[0]!.question = "  ";
    values.questions[0]!.options[2] = "";
    const blank = await refusal(saveQuiz(handle.db, teacher, values));
    expect(blank.message).toContain("Question manquante");
    expect(blank.fieldErrors).toMatchObject({
      "questions.0.question": "Veuillez saisir une question.",
      "questions.0.options.2": "Saisissez cette option.",
    });
  });

  it("applies the spec's defaults to unreadable numbers and refuses out-of-range ones", async () => {
    const values = quizFormValuesOf(await createQuiz(handle.db, teacher, course));
    Object.assign(values, { timeLimitOn: true, timeLimitMinutes: "abc", maxAttempts: "", passingScore: "x" });
    values.questions[0]!.points = "zéro";
    const quiz = await saveQuiz(handle.db, teacher, values);
    expect(quiz).toMatchObject({ timeLimitMinutes: 30, maxAttempts: 3, passingScore: 70 });
    expect(quiz.questions[0]!.points).toBe(1);
    const bad = await refusal(saveQuiz(handle.db, teacher, { ...values, maxAttempts: "11", passingScore: "101" }));
    expect(bad.fieldErrors).toMatchObject({ maxAttempts: "Entre 1 et 10 tentatives.", passingScore: "Entre 0 et 100 %." });
  });

  it("keeps a teacher to their own courses and quizzes; an admin reaches all", async () => {
    const quiz = await createQuiz(handle.db, teacher, course);
    const placed = await refusal(createQuiz(handle.db, otherTeacher, course));
    expect(placed.fieldErrors).toMatchObject({ courseId: "Choisissez un de vos cours." });
    expect(await refusal(getManagedQuiz(handle.db, otherTeacher, quiz.id))).toMatchObject({ code: "not_found" });
    expect(await refusal(updateQuiz(handle.db, otherTeacher, quiz.id, quizFormValuesOf(quiz)))).toMatchObject({ code: "not_found" });
    expect(await refusal(deleteQuiz(handle.db, otherTeacher, quiz.id))).toMatchObject({ code: "not_found" });
    expect(await refusal(listQuizResults(handle.db, otherTeacher, quiz.id))).toMatchObject({ code: "not_found" });
    expect(await refusal(exportQuizResultsCsv(handle.db, otherTeacher, quiz.id))).toMatchObject({ code: "not_found" });
    expect((await listManagedQuizzes(handle.db, otherTeacher)).quizzes.map((row) => row.id)).not.toContain(quiz.id);
    expect((await listManagedQuizzes(handle.db, admin)).quizzes.map((row) => row.id)).toContain(quiz.id);
    expect((await getManagedQuiz(handle.db, admin, quiz.id)).id).toBe(quiz.id);
  });

  it("refuses a lesson of another course", async () => {
    const { lessons: otherLessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 1 });
    const refused = await refusal(createQuiz(handle.db, teacher, course, { lessonId: otherLessons[0]!.id }));
    expect(refused.fieldErrors).toMatchObject({ lessonId: "Cette leçon n'appartient pas au cours choisi." });
    expect((await createQuiz(handle.db, teacher, course, { lessonId: lessons[0]!.id })).lessonId).toBe(lessons[0]!.id);
  });
});

describe("taking a quiz", () => {
  it("is for the course's learners only", async () => {
    const quiz = await createQuiz(handle.db, teacher, course);
    const stranger = await createUser(handle.db);
    expect(await refusal(startAttempt(handle.db, stranger, course.slug, quiz.id))).toMatchObject({
      code: "forbidden",
      reason: "not_enrolled",
    });
    const { course: paid } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 50_000 });
    const paidQuiz = await createQuiz(handle.db, teacher, paid);
    await enrol(handle.db, stranger, paid);
    expect(await refusal(startAttempt(handle.db, stranger, paid.slug, paidQuiz.id))).toMatchObject({ reason: "pending_payment" });
    expect(await refusal(startAttempt(handle.db, stranger, "autre-formation", quiz.id))).toMatchObject({ code: "not_found" });
  });

  it("grades on the server, never sends the answers before, and shows the corrections after", async () => {
    const quiz = await createQuiz(handle.db, teacher, course, { shuffleQuestions: true, shuffleOptions: true });
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id);
    const open = await getLearnerAttempt(handle.db, learner, course.slug, quiz.id, attempt.id);
    expect(open.state).toBe("open");
    const page = JSON.stringify(open);
    expect(page).not.toContain("correctAnswer");
    expect(page).not.toContain("explanation");
    expect(page).not.toContain("Bamako");

    const graded = await submitAttempt(handle.db, learner, attempt.id, answersAsTyped(attempt.questions));
    expect(graded).toMatchObject({ status: "submitted", score: 100, passed: true, earnedPoints: 3 });
    const result = await getLearnerAttempt(handle.db, learner, course.slug, quiz.id, attempt.id);
    expect(result.state === "graded" && result.corrections?.find((row) => row.expected === "Bamako")).toMatchObject({
      correct: true,
      given: "  BAMAKO ",
    });
  });

  it("saves answers as given, so a reload loses nothing, and checks them", async () => {
    const quiz = await createQuiz(handle.db, teacher, course);
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id);
    const [qcm, trueFalse] = attempt.questions;
    await saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "2" });
    await saveAnswers(handle.db, learner, attempt.id, { [trueFalse!.id]: "false" });
    await saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "1" });
    const reloaded = await getLearnerAttempt(handle.db, learner, course.slug, quiz.id, attempt.id);
    expect(reloaded.state === "open" && reloaded.answers).toEqual({ [qcm!.id]: "1", [trueFalse!.id]: "false" });
    // The same attempt is resumed, not a new one.
    expect((await startAttempt(handle.db, learner, course.slug, quiz.id)).attempt.id).toBe(attempt.id);
    expect(await refusal(saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "7" }))).toMatchObject({ code: "invalid" });
    expect(await refusal(saveAnswers(handle.db, learner, attempt.id, { q_inconnue: "1" }))).toMatchObject({ code: "invalid" });
    const other = await createUser(handle.db);
    expect(await refusal(saveAnswers(handle.db, other, attempt.id, { [qcm!.id]: "1" }))).toMatchObject({ code: "not_found" });
    // A second submit changes nothing.
    const first = await submitAttempt(handle.db, learner, attempt.id);
    const again = await submitAttempt(handle.db, learner, attempt.id, { [trueFalse!.id]: "true" });
    expect(again).toMatchObject({ id: first.id, score: first.score, submittedAt: first.submittedAt });
    expect(await refusal(saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "1" }))).toMatchObject({ reason: "closed" });
  });

  it("enforces the time limit on the server: a late answer is not counted, an abandoned attempt is closed at its deadline", async () => {
    const quiz = await createQuiz(handle.db, teacher, course, { timeLimitMinutes: 10 });
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const start = new Date("2026-11-23T10:00:00Z");
    const minutes = (count: number) => new Date(start.getTime() + count * 60_000);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id, start);
    expect(attempt.deadlineAt).toEqual(minutes(10));
    const [qcm, trueFalse] = attempt.questions;
    await saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "1" }, minutes(9));
    const late = await refusal(saveAnswers(handle.db, learner, attempt.id, { [trueFalse!.id]: "true" }, minutes(10)));
    expect(late).toMatchObject({ code: "conflict", reason: "time_up" });
    const [closed] = await handle.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(closed).toMatchObject({ status: "expired", earnedPoints: 1, submittedAt: minutes(10) });
    expect(closed!.answers).toEqual({ [qcm!.id]: "1" });

    // Abandoned: the deadline job closes it; before the deadline it leaves it open.
    const other = await createUser(handle.db);
    await enrol(handle.db, other, course);
    const { attempt: abandoned } = await startAttempt(handle.db, other, course.slug, quiz.id, start);
    const [job] = await handle.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `quiz-attempt:${abandoned.id}:close`));
    expect(job).toMatchObject({ queue: "quizzes.close-attempt", runAt: minutes(10) });
    expect(await closeAttemptAtDeadline(handle.db, abandoned.id, minutes(9))).toBeNull();
    expect(await closeAttemptAtDeadline(handle.db, abandoned.id, minutes(10))).toMatchObject({
      status: "expired",
      score: 0,
      passed: false,
    });
    // A submit after the deadline grades only what was saved in time.
    const third = await createUser(handle.db);
    await enrol(handle.db, third, course);
    const { attempt: slow } = await startAttempt(handle.db, third, course.slug, quiz.id, start);
    const submitted = await submitAttempt(handle.db, third, slow.id, answersAsTyped(slow.questions), minutes(11));
    expect(submitted).toMatchObject({ status: "expired", score: 0 });
  });

  it("shows an attempt whose time ran out as closed, on the quiz page and on the attempt itself", async () => {
    const quiz = await createQuiz(handle.db, teacher, course, { timeLimitMinutes: 10 });
    const start = new Date("2026-11-23T10:00:00Z");
    const minutes = (count: number) => new Date(start.getTime() + count * 60_000);
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id, start);
    await saveAnswers(handle.db, learner, attempt.id, { [attempt.questions[0]!.id]: "1" }, minutes(2));

    const before = await getLearnerQuiz(handle.db, learner, course.slug, quiz.id, minutes(9));
    expect(before).toMatchObject({ inProgress: attempt.id, attempts: [{ id: attempt.id, status: "in_progress" }] });
    const after = await getLearnerQuiz(handle.db, learner, course.slug, quiz.id, minutes(11));
    expect(after).toMatchObject({ inProgress: null, attempts: [{ id: attempt.id, status: "expired", submittedAt: minutes(10) }] });

    const other = await createUser(handle.db);
    await enrol(handle.db, other, course);
    const { attempt: left } = await startAttempt(handle.db, other, course.slug, quiz.id, start);
    expect(await getLearnerAttempt(handle.db, other, course.slug, quiz.id, left.id, minutes(9))).toMatchObject({ state: "open" });
    expect(await getLearnerAttempt(handle.db, other, course.slug, quiz.id, left.id, minutes(11))).toMatchObject({
      state: "graded",
      attempt: { status: "expired" },
      attemptsLeft: quiz.maxAttempts - 1,
    });
    // Someone else's attempt stays out of reach, and a stranger to the course is refused first.
    expect(await refusal(getLearnerAttempt(handle.db, learner, course.slug, quiz.id, left.id, minutes(11)))).toMatchObject({
      code: "not_found",
    });
    const stranger = await createUser(handle.db);
    expect(await refusal(getLearnerAttempt(handle.db, stranger, course.slug, quiz.id, left.id, minutes(11)))).toMatchObject({
      code: "forbidden",
      reason: "not_enrolled",
    });
  });

  it("holds the attempts limit when two starts race", async () => {
    const quiz = await createQuiz(handle.db, teacher, course, { maxAttempts: 2 });
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const first = await takeQuiz(handle.db, learner, course, quiz, () => ({}));
    expect(first.attemptNumber).toBe(1);
    const raced = await Promise.allSettled([
      startAttempt(handle.db, learner, course.slug, quiz.id),
      startAttempt(handle.db, learner, course.slug, quiz.id),
    ]);
    // Both get the one second attempt (the later start resumes it), never a third.
    const ids = raced.map((outcome) => (outcome.status === "fulfilled" ? outcome.value.attempt.id : null));
    expect(ids[0]).not.toBeNull();
    expect(ids[0]).toBe(ids[1]);
    await submitAttempt(handle.db, learner, ids[0]!);
    expect(await refusal(startAttempt(handle.db, learner, course.slug, quiz.id))).toMatchObject({
      code: "conflict",
      reason: "no_attempts_left",
    });
    const rows = await handle.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quiz.id));
    expect(rows.map((row) => row.attemptNumber).sort()).toEqual([1, 2]);
    expect((await getLearnerQuiz(handle.db, learner, course.slug, quiz.id)).attemptsLeft).toBe(0);
  });

  it("never rewrites a past result when the quiz is edited; the next attempt gets the new questions", async () => {
    const quiz = await createQuiz(handle.db, teacher, course);
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    const before = await takeQuiz(handle.db, learner, course, quiz, answersAsTyped);
    const values = quizFormValuesOf(quiz);
    values.questions[2]!.correctAnswer = "Ségou";
    values.questions[0]!.points = "5";
    await updateQuiz(handle.db, teacher, quiz.id, values);
    const [kept] = await handle.db.select().from(quizAttempts).where(eq(quizAttempts.id, before.id));
    expect(kept).toMatchObject({ score: 100, earnedPoints: 3, totalPoints: 3 });
    expect(kept!.questions.find((question) => question.type === "short_answer")!.correctAnswer).toBe("Bamako");
    const after = await takeQuiz(handle.db, learner, course, quiz, answersAsTyped);
    expect(after).toMatchObject({ totalPoints: 7, earnedPoints: 6, score: 85.71 });
  });
});

describe("results", () => {
  it("filters, sorts, counts, and exports what the teacher sees", async () => {
    const { course: own } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const quiz = await createQuiz(handle.db, teacher, own, { title: "Évaluation « finale » : énergie" });
    const people = [
      await createUser(handle.db, { firstName: "Awa", lastName: "Diarra" }),
      await createUser(handle.db, { firstName: "Moussa", lastName: "Keïta" }),
    ];
    for (const person of people) await enrol(handle.db, person, own);
    const day = (count: number) => new Date(Date.UTC(2026, 10, count, 9));
    const one = (questions: Array<{ id: string; type: string; options: string[]; question: string }>) => ({
      [questions.find((question) => question.type === "true_false")!.id]: "true",
    });
    await takeQuiz(handle.db, people[0]!, own, quiz, one, day(1)); // 33.33, failed
    await takeQuiz(handle.db, people[0]!, own, quiz, answersAsTyped, day(2)); // 100, passed
    await takeQuiz(handle.db, people[1]!, own, quiz, () => ({}), day(3)); // 0, failed

    const all = await listQuizResults(handle.db, teacher, quiz.id);
    expect(all.results.map((row) => row.score)).toEqual([0, 100, 33.33]);
    const passed = await listQuizResults(handle.db, teacher, quiz.id, { statut: "reussi", tri: "date" });
    expect(passed.results.map((row) => row.lastName)).toEqual(["Diarra"]);
    const byScore = await listQuizResults(handle.db, teacher, quiz.id, { statut: "echoue", tri: "score" });
    expect(byScore.results.map((row) => row.score)).toEqual([33.33, 0]);
    const byAttempt = await listQuizResults(handle.db, admin, quiz.id, { statut: "tous", tri: "tentative" });
    expect(byAttempt.results[0]).toMatchObject({ attemptNumber: 2, lastName: "Diarra" });

    const analytics = await getQuizAnalytics(handle.db, teacher, quiz.id);
    expect(analytics.stats).toEqual({
      totalAttempts: 3,
      uniqueStudents: 2,
      averageScore: 44.44,
      attemptPassRate: 33.33,
      studentPassRate: 50,
    });
    expect(analytics.distribution.map((bucket) => bucket.count)).toEqual([1, 1, 0, 0, 1]);
    expect(analytics.questions.map((question) => question.rate)).toEqual([33.33, 66.67, 33.33]);

    const csv = await exportQuizResultsCsv(handle.db, teacher, quiz.id, { statut: "tous", tri: "score" });
    expect(csv.filename).toBe("evaluation-finale-energie-resultats.csv");
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Nom;Prénom;E-mail;Score;Statut;Tentative;Date");
    expect(lines[1]).toBe(`Diarra;Awa;${people[0]!.email};100;Réussi;2;02/11/2026 09:00`);
    expect(lines[2]).toBe(`Diarra;Awa;${people[0]!.email};"33,33";Échoué;1;01/11/2026 09:00`);
    expect(lines).toHaveLength(4);

    const overview = await listManagedQuizzes(handle.db, teacher);
    expect(overview.quizzes.find((row) => row.id === quiz.id)).toMatchObject({
      attempts: 3,
      averageScore: 44.44,
      passRate: 33.33,
      questionCount: 3,
    });
  });

  it("drops a deleted quiz from the lists and the learner's course, keeping its attempts", async () => {
    const quiz = await createQuiz(handle.db, teacher, course);
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    await takeQuiz(handle.db, learner, course, quiz, answersAsTyped);
    await deleteQuiz(handle.db, teacher, quiz.id);
    expect((await listManagedQuizzes(handle.db, teacher)).quizzes.map((row) => row.id)).not.toContain(quiz.id);
    expect(await refusal(startAttempt(handle.db, learner, course.slug, quiz.id))).toMatchObject({ code: "not_found" });
    expect(await handle.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quiz.id))).toHaveLength(1);
  });
});
