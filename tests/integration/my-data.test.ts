/**
 * « Mes données » (issue 38, point 7): the export holds exactly the signed-in learner's own rows of
 * each kind, as JSON and as a zip of CSV files; « Supprimer mon compte » asks the password again,
 * refuses staff, anonymises the account in one go (payments and certificates kept without the
 * name, the public verification still answering), signs the browser out, does nothing twice, and
 * leaves every other account's data as it was.
 */
import { and, count, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { issueCertificateIfComplete, verifyCertificateCode } from "~/.server/certificates";
import type { DatabaseHandle } from "~/.server/db/client";
import {
  accounts,
  auditLog,
  certificates,
  courseLearnerCounts,
  enrolments,
  forumThreads,
  messages,
  payments,
  sessions,
  users,
} from "~/.server/db/schema";
import { setLessonDone } from "~/.server/learning";
import { sendMessageTo } from "~/.server/messaging";
import { deleteOwnAccount } from "~/.server/profile";
import { changeUserRole, reactivateUser } from "~/.server/users";
import type { MyData } from "~/.server/reports";
import { loader as exportLoader } from "~/routes/dashboard/mes-donnees";
import { loader as profileLoader } from "~/routes/dashboard/profile";
import { action as deletionAction, loader as deletionLoader } from "~/routes/dashboard/suppression-compte";
import {
  createCourse,
  createPayment,
  createQuiz,
  createReply,
  createSignedInUser,
  createThread,
  createUser,
  enrol,
  rightAnswers,
  takeQuiz,
  type TestUser,
} from "../factories";
import { browserHeaders, createTestAuth, routerContext, testCertificates, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { refusalOf } from "../setup/refusal";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let paidCourse: { id: number; slug: string };
let paidLessons: Array<{ id: number }>;

type Learner = {
  user: TestUser & { password: string };
  cookie: string;
  reference: string;
  certificateCode: string;
  message: string;
  threadTitle: string;
  reply: string;
};

/** A learner with one row of each kind: a paid enrolment, a lesson done, a quiz attempt, a certificate, a message, a thread and a reply. */
async function learnerWithData(firstName: string, otherThread: { id: number } | null): Promise<Learner> {
  const { user, cookie } = await createSignedInUser(campus, handle.db, { firstName, lastName: "Traoré" });
  const { reference } = await createPayment(handle.db, user, paidCourse, { completed: true });
  await setLessonDone(handle.db, user, paidLessons[0]!.id, true);
  const quiz = await createQuiz(handle.db, teacher, paidCourse, { title: `Quiz de ${firstName}`, required: false });
  await takeQuiz(handle.db, user, paidCourse, quiz, rightAnswers());
  const { course: freeCourse, lessons: freeLessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 1 });
  await enrol(handle.db, user, freeCourse);
  await setLessonDone(handle.db, user, freeLessons[0]!.id, true);
  const certificate = await issueCertificateIfComplete(handle.db, testCertificates, { userId: user.id, courseId: freeCourse.id });
  const message = `Bonjour, ici ${firstName}.`;
  await sendMessageTo(handle.db, user, teacher.id, { body: message });
  const threadTitle = `La question de ${firstName}`;
  const thread = await createThread(handle.db, user, { title: threadTitle });
  const reply = `La réponse de ${firstName}.`;
  await createReply(handle.db, user, otherThread ?? thread, reply);
  return { user, cookie, reference, certificateCode: certificate!.code, message, threadTitle, reply };
}

let awa: Learner;
let moussa: Learner;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Konaté" });
  ({ course: paidCourse, lessons: paidLessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 50_000, lessons: 2 }));
  moussa = await learnerWithData("Moussa", null);
  const [moussaThread] = await handle.db
    .select({ id: forumThreads.id })
    .from(forumThreads)
    .where(eq(forumThreads.authorId, moussa.user.id));
  awa = await learnerWithData("Awa", moussaThread!);
}, 120_000);
afterAll(async () => handle?.close());

