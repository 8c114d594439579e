/**
 * Course reviews: who may write one (enrolled learners only, active or completed), once (a second
 * submit edits it), with the same limits as the form; how the figures combine the institute's
 * imported baseline with the reviews written here; hiding by administrators; the screens through
 * their route modules (the learner's course page, the public page, the teachers' and admins' list).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { getCourseBySlug, listPublishedCourses } from "~/.server/catalogue";
import type { DatabaseHandle } from "~/.server/db/client";
import { courseReviews, courses, enrolments } from "~/.server/db/schema";
import { getTopCourses, listManagedCourses, windowOf } from "~/.server/reports";
import { getMyReview, listCourseRatings, listCourseReviews, listPublicReviews, saveReview, setReviewHidden } from "~/.server/reviews";
import { REVIEW_LIMITS } from "~/lib/reviews";
import { action as learnerAction, loader as learnerLoader } from "~/routes/dashboard/formation";
import { loader as publicLoader } from "~/routes/public/formation";
import { action as staffAction, loader as staffLoader } from "~/routes/teacher/reviews";
import { createCourse, createReview, createUser, enrol, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher" });
  otherTeacher = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => handle?.close());

function call<T>(
  run: (args: never) => Promise<T>,
  user: TestUser | null,
  path: string,
  options: { form?: Record<string, string>; params?: Record<string, string> } = {},
) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, options.form ? { method: "POST", body: new URLSearchParams(options.form) } : {});
  const context = routerContext(handle.db, campus, user ? { user: sessionOf(user) } : {});
  return routeOutcome(() => run({ request, params: options.params ?? {}, context, url: new URL(request.url), pattern: path } as never));
}

async function enrolledLearner(course: { id: number }, firstName = "Awa") {
  const learner = await createUser(handle.db, { firstName, lastName: "Traoré" });
  await enrol(handle.db, learner, course, { paid: true });
  return learner;
}

const figures = async (slug: string) => {
  const course = (await getCourseBySlug(handle.db, slug))!;
  return { rating: course.rating, reviewCount: course.reviewCount, studentCount: course.studentCount };
};

describe("who may review, and how often", () => {
  it("takes one review per learner and course: a second submit edits it", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const learner = await enrolledLearner(course);
    const first = await createReview(handle.db, learner, course, { rating: 4, body: "Bonne formation, bien expliquée." });
    expect(first.created).toBe(true);
    const second = await saveReview(handle.db, learner, course.id, { rating: "2", body: "  Finalement trop rapide pour moi.  " });
    expect(second).toEqual({ id: first.id, created: false });
    const rows = await handle.db.select().from(courseReviews).where(eq(courseReviews.courseId, course.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 2, body: "Finalement trop rapide pour moi." });
    // Two submits at once still leave one row.
    await Promise.all([createReview(handle.db, learner, course, { rating: 5 }), createReview(handle.db, learner, course, { rating: 3 })]);
    expect(await handle.db.$count(courseReviews, eq(courseReviews.courseId, course.id))).toBe(1);
  });

  it("refuses a person who does not follow the course: not enrolled, waiting for payment, paused or cancelled, or its teacher", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 50_000 });
    const stranger = await createUser(handle.db);
    const unpaid = await createUser(handle.db);
    await enrol(handle.db, unpaid, course);
    const paused = await enrolledLearner(course, "Moussa");
    await handle.db.update(enrolments).set({ status: "paused" }).where(eq(enrolments.userId, paused.id));
    const cancelled = await enrolledLearner(course, "Fanta");
    await handle.db.update(enrolments).set({ status: "cancelled" }).where(eq(enrolments.userId, cancelled.id));
    for (const person of [stranger, unpaid, paused, cancelled, teacher, admin]) {
      await expect(createReview(handle.db, person, course)).rejects.toMatchObject({ code: "forbidden", reason: "not_enrolled" });
    }
    expect(await handle.db.$count(courseReviews, eq(courseReviews.courseId, course.id))).toBe(0);
  });

  it("lets a learner who completed the course review it", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const learner = await enrolledLearner(course);
    await handle.db.update(enrolments).set({ status: "completed" }).where(eq(enrolments.userId, learner.id));
    await expect(createReview(handle.db, learner, course)).resolves.toMatchObject({ created: true });
  });

  it("holds the rating and the text to the form's limits, with a French message beside each field", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const learner = await enrolledLearner(course);
    const refused = (input: unknown) => saveReview(handle.db, learner, course.id, input);
    await expect(refused({ rating: "6", body: "Une formation claire." })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { rating: "Choisissez une note de 1 à 5 étoiles." },
    });
    await expect(refused({ rating: "0", body: "Une formation claire." })).rejects.toMatchObject({ code: "invalid" });
    await expect(refused({ rating: "4.5", body: "Une formation claire." })).rejects.toMatchObject({ code: "invalid" });
    await expect(refused({ body: "Une formation claire." })).rejects.toMatchObject({ fieldErrors: { rating: expect.any(String) } });
    await expect(refused({ rating: "4", body: "   " })).rejects.toMatchObject({ fieldErrors: { body: "Votre avis est obligatoire." } });
    await expect(refused({ rating: "4", body: "Court" })).rejects.toMatchObject({
      fieldErrors: { body: `Votre avis doit compter au moins ${REVIEW_LIMITS.minBody} caractères.` },
    });
    await expect(refused({ rating: "4", body: "x".repeat(REVIEW_LIMITS.maxBody + 1) })).rejects.toMatchObject({
      fieldErrors: { body: `Votre avis ne doit pas dépasser ${(1000).toLocaleString("fr-FR")} caractères.` },
    });
    await expect(refused({ rating: "4", body: "x".repeat(REVIEW_LIMITS.maxBody) })).resolves.toMatchObject({ created: true });
    // The database holds the same limits, whoever writes.
    await expect(
      handle.db
        .update(courseReviews)
        .set({ body: "x".repeat(REVIEW_LIMITS.maxBody + 1) })
        .where(eq(courseReviews.courseId, course.id)),
    ).rejects.toThrow();
    await expect(handle.db.update(courseReviews).set({ rating: 6 }).where(eq(courseReviews.courseId, course.id))).rejects.toThrow();
  });
});

describe("the figures: the imported baseline combined with the reviews written here", () => {
  it("shows the seeded rating as imported, then adds the reviews; learners are counted here only", async () => {
    const before = await figures("data-science");
    const seeded = (await handle.db.select().from(courses).where(eq(courses.slug, "data-science")))[0]!;
    expect(seeded).toMatchObject({ baselineStudentCount: 123, baselineRating: 4.8, baselineReviewCount: 123 });
    expect(before).toEqual({ rating: 4.8, reviewCount: 123, studentCount: 0 });

    const course = { id: seeded.id };
    const learner = await enrolledLearner(course);
    await createReview(handle.db, learner, course, { rating: 1 });
    // (4.8 × 123 + 1) / 124 = 4.769… → 4.8; 124 reviews; 1 learner (the imported 123 are not added).
    expect(await figures("data-science")).toEqual({ rating: 4.8, reviewCount: 124, studentCount: 1 });
    // The catalogue's cached list follows (course_reviews is one of its tables).
    const listed = (await listPublishedCourses(handle.db)).find((row) => row.slug === "data-science")!;
    expect(listed).toMatchObject({ rating: 4.8, reviewCount: 124, studentCount: 1 });
  });

  it("has no rating until a first review, then the average of the reviews written here", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    expect(await figures(course.slug)).toEqual({ rating: null, reviewCount: 0, studentCount: 0 });
    await createReview(handle.db, await enrolledLearner(course), course, { rating: 5 });
    await createReview(handle.db, await enrolledLearner(course, "Ibrahim"), course, { rating: 4 });
    expect(await figures(course.slug)).toEqual({ rating: 4.5, reviewCount: 2, studentCount: 2 });
  });

  it("leaves hidden reviews out of the figures and the public list, and shows them again when restored", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const kind = await createReview(handle.db, await enrolledLearner(course, "Aminata"), course, { rating: 5 });
    const rude = await createReview(handle.db, await enrolledLearner(course, "Moussa"), course, {
      rating: 1,
      body: "Un avis injurieux à masquer.",
    });
    expect(await figures(course.slug)).toMatchObject({ rating: 3, reviewCount: 2 });
    await expect(setReviewHidden(handle.db, teacher, rude.id, true)).rejects.toMatchObject({ code: "forbidden" });
    await setReviewHidden(handle.db, admin, rude.id, true);
    expect(await figures(course.slug)).toMatchObject({ rating: 5, reviewCount: 1 });
    expect((await listPublicReviews(handle.db, course.id)).map((review) => review.id)).toEqual([kind.id]);
    await setReviewHidden(handle.db, admin, rude.id, false);
    expect(await figures(course.slug)).toMatchObject({ rating: 3, reviewCount: 2 });
    await expect(setReviewHidden(handle.db, admin, 999_999, true)).rejects.toMatchObject({ code: "not_found" });
  });

  it("feeds the reports: the admin's top courses and the course lists show the combined rating", async () => {
    const { course } = await createCourse(handle.db, { instructor: otherTeacher, priceFcfa: 0, title: "Formation notée" });
    await createReview(handle.db, await enrolledLearner(course), course, { rating: 3 });
    const top = await getTopCourses(handle.db, admin, windowOf("30j"), 50);
    expect(top.find((row) => row.id === course.id)).toMatchObject({ rating: 3 });
    const managed = await listManagedCourses(handle.db, otherTeacher);
    expect(managed.find((row) => row.id === course.id)).toMatchObject({ rating: 3, reviewCount: 1, baselineReviewCount: 0 });
    const parts = await listCourseRatings(handle.db, admin);
    expect(parts.find((row) => row.slug === "intelligence-artificielle")).toMatchObject({
      baselineRating: 4.9,
      baselineReviewCount: 245,
      platformRating: null,
      platformReviewCount: 0,
      rating: 4.9,
      reviewCount: 245,
    });
  });
});

describe("the screens", () => {
  it("the learner's course page: the form, a refusal that keeps what was typed, a review, then its edit", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const learner = await enrolledLearner(course);
    const path = `/dashboard/formations/${course.slug}`;
    const params = { slug: course.slug };
    expect((await call(learnerLoader, learner, path, { params })).data).toMatchObject({ canReview: true, review: null });

    const refused = await call(learnerAction, learner, path, {
      params,
      form: { intent: "review", rating: "9", body: "Très bonne formation." },
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ ok: false, intent: "review", values: { rating: "9", body: "Très bonne formation." } });

    const posted = await call(learnerAction, learner, path, {
      params,
      form: { intent: "review", rating: "5", body: "Très bonne formation." },
    });
    expect(posted).toMatchObject({ status: 302, location: `${path}#mon-avis` });
    const edited = await call(learnerAction, learner, path, {
      params,
      form: { intent: "review", rating: "4", body: "Très bonne formation, un peu dense." },
    });
    expect(edited.status).toBe(302);
    expect(await getMyReview(handle.db, learner, course.id)).toMatchObject({ rating: 4, body: "Très bonne formation, un peu dense." });
    expect((await call(learnerLoader, learner, path, { params })).data).toMatchObject({ review: { rating: 4, hidden: false } });
  });

  it("the learner's course page sends someone not enrolled to the public page, and writes nothing", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    const stranger = await createUser(handle.db);
    const outcome = await call(learnerAction, stranger, `/dashboard/formations/${course.slug}`, {
      params: { slug: course.slug },
      form: { intent: "review", rating: "1", body: "Je ne suis pas inscrit ici." },
    });
    expect(outcome).toMatchObject({ status: 302, location: `/formations/${course.slug}` });
    expect(await handle.db.$count(courseReviews, eq(courseReviews.courseId, course.id))).toBe(0);
  });

  it("the public page: the review count (not the learners), and the latest reviews with a first name and an initial", async () => {
    const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0 });
    await enrolledLearner(course, "Ousmane");
    await createReview(handle.db, await enrolledLearner(course, "Mariam"), course, { rating: 4, body: "Des exemples concrets et utiles." });
    const page = (await call(publicLoader, null, `/formations/${course.slug}`, { params: { slug: course.slug } })).data as {
      course: { rating: number; reviewCount: number; studentCount: number };
      reviews: Array<{ name: string; rating: number; body: string; date: string }>;
    };
    expect(page.course).toMatchObject({ rating: 4, reviewCount: 1, studentCount: 2 });
    expect(page.reviews).toEqual([expect.objectContaining({ name: "Mariam T.", rating: 4, body: "Des exemples concrets et utiles." })]);
  });

  it("the reviews list: a teacher reads their courses' reviews only; an admin reads all and hides one", async () => {
    const { course } = await createCourse(handle.db, { instructor: otherTeacher, priceFcfa: 0, title: "Cours de l'autre enseignant" });
    const review = await createReview(handle.db, await enrolledLearner(course, "Kadiatou"), course, {
      body: "Un avis pour l'autre cours.",
    });

    const mine = (await call(staffLoader, teacher, "/teacher/avis")).data as { reviews: Array<{ id: number }>; moderator: boolean };
    expect(mine.moderator).toBe(false);
    expect(mine.reviews.map((row) => row.id)).not.toContain(review.id);
    const theirs = (await call(staffLoader, otherTeacher, `/teacher/avis?cours=${course.id}`)).data as { reviews: Array<{ id: number }> };
    expect(theirs.reviews.map((row) => row.id)).toEqual([review.id]);
    // A page past the end (the last review of the last page hidden from there) shows the last page.
    const beyond = await call(staffLoader, otherTeacher, `/teacher/avis?cours=${course.id}&page=3`);
    expect(beyond.data).toMatchObject({ page: 1, pageCount: 1, reviews: [{ id: review.id }] });
    // Another teacher's filter on this course shows nothing of it.
    expect(((await call(staffLoader, teacher, `/teacher/avis?cours=${course.id}`)).data as { total: number }).total).toBe(0);

    // A teacher may not hide a review, even on their own course.
    const forbidden = await call(staffAction, otherTeacher, "/teacher/avis", { form: { reviewId: String(review.id), decision: "hide" } });
    expect(forbidden.status).toBe(403);
    const hidden = await call(staffAction, admin, `/admin/avis?cours=${course.id}`, {
      form: { reviewId: String(review.id), decision: "hide" },
    });
    expect(hidden).toMatchObject({ status: 302, location: `/admin/avis?cours=${course.id}` });
    const list = await listCourseReviews(handle.db, admin, { courseId: course.id, hidden: "hidden" });
    expect(list.reviews.map((row) => row.id)).toEqual([review.id]);
    expect((await call(staffAction, admin, "/admin/avis", { form: { reviewId: "abc", decision: "hide" } })).status).toBe(400);
  });
});
