import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { preparedQuery } from "~/.server/db/prepared";
import { users } from "~/.server/db/schema";
import { listMyEnrolments } from "~/.server/learning";
import { getManagedCourseStats, listManagedCourses } from "~/.server/reports";
import { createCourse, createUser, enrol } from "../factories";
import { createTestDatabase } from "../setup/db";

/**
 * Reads prepared once per database (app/.server/db/prepared.ts, decision 0041): built once, run
 * with each call's values, and on PostgreSQL sent as a named statement kept on the connection.
 */

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const firstNameQuery = preparedQuery("test_first_name", (db) =>
  db
    .select({ firstName: users.firstName })
    .from(users)
    .where(eq(users.id, sql.placeholder("id"))),
);

describe("prepared reads", () => {
  it("are built once per database, and run with each call's values", async () => {
    const awa = await createUser(handle.db, { firstName: "Awa" });
    const moussa = await createUser(handle.db, { firstName: "Moussa" });
    expect(firstNameQuery(handle.db)).toBe(firstNameQuery(handle.db));
    expect(await firstNameQuery(handle.db).execute({ id: awa.id })).toEqual([{ firstName: "Awa" }]);
    expect(await firstNameQuery(handle.db).execute({ id: moussa.id })).toEqual([{ firstName: "Moussa" }]);
    expect(await firstNameQuery(handle.db).execute({ id: "personne" })).toEqual([]);
    // A transaction is a database of its own: its statements run on its connection.
    await handle.db.transaction(async (tx) => {
      expect(firstNameQuery(tx)).not.toBe(firstNameQuery(handle.db));
      expect(await firstNameQuery(tx).execute({ id: moussa.id })).toEqual([{ firstName: "Moussa" }]);
    });
  });

  it("give each learner their own rows, whoever asked before", async () => {
    const { course } = await createCourse(handle.db);
    const [first, second] = [await createUser(handle.db), await createUser(handle.db)];
    await enrol(handle.db, first, course, { paid: true });
    expect((await listMyEnrolments(handle.db, first)).map((row) => row.courseId)).toEqual([course.id]);
    expect(await listMyEnrolments(handle.db, second)).toEqual([]);
    expect((await listMyEnrolments(handle.db, first)).map((row) => row.courseId)).toEqual([course.id]);
  });

  it("give each actor the courses they manage, under every filter, whoever asked before", async () => {
    const [awa, seydou] = [await createUser(handle.db, { role: "teacher" }), await createUser(handle.db, { role: "teacher" })];
    const admin = await createUser(handle.db, { role: "admin" });
    const student = await createUser(handle.db);
    const solar = (await createCourse(handle.db, { instructor: awa, title: "Énergie solaire à Kati", category: "energie" })).course;
    const network = (await createCourse(handle.db, { instructor: awa, title: "Sécurité réseau", status: "draft" })).course;
    const farming = (await createCourse(handle.db, { instructor: seydou, title: "Agrobusiness", category: "energie" })).course;
    const ids = async (actor: typeof awa, filters = {}) =>
      (await listManagedCourses(handle.db, actor, filters)).map((row) => row.id).sort();
    // Twice each, alternating: a statement kept from one call never answers the next actor.
    for (let round = 0; round < 2; round++) {
      expect(await ids(awa)).toEqual([solar.id, network.id].sort());
      expect(await ids(seydou)).toEqual([farming.id]);
      expect(await ids(admin)).toEqual(expect.arrayContaining([solar.id, network.id, farming.id]));
      expect(await ids(student)).toEqual([]);
      expect(await ids(awa, { q: "securite" })).toEqual([network.id]);
      expect(await ids(awa, { q: "50%" })).toEqual([]);
      expect(await ids(awa, { status: "draft" })).toEqual([network.id]);
      expect(await ids(awa, { category: "energie" })).toEqual([solar.id]);
      expect(await ids(seydou, { category: "energie", status: "published", q: "agro" })).toEqual([farming.id]);
      expect(await ids(admin, { category: "energie", q: "kati" })).toEqual([solar.id]);
    }
    expect(await getManagedCourseStats(handle.db, awa)).toMatchObject({ total: 2, published: 1, drafts: 1 });
    expect(await getManagedCourseStats(handle.db, seydou)).toMatchObject({ total: 1, published: 1, drafts: 0 });
    expect(await getManagedCourseStats(handle.db, student)).toMatchObject({ total: 0 });
    expect((await getManagedCourseStats(handle.db, admin)).total).toBeGreaterThanOrEqual(3);
  });

  it("are named after their text on PostgreSQL, and kept prepared on the connection", async ({ skip }) => {
    if (handle.kind !== "postgres") skip("PGlite in this process sends no statement names");
    const someone = await createUser(handle.db);
    const edited = preparedQuery("test_first_name", (db) =>
      db
        .select({ lastName: users.lastName })
        .from(users)
        .where(eq(users.id, sql.placeholder("id"))),
    );
    const prepared = await handle.db.transaction(async (tx) => {
      await firstNameQuery(tx).execute({ id: someone.id });
      await firstNameQuery(tx).execute({ id: someone.id });
      await edited(tx).execute({ id: someone.id });
      const result = (await tx.execute(
        sql`select name, statement from pg_prepared_statements where name like 'test\_first\_name\_%' order by name`,
      )) as unknown as {
        rows: { name: string; statement: string }[];
      };
      return result.rows;
    });
    // Once each, and the edited text under a name of its own.
    expect(prepared.map((row) => row.name)).toEqual([
      expect.stringMatching(/^test_first_name_[0-9a-f]{12}$/),
      expect.stringMatching(/^test_first_name_[0-9a-f]{12}$/),
    ]);
    expect(new Set(prepared.map((row) => row.name)).size).toBe(2);
    expect(prepared.map((row) => row.statement).sort()).toEqual(
      [expect.stringContaining('"first_name"'), expect.stringContaining('"last_name"')].sort(),
    );
  });
});
