/**
 * /teacher/quiz through its route modules, as a browser without JavaScript posts it: the dialog's
 * buttons (tabs, add a question) sending the form back as typed, the spec's messages, creating and
 * editing, deleting, the results and their CSV, and a teacher kept to their own quizzes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { MISSING_DATA } from "~/.server/quizzes";
import type { QuizFormValues } from "~/lib/quiz-form";
import { action, loader } from "~/routes/teacher/quiz";
import { loader as csvLoader } from "~/routes/teacher/quiz-export";
import { createCourse, createQuiz, createUser, enrol, takeQuiz, type TestUser } from "../factories";
import { createTestAuth } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeCaller } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacherA: TestUser;
let teacherB: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacherA = await createUser(handle.db, { role: "teacher" });
  teacherB = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => handle?.close());

const call = routeCaller(() => ({ db: handle.db, campus }));

type Page = {
  summary: { totalQuizzes: number; totalAttempts: number };
  quizzes: Array<{ id: number; title: string }>;
  editor: { quizId: number | null; values: QuizFormValues } | null;
  results: { rows: Array<{ score: number; passed: boolean }>; analytics: { stats: { totalAttempts: number } } | null } | null;
};
type Edited = { ok: boolean; values: QuizFormValues; errors: Record<string, string>; message: string | null; tab: string };

/** The dialog's fields as the browser sends them (checkboxes after their hidden "false"). */
function fields(courseId: number, extra: [string, string][] = []): [string, string][] {
  return [
    ["title", "Évaluation finale"],
    ["description", "Dix minutes pour vérifier les bases."],
    ["courseId", String(courseId)],
    ["lessonId", ""],
    ["questions[0].key", "k0"],
    ["questions[0].id", ""],
    ["questions[0].type", "multiple_choice"],
    ["questions[0].shownType", "multiple_choice"],
    ["questions[0].question", "Quelle est l'unité de la puissance ?"],
    ["questions[0].options[0]", "Le volt"],
    ["questions[0].options[1]", "Le watt"],
    ["questions[0].options[2]", "L'ampère"],
    ["questions[0].options[3]", "L'ohm"],
    ["questions[0].correctAnswer", "1"],
    ["questions[0].points", "2"],
    ["questions[0].explanation", ""],
    ["questions[1].key", "k1"],
    ["questions[1].id", ""],
    ["questions[1].type", "short_answer"],
    ["questions[1].shownType", "short_answer"],
    ["questions[1].question", "Capitale du Mali ?"],
    ["questions[1].correctAnswer", "Bamako"],
    ["questions[1].points", "1"],
    ["questions[1].explanation", ""],
    ["timeLimitOn", "false"],
    ["timeLimitOn", "on"],
    ["timeLimitMinutes", "15"],
    ["maxAttempts", "2"],
    ["passingScore", "60"],
    ["shuffleQuestions", "false"],
    ["shuffleOptions", "false"],
    ["drawCount", ""],
    ["corrections", "after_last_attempt"],
    ["correctionsAt", ""],
    ["required", "false"],
    ["required", "on"],
    ...extra,
  ];
}

describe("the dialog", () => {
  it("keeps what was typed across tabs and added questions, then creates the quiz", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacherA, lessons: [{}] });
    const opened = (await call(loader, teacherA, "/teacher/quiz?quiz=nouveau")).data as Page & { courses: Array<{ id: number }> };
    expect(opened.editor).toMatchObject({ quizId: null, values: { maxAttempts: "3", passingScore: "70", timeLimitOn: false } });
    expect(opened.courses.map((item) => item.id)).toContain(course.id);

    const tabbed = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: fields(course.id, [["intent", "tab:parametres"]]) });
    expect(tabbed.data).toMatchObject({
      tab: "parametres",
      values: { title: "Évaluation finale", timeLimitOn: true, timeLimitMinutes: "15" },
    });
    const added = (await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: fields(course.id, [["intent", "add-question"]]) }))
      .data as Edited;
    expect(added.values.questions).toHaveLength(3);
    expect(added.values.questions[2]).toMatchObject({ type: "multiple_choice", options: ["", "", "", ""], correctAnswer: "0" });
    expect(added.tab).toBe("questions");

    const saved = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: fields(course.id, [["intent", "save"]]) });
    expect(saved).toMatchObject({ status: 302, location: "/teacher/quiz" });
    const page = (await call(loader, teacherA, "/teacher/quiz")).data as Page;
    expect(page.quizzes.map((quiz) => quiz.title)).toContain("Évaluation finale");
  });

  it("says the spec's message and points at the tab at fault", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacherA });
    const form = fields(course.id, [["intent", "save"]]).map(([name, value]): [string, string] => [name, name === "title" ? " " : value]);
    const refused = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      message: MISSING_DATA,
      tab: "informations",
      values: { description: "Dix minutes pour vérifier les bases." },
    });
    const badScore = fields(course.id, [["intent", "save"]]).map(([name, value]): [string, string] => [
      name,
      name === "passingScore" ? "150" : value,
    ]);
    expect((await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: badScore })).data).toMatchObject({
      tab: "parametres",
      errors: { passingScore: "Entre 0 et 100 %." },
    });
  });

  it("refuses a draw of no question or of more than the quiz has, and corrections « from a date » without one, beside the field", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacherA });
    const withSettings = (settings: Record<string, string>) =>
      fields(course.id, [["intent", "save"]]).map(([name, value]): [string, string] => [name, settings[name] ?? value]);
    for (const drawCount of ["0", "3"]) {
      const refused = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: withSettings({ drawCount }) });
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({
        tab: "parametres",
        errors: { drawCount: "Entre 1 et 2\u00a0: le quiz a 2 questions. Laissez vide pour les poser toutes." },
        values: { drawCount },
      });
    }
    // Beside another field at fault, it is said at once too.
    const both = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", {
      form: withSettings({ drawCount: "5", passingScore: "150" }),
    });
    expect(Object.keys((both.data as Edited).errors).sort()).toEqual(["drawCount", "passingScore"]);
    const dateless = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", { form: withSettings({ corrections: "after_date" }) });
    expect(dateless.data).toMatchObject({ errors: { correctionsAt: "Choisissez la date et l'heure d'ouverture des corrections." } });

    const saved = await call(action, teacherA, "/teacher/quiz?quiz=nouveau", {
      form: withSettings({ title: "Examen tiré", drawCount: "1", corrections: "after_date", correctionsAt: "2026-12-20T18:00" }),
    });
    expect(saved.status).toBe(302);
    const page = (await call(loader, teacherA, "/teacher/quiz")).data as Page;
    const quiz = page.quizzes.find((item) => item.title === "Examen tiré")!;
    const opened = (await call(loader, teacherA, `/teacher/quiz?quiz=${quiz.id}`)).data as Page;
    expect(opened.editor!.values).toMatchObject({ drawCount: "1", corrections: "after_date", correctionsAt: "2026-12-20T18:00" });
    // A new quiz keeps its answers closed while the learner may try again.
    const blank = (await call(loader, teacherA, "/teacher/quiz?quiz=nouveau")).data as Page;
    expect(blank.editor!.values).toMatchObject({ drawCount: "", corrections: "after_last_attempt" });
  });
});