/** A request as the browser of `cookie` sends it, run through the signed-in area's guard as the server does. */
function args(path: string, cookie: string, form?: Record<string, string>) {
  const headers = browserHeaders("203.0.113.60", cookie);
  if (form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.set("origin", TEST_PUBLIC_URL);
  }
  const request = new Request(
    `${TEST_PUBLIC_URL}${path}`,
    form ? { method: "POST", headers, body: new URLSearchParams(form) } : { headers },
  );
  const context: RouterContextProvider = routerContext(handle.db, campus);
  return { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
}

async function download(path: string, cookie: string): Promise<Response> {
  return asServer(exportLoader, args(path, cookie));
}

async function exportOf(learner: Learner): Promise<MyData> {
  return (await download("/dashboard/profile/mes-donnees?format=json", learner.cookie)).json() as Promise<MyData>;
}

describe("Télécharger mes données", () => {
  it("gives the learner exactly their own rows of each kind as one JSON file", async () => {
    const response = await download("/dashboard/profile/mes-donnees?format=json", awa.cookie);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="mes-donnees-campus-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const data = (await response.json()) as MyData;
    expect(data.account).toMatchObject({ email: awa.user.email, firstName: "Awa", lastName: "Traoré" });
    expect(data.enrolments).toHaveLength(2);
    expect(data.payments.map((row) => row.reference)).toEqual([awa.reference]);
    expect(data.payments[0]).toMatchObject({ amountFcfa: 50_000, status: "completed" });
    expect(data.lessonProgress).toHaveLength(2);
    expect(data.quizResults.map((row) => row.quiz)).toEqual(["Quiz de Awa"]);
    expect(data.certificates.map((row) => row.code)).toEqual([awa.certificateCode]);
    expect(data.messagesSent.map((row) => row.body)).toEqual([awa.message]);
    expect(data.forumPosts.map((row) => [row.kind, row.kind === "thread" ? row.title : row.body])).toEqual([
      ["thread", awa.threadTitle],
      ["reply", awa.reply],
    ]);
    // Nothing of Moussa's, although he has a row of every kind, in the same courses, and Awa replied to his thread.
    const text = JSON.stringify(data);
    for (const his of [moussa.user.email, moussa.reference, moussa.certificateCode, moussa.message, moussa.reply, "Quiz de Moussa"])
      expect(text).not.toContain(his);
  });

  it("gives the same rows as a zip of one semicolon CSV per kind", async () => {
    const response = await download("/dashboard/profile/mes-donnees?format=csv", awa.cookie);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(/\.zip"$/);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(
      [
        "certificats.csv",
        "compte.csv",
        "forum.csv",
        "inscriptions.csv",
        "messages.csv",
        "paiements.csv",
        "progression.csv",
        "quiz.csv",
      ].sort(),
    );
    const csv = (name: string) => strFromU8(files[name]!).replace(/^\uFEFF/, "");
    const rows = (name: string) => csv(name).trimEnd().split("\r\n");
    expect(rows("compte.csv")[0]).toBe(
      "E-mail;Prénom;Nom;Téléphone;Rôle;E-mail confirmé;Double authentification;Économie de données;Créé le",
    );
    expect(rows("compte.csv")[1]).toContain(`${awa.user.email};Awa;Traoré;`);
    expect(rows("paiements.csv")).toHaveLength(2);
    expect(rows("paiements.csv")[1]).toContain(`${awa.reference};`);
    expect(rows("paiements.csv")[1]).toContain(";50000;");
    expect(rows("inscriptions.csv")).toHaveLength(3);
    expect(rows("progression.csv")).toHaveLength(3);
    expect(rows("quiz.csv")).toHaveLength(2);
    expect(rows("certificats.csv")[1]).toContain(awa.certificateCode);
    expect(rows("messages.csv")[1]).toContain(`"${awa.message}"`);
    expect(rows("forum.csv")).toHaveLength(3);
    const everything = Object.keys(files).map(csv).join("\n");
    // Awa's reply names the thread it answers (Moussa's), nothing else of his.
    for (const his of [moussa.user.email, moussa.reference, moussa.certificateCode, moussa.message, moussa.reply, "Quiz de Moussa"])
      expect(everything).not.toContain(his);
  });

  it("is only for the signed-in: a visitor is sent to sign in", async () => {
    const outcome = await routeOutcome(() => download("/dashboard/profile/mes-donnees?format=json", ""));
    expect(outcome.status).toBe(302);
  });
});

describe("Supprimer mon compte", () => {
  const submit = (learner: { cookie: string }, password: string) =>
    routeOutcome(() =>
      asServer(deletionAction, args("/dashboard/profile/suppression", learner.cookie, { intent: "delete-account", password })),
    );

  it("refuses teachers and administrators, who must hand over first", async () => {
    for (const role of ["teacher", "admin"] as const) {
      const staff = await createSignedInUser(campus, handle.db, { role });
      const page = await routeOutcome(() => asServer(deletionLoader, args("/dashboard/profile/suppression", staff.cookie)));
      expect(page.data).toMatchObject({ deletionRefusal: expect.stringContaining("un administrateur doit d'abord reprendre") });
      const tab = await routeOutcome(() => asServer(profileLoader, args("/dashboard/profile?onglet=donnees", staff.cookie)));
      expect(tab.data).toMatchObject({ tab: "donnees", deletionRefusal: expect.any(String) });
      expect((await submit(staff, staff.user.password)).status).toBe(403);
      const [row] = await handle.db
        .select({ deletedAt: users.deletedAt, email: users.email })
        .from(users)
        .where(eq(users.id, staff.user.id));
      expect(row).toEqual({ deletedAt: null, email: staff.user.email });
    }
  });

  it("refuses a wrong password with a message beside the field, and deletes nothing", async () => {
    const outcome = await submit(awa, "pas le bon mot de passe");
    expect(outcome.status).toBe(400);
    expect(outcome.data).toMatchObject({ ok: false, intent: "delete-account", fieldErrors: { password: "Mot de passe incorrect." } });
    const empty = await submit(awa, "");
    expect(empty.data).toMatchObject({ fieldErrors: { password: "Saisissez votre mot de passe." } });
    const [row] = await handle.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, awa.user.id));
    expect(row!.deletedAt).toBeNull();
    expect((await exportOf(awa)).payments).toHaveLength(1);
  });

  it("anonymises the account in one go, keeps payments and certificates without the name, signs out, and touches nobody else", async () => {
    const moussaBefore = await exportOf(moussa);
    const [countBefore] = await handle.db.select().from(courseLearnerCounts).where(eq(courseLearnerCounts.courseId, paidCourse.id));

    const outcome = await routeOutcome(async () => {
      try {
        return await asServer(
          deletionAction,
          args("/dashboard/profile/suppression", awa.cookie, { intent: "delete-account", password: awa.user.password }),
        );
      } catch (thrown) {
        if (thrown instanceof Response) {
          // The headers a browser gets with the redirect.
          expect(thrown.headers.getSetCookie().join("\n")).toMatch(/session_token=;|Max-Age=0/);
          expect(thrown.headers.get("clear-site-data")).toBe('"cache", "storage"');
        }
        throw thrown;
      }
    });
    expect(outcome).toMatchObject({ status: 302, location: "/auth/compte-supprime" });

    const [account] = await handle.db.select().from(users).where(eq(users.id, awa.user.id));
    expect(account).toMatchObject({ name: "Compte supprimé", firstName: "Compte", lastName: "supprimé", phone: null, banned: true });
    expect(account!.email).not.toContain("awa");
    expect(account!.email).toMatch(/\.invalid$/);
    expect(account!.deletedAt).toBeInstanceOf(Date);
    expect(await handle.db.$count(sessions, eq(sessions.userId, awa.user.id))).toBe(0);
    expect(await handle.db.$count(accounts, eq(accounts.userId, awa.user.id))).toBe(0);

    // Payments kept for the accounts, attached to the anonymous account.
    const [payment] = await handle.db.select().from(payments).where(eq(payments.reference, awa.reference));
    expect(payment).toMatchObject({ userId: awa.user.id, amount: 50_000, status: "completed" });
    // Certificates kept, still valid for a verifier, without the name.
    const [certificate] = await handle.db.select().from(certificates).where(eq(certificates.code, awa.certificateCode));
    expect(certificate).toMatchObject({ learnerName: "Compte supprimé", credential: "", status: "valid" });
    expect(await verifyCertificateCode(handle.db, awa.certificateCode)).toMatchObject({ state: "valid", learnerName: "Compte supprimé" });
    // Enrolments closed, the seat freed.
    const statuses = await handle.db.select({ status: enrolments.status }).from(enrolments).where(eq(enrolments.userId, awa.user.id));
    expect(statuses.map((row) => row.status)).toEqual(["cancelled", "cancelled"]);
    const [countAfter] = await handle.db.select().from(courseLearnerCounts).where(eq(courseLearnerCounts.courseId, paidCourse.id));
    expect(countAfter!.learners).toBe(countBefore!.learners - 1);
    // What others read stays, signed « Compte supprimé » (the account's name).
    expect(await handle.db.$count(messages, eq(messages.senderId, awa.user.id))).toBe(1);
    expect(await handle.db.$count(forumThreads, eq(forumThreads.authorId, awa.user.id))).toBe(1);

    // Moussa's data is as it was.
    const moussaAfter = await exportOf(moussa);
    expect({ ...moussaAfter, exportedAt: null }).toEqual({ ...moussaBefore, exportedAt: null });
    expect(await verifyCertificateCode(handle.db, moussa.certificateCode)).toMatchObject({ state: "valid", learnerName: "Moussa Traoré" });
  });

  it("does nothing twice: the replayed form finds no session, and the deletion is recorded once", async () => {
    const again = await submit(awa, awa.user.password);
    expect(again.status).toBe(302);
    expect(again.location).not.toBe("/auth/compte-supprime");
    const [row] = await handle.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, "account_deleted"), eq(auditLog.actorId, awa.user.id)));
    expect(row!.n).toBe(1);
  });

  it("deletes once when the form is sent twice at the same moment", async () => {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { firstName: "Fanta" });
    const headers = browserHeaders("203.0.113.63", cookie);
    const twice = await Promise.allSettled(
      [1, 2].map(() => deleteOwnAccount(campus.auth, handle.db, user, headers, { password: user.password })),
    );
    const deleted = twice.filter((outcome) => outcome.status === "fulfilled" && outcome.value.deleted);
    expect(deleted).toHaveLength(1);
    const [row] = await handle.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, "account_deleted"), eq(auditLog.actorId, user.id)));
    expect(row!.n).toBe(1);
  });

  it("cannot be reactivated nor given a role by an administrator", async () => {
    const admin = await createUser(handle.db, { role: "admin" });
    expect(await refusalOf(reactivateUser(handle.db, admin, awa.user.id))).toMatchObject({ code: "conflict", reason: "deleted_account" });
    expect(await refusalOf(changeUserRole(handle.db, admin, awa.user.id, "teacher"))).toMatchObject({ code: "conflict" });
    const [row] = await handle.db.select({ banned: users.banned, role: users.role }).from(users).where(eq(users.id, awa.user.id));
    expect(row).toEqual({ banned: true, role: "user" });
  });

  it("cannot sign in any more, and its e-mail can sign up again as a new account", async () => {
    const signIn = await campus.auth.api
      .signInEmail({ body: { email: awa.user.email, password: awa.user.password }, headers: browserHeaders("203.0.113.61") })
      .catch((error: unknown) => error);
    expect(signIn).toBeInstanceOf(Error);
    await campus.auth.api.signUpEmail({
      body: {
        email: awa.user.email,
        password: "une autre phrase assez longue",
        name: "Awa Traoré",
        firstName: "Awa",
        lastName: "Traoré",
      } as never,
      headers: browserHeaders("203.0.113.62"),
    });
    const [fresh] = await handle.db.select({ id: users.id, deletedAt: users.deletedAt }).from(users).where(eq(users.email, awa.user.email));
    expect(fresh!.id).not.toBe(awa.user.id);
    expect(fresh!.deletedAt).toBeNull();
  });
});
