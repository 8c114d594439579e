import { and, count, countDistinct, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInstitute, getCourseBySlug, listCategories, listLevels, listPublishedCourses } from "~/.server/catalogue";
import type { DatabaseHandle } from "~/.server/db/client";
import { categories, courses, enrolments, institute, levels } from "~/.server/db/schema";
import { changeEnrolment } from "~/.server/learning";
import { countPlatformLearners } from "~/.server/reports";
import { createUser, enrol } from "../factories";
import { seedDatabase } from "~/.server/db/seed";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("seed", () => {
  it("creates the spec's catalogue", async () => {
    const all = await listPublishedCourses(handle.db);
    expect(all).toHaveLength(10);
    expect(all.map((course) => course.title)).toEqual([
      "Intelligence Artificielle",
      "Cybersécurité",
      "Marketing Digital",
      "Data Science",
      "Développement Web",
      "Transit Douanes Logistiques",
      "Énergie Solaire",
      "Agro Business",
      "Mécatronique",
      "Maintenance Industrielle",
    ]);
    expect(all.filter((course) => course.popular).map((course) => course.slug)).toEqual(["intelligence-artificielle", "cybersecurite"]);
    for (const course of all) expect(course.modules).toHaveLength(5);
    const ai = all[0]!;
    expect(ai).toMatchObject({
      priceFcfa: 120000,
      durationWeeks: 12,
      // Nobody enrolled here yet: the imported figure (245) is not a count of learners.
      studentCount: 0,
      rating: 4.9,
      reviewCount: 245,
      levelName: "Avancé",
      categoryName: "Tech",
    });
    expect(ai.modules).toEqual([
      "Python & TensorFlow",
      "Machine Learning",
      "IA Générative",
      "Projets pratiques",
      "Certification officielle",
    ]);
    expect(await listCategories(handle.db)).toHaveLength(6);
    expect((await listLevels(handle.db)).map((level) => level.name)).toEqual(["Débutant", "Intermédiaire", "Avancé", "Expert"]);
  });

  it("stores the institute's identity with real contact details", async () => {
    const identity = await getInstitute(handle.db);
    expect(identity.tagline).toBe("Œuvre de la CCIM");
    expect(identity.phones).toHaveLength(3);
    expect(identity.address).toBe("Cité SEMA, Bamako, Mali");
    expect(JSON.stringify(identity)).not.toMatch(/\{(phone|email)\}/);
  });

  it("changes nothing when it runs again, and keeps later edits", async () => {
    await handle.db.update(courses).set({ priceFcfa: 99000 }).where(eq(courses.slug, "data-science"));
    const before = {
      courses: await handle.db.select().from(courses).orderBy(courses.id),
      categories: await handle.db.select().from(categories),
      levels: await handle.db.select().from(levels),
      institute: await handle.db.select().from(institute),
    };
    await seedDatabase(handle.db);
    await seedDatabase(handle.db);
    expect(await handle.db.select().from(courses).orderBy(courses.id)).toEqual(before.courses);
    expect(await handle.db.select().from(categories)).toEqual(before.categories);
    expect(await handle.db.select().from(levels)).toEqual(before.levels);
    expect(await handle.db.select().from(institute)).toEqual(before.institute);
  });
});