describe("a teacher's own quizzes", () => {
  it("keeps teacher B out of teacher A's quiz, its dialog, its deletion and its results", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacherA, priceFcfa: 0 });
    const quiz = await createQuiz(handle.db, teacherA, course, { title: "Quiz de A" });
    const pageB = (await call(loader, teacherB, `/teacher/quiz?quiz=${quiz.id}&onglet=resultats&id=${quiz.id}`)).data as Page;
    expect(pageB.quizzes.map((item) => item.id)).not.toContain(quiz.id);
    expect(pageB.editor).toBeNull();
    await call(action, teacherB, "/teacher/quiz", {
      form: [
        ["intent", "delete"],
        ["quizId", String(quiz.id)],
      ],
    });
    const edit = await call(action, teacherB, "/teacher/quiz", {
      form: fields(course.id, [
        ["intent", "save"],
        ["quizId", String(quiz.id)],
      ]),
    });
    expect(edit.status).toBe(404);
    expect((await call(csvLoader, teacherB, `/teacher/quiz/${quiz.id}/resultats.csv`, { params: { id: String(quiz.id) } })).status).toBe(
      404,
    );
    const pageA = (await call(loader, teacherA, "/teacher/quiz")).data as Page;
    expect(pageA.quizzes.map((item) => item.id)).toContain(quiz.id);
    // An admin sees every quiz.
    const adminPage = (await call(loader, admin, "/teacher/quiz")).data as Page;
    expect(adminPage.quizzes.map((item) => item.id)).toContain(quiz.id);
  });

  it("shows results filtered, the analytics, exports the CSV, and deletes after confirmation", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacherA, priceFcfa: 0 });
    const quiz = await createQuiz(handle.db, teacherA, course, { title: "Sécurité des réseaux" });
    const good = await createUser(handle.db, { firstName: "Awa", lastName: "Koné" });
    const weak = await createUser(handle.db, { firstName: "Ibrahim", lastName: "Diallo" });
    for (const learner of [good, weak]) await enrol(handle.db, learner, course);
    await takeQuiz(handle.db, good, course, quiz, (questions) =>
      Object.fromEntries(questions.map((q) => [q.id, q.type === "multiple_choice" ? "1" : q.type === "true_false" ? "true" : "Bamako"])),
    );
    await takeQuiz(handle.db, weak, course, quiz, () => ({}));

    const passed = (await call(loader, teacherA, `/teacher/quiz?onglet=resultats&id=${quiz.id}&statut=reussi`)).data as Page;
    expect(passed.results!.rows).toEqual([expect.objectContaining({ score: 100, passed: true })]);
    const analytics = (await call(loader, teacherA, `/teacher/quiz?onglet=resultats&id=${quiz.id}&vue=analytics`)).data as Page;
    expect(analytics.results!.analytics!.stats).toMatchObject({
      totalAttempts: 2,
      uniqueStudents: 2,
      averageScore: 50,
      studentPassRate: 50,
    });

    const csv = await call(csvLoader, teacherA, `/teacher/quiz/${quiz.id}/resultats.csv?tri=score`, { params: { id: String(quiz.id) } });
    expect(csv.status).toBe(200);
    const lines = csv
      .body!.replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Nom;Prénom;E-mail;Score;Statut;Tentative;Date");
    expect(lines[1]).toContain("Koné;Awa");
    expect(lines[1]).toContain("Réussi");
    expect(lines[2]).toContain("Échoué");

    const confirm = (await call(loader, teacherA, `/teacher/quiz?supprimer=${quiz.id}`)).data as { deleting: { id: number } | null };
    expect(confirm.deleting).toMatchObject({ id: quiz.id });
    expect(
      await call(action, teacherA, "/teacher/quiz", {
        form: [
          ["intent", "delete"],
          ["quizId", String(quiz.id)],
        ],
      }),
    ).toMatchObject({
      status: 302,
      location: "/teacher/quiz",
    });
    const after = (await call(loader, teacherA, "/teacher/quiz")).data as Page;
    expect(after.quizzes.map((item) => item.id)).not.toContain(quiz.id);
  });
});
