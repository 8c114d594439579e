/**
 * The top bar's search page (/dashboard/recherche): courses, forum threads the person may read,
 * and people for administrators only, ignoring accents, by section; a plain GET page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { moderateThread } from "~/.server/forum";
import type { SearchSection } from "~/.server/search";
import { loader } from "~/routes/search/recherche";
import { createCourse, createThread, createUser, enrol, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let learner: TestUser;
let admin: TestUser;
let teacher: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  learner = await createUser(handle.db, { firstName: "Aïssata", lastName: "Keïta" });
  admin = await createUser(handle.db, { role: "admin" });
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Sécurité" });
  const { course } = await createCourse(handle.db, { instructor: teacher, title: "Sécurité réseau avancée", priceFcfa: 0 });
  await enrol(handle.db, learner, course);
  await createThread(handle.db, learner, { title: "Réseau sécurisé à la maison ?" });
  const hidden = await createThread(handle.db, teacher, { title: "Sécurité : sujet masqué" });
  await moderateThread(handle.db, admin, hidden.id, "hide");
});
afterAll(async () => handle?.close());

async function search(user: TestUser, q: string, path = "/dashboard/recherche") {
  const url = new URL(`${TEST_PUBLIC_URL}${path}?q=${encodeURIComponent(q)}`);
  const context = routerContext(handle.db, campus, { user: sessionOf(user) });
  const outcome = await routeOutcome(() => loader({ request: new Request(url), url, params: {}, context, pattern: path } as never));
  return (outcome.data as { sections: SearchSection[] }).sections;
}

const titles = (sections: SearchSection[], key: string) => sections.find((section) => section.key === key)?.hits.map((hit) => hit.title);

describe("the search page", () => {
  it("finds courses and readable threads by section, ignoring accents and case", async () => {
    const sections = await search(learner, "SECURI");
    expect(sections.map((section) => section.key)).toEqual(["formations", "forum"]);
    expect(titles(sections, "formations")).toContain("Sécurité réseau avancée");
    // Followed: the link leads to the learner's course.
    expect(sections[0]!.hits.find((hit) => hit.title === "Sécurité réseau avancée")?.href).toMatch(/^\/dashboard\/formations\//);
    expect(titles(sections, "forum")).toEqual(["Réseau sécurisé à la maison ?"]);
  });

  it("searches people for administrators only", async () => {
    expect(titles(await search(admin, "keita"), "personnes")).toEqual(["Aïssata Keïta"]);
    expect(titles(await search(teacher, "keita", "/teacher/recherche"), "personnes")).toBeUndefined();
    expect(titles(await search(learner, "keita"), "personnes")).toBeUndefined();
    // A moderator reads the hidden thread; the learner did not.
    expect(titles(await search(admin, "masque"), "forum")).toEqual(["Sécurité : sujet masqué"]);
  });

  it("shows nothing for an empty box, and takes wildcards literally", async () => {
    expect(await search(learner, "   ")).toEqual([]);
    const sections = await search(learner, "%");
    expect(sections.every((section) => section.hits.length === 0)).toBe(true);
  });
});