describe("public catalogue", () => {
  it("shows only published courses", async () => {
    await handle.db.update(courses).set({ status: "draft" }).where(eq(courses.slug, "mecatronique"));
    await handle.db.update(courses).set({ status: "archived" }).where(eq(courses.slug, "agro-business"));
    const visible = await listPublishedCourses(handle.db);
    expect(visible.map((course) => course.slug)).not.toContain("mecatronique");
    expect(visible.map((course) => course.slug)).not.toContain("agro-business");
    // The page reads any status; who may see a draft is canViewCourse's rule (course-authoring tests).
    expect((await getCourseBySlug(handle.db, "mecatronique"))?.status).toBe("draft");
    expect((await getCourseBySlug(handle.db, "agro-business"))?.status).toBe("archived");
    await handle.db.update(courses).set({ status: "published" }).where(eq(courses.slug, "mecatronique"));
    await handle.db.update(courses).set({ status: "published" }).where(eq(courses.slug, "agro-business"));
  });

  it("limits the home page to the first six", async () => {
    const home = await listPublishedCourses(handle.db, { limit: 6 });
    expect(home.map((course) => course.slug)).toEqual([
      "intelligence-artificielle",
      "cybersecurite",
      "marketing-digital",
      "data-science",
      "developpement-web",
      "transit-douanes-logistiques",
    ]);
  });

  it("keeps one category when asked, published courses only, in catalogue order", async () => {
    const tech = await listPublishedCourses(handle.db, { categorySlug: "tech" });
    expect(tech.map((course) => course.slug)).toEqual(["intelligence-artificielle", "cybersecurite", "data-science", "developpement-web"]);
    expect(tech.every((course) => course.categorySlug === "tech")).toBe(true);
    await handle.db.update(courses).set({ status: "draft" }).where(eq(courses.slug, "data-science"));
    expect((await listPublishedCourses(handle.db, { categorySlug: "tech" })).map((course) => course.slug)).not.toContain("data-science");
    await handle.db.update(courses).set({ status: "published" }).where(eq(courses.slug, "data-science"));
    expect(await listPublishedCourses(handle.db, { categorySlug: "n-existe-pas" })).toEqual([]);
    expect(await listPublishedCourses(handle.db, { categorySlug: "ingenierie", limit: 1 })).toHaveLength(1);
  });

  it("reads one course with its prerequisites and objectives, and nothing for an unknown slug", async () => {
    const course = await getCourseBySlug(handle.db, "intelligence-artificielle");
    expect(course?.prerequisites.length).toBeGreaterThan(0);
    expect(course?.objectives.length).toBeGreaterThan(0);
    expect(course?.modules).toEqual([
      "Python & TensorFlow",
      "Machine Learning",
      "IA Générative",
      "Projets pratiques",
      "Certification officielle",
    ]);
    expect(await getCourseBySlug(handle.db, "n-existe-pas")).toBeNull();
  });
});

describe("public student counts (docs/decisions/0044-public-student-counts.md)", () => {
  it("equal the enrolments that count as following a course, never the imported figure", async () => {
    const ai = (await getCourseBySlug(handle.db, "intelligence-artificielle"))!;
    expect(ai.baselineStudentCount).toBe(245);
    const admin = await createUser(handle.db, { role: "admin" });
    const [first, second, pending, refunded, paused] = [
      await createUser(handle.db),
      await createUser(handle.db),
      await createUser(handle.db),
      await createUser(handle.db),
      await createUser(handle.db),
    ];
    await enrol(handle.db, first, ai, { paid: true });
    await enrol(handle.db, second, ai, { paid: true });
    await enrol(handle.db, pending, ai);
    const cancelled = await enrol(handle.db, refunded, ai, { paid: true });
    await changeEnrolment(handle.db, admin, cancelled.id, "cancel");
    const held = await enrol(handle.db, paused, ai, { paid: true });
    await changeEnrolment(handle.db, admin, held.id, "pause");
    // The same learner in a second course counts once on the home and about pages.
    const cyber = (await getCourseBySlug(handle.db, "cybersecurite"))!;
    await enrol(handle.db, first, cyber, { paid: true });

    const following = inArray(enrolments.status, ["active", "completed", "paused"]);
    const real = async (courseId: number) => handle.db.$count(enrolments, and(eq(enrolments.courseId, courseId), following));
    expect(await real(ai.id)).toBe(3);
    expect((await getCourseBySlug(handle.db, ai.slug))!.studentCount).toBe(3);
    for (const course of await listPublishedCourses(handle.db)) {
      expect(course.studentCount, course.slug).toBe(await real(course.id));
    }
    const [people] = await handle.db
      .select({ n: countDistinct(enrolments.userId) })
      .from(enrolments)
      .where(following);
    expect(await countPlatformLearners(handle.db)).toBe(people!.n);
    expect(people!.n).toBe(3);
    const [all] = await handle.db.select({ n: count() }).from(enrolments);
    expect(all!.n).toBe(6);
  });
});
