/**
 * The course policy: who manages, views and reads what, for each role, and the SQL form of each
 * rule selecting exactly the rows the predicate allows (a list never shows what a page refuses).
 */
import { and, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/.server/auth/actor";
import {
  canAuthor,
  canChangeStatus,
  canManageCourse,
  canReadLesson,
  canViewCourse,
  managedCoursesWhere,
  viewableCoursesWhere,
} from "~/.server/courses/policy";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses } from "~/.server/db/schema";
import { createCourse, createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let admin: TestUser;
let teacher: TestUser;
let otherTeacher: TestUser;
let student: TestUser;
const ids: Record<"draft" | "published" | "archived" | "foreign", number> = { draft: 0, published: 0, archived: 0, foreign: 0 };

beforeAll(async () => {
  handle = await createTestDatabase();
  [admin, teacher, otherTeacher, student] = await Promise.all([
    createUser(handle.db, { role: "admin" }),
    createUser(handle.db, { role: "teacher" }),
    createUser(handle.db, { role: "teacher" }),
    createUser(handle.db),
  ]);
  for (const status of ["draft", "published", "archived"] as const)
    ids[status] = (await createCourse(handle.db, { instructor: teacher, status })).course.id;
  ids.foreign = (await createCourse(handle.db, { instructor: otherTeacher, status: "draft" })).course.id;
});
afterAll(async () => handle?.close());

async function rowsWhere(clause: ReturnType<typeof managedCoursesWhere>) {
  const rows = await handle.db
    .select({ id: courses.id })
    .from(courses)
    .where(and(inArray(courses.id, Object.values(ids)), clause));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

async function testCourses() {
  return handle.db
    .select()
    .from(courses)
    .where(inArray(courses.id, Object.values(ids)));
}

describe("the course policy", () => {
  it("lets teachers and admins author, nobody else", () => {
    expect([admin, teacher, student, null].map((actor) => canAuthor(actor))).toEqual([true, true, false, false]);
    expect(canAuthor({ id: "x", role: null })).toBe(false);
  });

  it("manages every course for an admin, a teacher's own only, none for a student or a visitor, in SQL as in code", async () => {
    const rows = await testCourses();
    const expected = {
      admin: [ids.draft, ids.published, ids.archived, ids.foreign],
      teacher: [ids.draft, ids.published, ids.archived],
      student: [],
    };
    for (const [name, actor] of [
      ["admin", admin],
      ["teacher", teacher],
      ["student", student],
    ] as const) {
      const byPredicate = rows
        .filter((row) => canManageCourse(actor, row))
        .map((row) => row.id)
        .sort((a, b) => a - b);
      expect(byPredicate, name).toEqual([...expected[name]].sort((a, b) => a - b));
      expect(await rowsWhere(managedCoursesWhere(actor)), name).toEqual(byPredicate);
    }
    expect(await rowsWhere(managedCoursesWhere(null))).toEqual([]);
  });

  it("shows a published course to all, a draft or archived one only to those who manage it, in SQL as in code", async () => {
    const rows = await testCourses();
    for (const actor of [admin, teacher, otherTeacher, student, null] as Array<Actor | null>) {
      const byPredicate = rows
        .filter((row) => canViewCourse(actor, row))
        .map((row) => row.id)
        .sort((a, b) => a - b);
      expect(await rowsWhere(viewableCoursesWhere(actor))).toEqual(byPredicate);
    }
    const [draft] = rows.filter((row) => row.id === ids.draft);
    expect([admin, teacher, otherTeacher, student, null].map((actor) => canViewCourse(actor, draft!))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("opens a lesson to its learners, to the course's team, and to anyone as a free preview of a published course", () => {
    const published = { instructorId: teacher.id, status: "published" as const };
    const draft = { instructorId: teacher.id, status: "draft" as const };
    const paid = { isFree: false };
    const free = { isFree: true };
    expect(canReadLesson(null, published, free, false)).toBe(true);
    expect(canReadLesson(null, draft, free, false)).toBe(false);
    expect(canReadLesson(student, published, paid, false)).toBe(false);
    expect(canReadLesson(student, published, paid, true)).toBe(true);
    expect(canReadLesson(otherTeacher, draft, paid, false)).toBe(false);
    expect(canReadLesson(teacher, draft, paid, false)).toBe(true);
    expect(canReadLesson(admin, draft, paid, false)).toBe(true);
  });

  it("lets a teacher only publish a draft and archive a published course; an admin any move", () => {
    expect(canChangeStatus(teacher, "draft", "published")).toBe(true);
    expect(canChangeStatus(teacher, "published", "archived")).toBe(true);
    expect(canChangeStatus(teacher, "archived", "draft")).toBe(false);
    expect(canChangeStatus(teacher, "published", "draft")).toBe(false);
    expect(canChangeStatus(student, "draft", "published")).toBe(false);
    expect(canChangeStatus(admin, "archived", "draft")).toBe(true);
  });
});
