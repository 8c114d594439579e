/**
 * Every search of the product ignores accents and case, whichever side they are on ("securite"
 * finds "Sécurité", "TRAORÉ" finds "Traore"), and takes % and _ literally: on PGlite by default,
 * on PostgreSQL with DATABASE_URL (CI runs both).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { containsText } from "~/.server/db/like";
import { courses } from "~/.server/db/schema";
import { listAvailableCourses } from "~/.server/learning";
import { listPayments } from "~/.server/payments";
import { listManagedCourses } from "~/.server/reports";
import { listUsers } from "~/.server/users";
import { cashOnlyPayments, createCourse, createPayment, createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let admin: TestUser;
let learner: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  admin = await createUser(handle.db, { role: "admin", firstName: "Fatoumata", lastName: "Coulibaly" });
  learner = await createUser(handle.db, { firstName: "Aïssata", lastName: "Keïta", email: "aissata.keita@exemple.ml" });
});
afterAll(async () => handle?.close());

const titles = (rows: Array<{ title: string }>) => rows.map((row) => row.title);

describe("the search rule (containsText)", () => {
  it("matches across accents and case, both ways, anywhere in the text", async () => {
    const search = async (text: string) =>
      titles(await handle.db.select({ title: courses.title }).from(courses).where(containsText(text, courses.title)));
    for (const typed of ["developpement", "DÉVELOPPEMENT", "Développement web"]) expect(await search(typed)).toEqual(["Développement Web"]);
    expect(await search("securite")).toEqual(["Cybersécurité"]);
    expect(await search("energie")).toEqual(["Énergie Solaire"]);
    expect(await search("mecatronique")).toEqual(["Mécatronique"]);
    expect(await search("intélligence")).toEqual(["Intelligence Artificielle"]);
    // Wildcards are letters like any other.
    expect(await search("%")).toEqual([]);
    expect(await search("_")).toEqual([]);
  });
});

describe("the screens' searches", () => {
  it("find courses for learners and for their managers without the accents", async () => {
    expect(titles(await listAvailableCourses(handle.db, learner, { q: "securite" }))).toEqual(["Cybersécurité"]);
    expect(titles(await listAvailableCourses(handle.db, learner, { q: "ENERGIE" }))).toEqual(["Énergie Solaire"]);
    const teacher = await createUser(handle.db, { role: "teacher" });
    await createCourse(handle.db, { instructor: teacher, title: "Électricité bâtiment", status: "draft" });
    expect(titles(await listManagedCourses(handle.db, teacher, { q: "electricite batiment" }))).toEqual(["Électricité bâtiment"]);
  });

  it("find people and payments by name without the accents", async () => {
    expect((await listUsers(handle.db, admin, { q: "keita" })).users.map((user) => user.email)).toEqual(["aissata.keita@exemple.ml"]);
    expect((await listUsers(handle.db, admin, { q: "AISSATA KEITA" })).users.map((user) => user.email)).toEqual([
      "aissata.keita@exemple.ml",
    ]);
    const { course } = await createCourse(handle.db, { title: "Comptabilité générale" });
    const { reference } = await createPayment(handle.db, learner, course, { services: cashOnlyPayments() });
    for (const typed of ["aissata keita", "comptabilite", "KEÏTA"])
      expect(
        (await listPayments(handle.db, admin, { q: typed })).map((payment) => payment.reference),
        typed,
      ).toEqual([reference]);
  });
});
