import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { categories, courses, institute, instituteHighlights, lessons, levels, quotes, teamMembers } from "../schema";
import { seedHighlights, seedQuotes, seedTeamMembers } from "./about-data";
import { seedCategories, seedCourses, seedInstitute, seedLessonsFor, seedLevels } from "./catalogue-data";
import { seedAssessment } from "./assessment";
import { seedDemoCommunity } from "./community";
import { seedDemoAccounts } from "./demo-accounts";
import { seedDemoTeaching } from "./teaching";

/**
 * Creates what a first start needs. Idempotent: rows that exist (matched by slug or id) are left
 * as they are, so an administrator's later edits survive restarts.
 */
/** `demoAccounts`: the three accounts of the README, for a trial (CAMPUS_MODE=trial) only. */
export async function seedDatabase(db: Database, options: { demoAccounts?: boolean } = {}) {
  await db.transaction(async (tx) => {
    await tx.insert(institute).values(seedInstitute).onConflictDoNothing();
    await tx.insert(categories).values(seedCategories).onConflictDoNothing({ target: categories.slug });
    await tx.insert(levels).values(seedLevels).onConflictDoNothing({ target: levels.slug });

    const categoryIds = new Map((await tx.select().from(categories)).map((row) => [row.slug, row.id]));
    const levelIds = new Map((await tx.select().from(levels)).map((row) => [row.slug, row.id]));
    const now = new Date();
    const inserted = await tx
      .insert(courses)
      .values(
        seedCourses.map(({ category, level, ...course }, index) => ({
          ...course,
          categoryId: categoryIds.get(category)!,
          levelId: levelIds.get(level)!,
          status: "published" as const,
          position: index + 1,
          publishedAt: now,
        })),
      )
      .onConflictDoNothing({ target: courses.slug })
      .returning({ id: courses.id, title: courses.title, modules: courses.modules });
    // Lessons only for courses created now: a course already there keeps its teacher's lessons.
    const lessonRows = inserted.flatMap((course) => seedLessonsFor(course).map((lesson) => ({ ...lesson, courseId: course.id })));
    if (lessonRows.length) await tx.insert(lessons).values(lessonRows);
    // The about page's figures, leaders and quotes, matched by key.
    await tx.insert(instituteHighlights).values(seedHighlights).onConflictDoNothing({ target: instituteHighlights.key });
    await tx.insert(teamMembers).values(seedTeamMembers).onConflictDoNothing({ target: teamMembers.key });
    await tx.insert(quotes).values(seedQuotes).onConflictDoNothing({ target: quotes.key });
  });
  // Demo accounts (README): in a trial only; never in a deployment, nor in tests (which count users).
  if (options.demoAccounts) await seedDemoAccounts(db);
  if (options.demoAccounts) await seedDemoTeaching(db);
  if (options.demoAccounts) await seedDemoCommunity(db);
  await seedAssessment(db, options);
}

export async function countPublishedCourses(db: Database) {
  return db.$count(courses, eq(courses.status, "published"));
}
