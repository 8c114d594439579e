import { eq, isNull, like, sql } from "drizzle-orm";
import { prepareAttemptQuestions, seededRandom } from "~/lib/quiz";
import { createAccount } from "../../auth/accounts";
import { newPaymentReference } from "../../payments/reference";
import type { Database } from "../client";
import { courseLearnerCounts, courses, enrolments, lessonProgress, lessons, payments, quizAttempts, quizzes, users } from "../schema";

/**
 * A plausible past year for a trial database (`npm run seed:demo -- --learners N`), so that every
 * chart and report of a trial shows something and the benches run at scale: learners who signed
 * up over the year (more of them lately), enrolled in one to three published courses, paid by
 * mobile money, card or cash (some gave up, a few were refunded), progressed through lessons,
 * sent quiz attempts and finished courses, spread over the months.
 *
 * Accounts are created the one way accounts are (createAccount, with their sign-up date); the
 * rest is written in batches as the other trial seeds do, in the states the capabilities leave
 * them. Never on a deployment: `demoHistoryRefusal` says why, and the command obeys it.
 */

const DAY = 24 * 60 * 60 * 1000;
const BATCH = 500;
export const DEMO_LEARNER_EMAIL_DOMAIN = "demo.campus.test";

/** Why the demo history may not be written with this environment (a deployment), or null. */
export function demoHistoryRefusal(env: { NODE_ENV?: string; CAMPUS_MODE?: string }): string | null {
  if (env.NODE_ENV === "production" || env.CAMPUS_MODE === "production")
    return "Refusé : seed:demo remplit une base d'essai de données inventées ; jamais sur un déploiement (NODE_ENV ou CAMPUS_MODE vaut production).";
  return null;
}

const firstNames = [
  "Awa",
  "Moussa",
  "Aïssata",
  "Bakary",
  "Fatoumata",
  "Oumar",
  "Kadiatou",
  "Ibrahim",
  "Mariam",
  "Seydou",
  "Djeneba",
  "Amadou",
];
const lastNames = ["Traoré", "Diallo", "Keïta", "Coulibaly", "Koné", "Sangaré", "Touré", "Diarra", "Cissé", "Sidibé", "Maïga", "Dembélé"];

/** A small seeded generator (mulberry32): the same seed gives the same history. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min: number, max: number) => min + next() * (max - min),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    weighted: <T>(choices: ReadonlyArray<readonly [T, number]>): T => {
      let roll = next() * choices.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [value, weight] of choices) if ((roll -= weight) < 0) return value;
      return choices.at(-1)![0];
    },
  };
}

export interface DemoHistorySummary {
  learners: number;
  enrolments: number;
  payments: Record<"mobile_money" | "card" | "cash", number>;
  abandoned: number;
  refunds: number;
  completions: number;
  quizAttempts: number;
}

async function insertInBatches<Row>(rows: Row[], insert: (batch: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += BATCH) await insert(rows.slice(start, start + BATCH));
}

/** Adds `learners` demo learners and their year (ending `now`); run again, it adds more. */
export async function seedDemoHistory(
  db: Database,
  options: { learners: number; now?: Date; seed?: number; onProgress?: (done: number) => void },
): Promise<DemoHistorySummary> {
  const now = options.now ?? new Date();
  const random = generator(options.seed ?? 2026);
  const catalogue = await db
    .select({ id: courses.id, price: courses.priceFcfa })
    .from(courses)
    .where(eq(courses.status, "published"))
    .orderBy(courses.position, courses.id);
  if (catalogue.length === 0) throw new Error("Aucune formation publiée : lancez d'abord l'application une fois (données initiales).");
  const lessonRows = await db.select({ id: lessons.id, courseId: lessons.courseId }).from(lessons).orderBy(lessons.position, lessons.id);
  const quizRows = await db
    .select({
      id: quizzes.id,
      courseId: quizzes.courseId,
      questions: quizzes.questions,
      passingScore: quizzes.passingScore,
      drawCount: quizzes.drawCount,
      shuffleQuestions: quizzes.shuffleQuestions,
      shuffleOptions: quizzes.shuffleOptions,
    })
    .from(quizzes)
    .where(isNull(quizzes.deletedAt));
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
  const already = await db.$count(users, like(users.email, `%@${DEMO_LEARNER_EMAIL_DOMAIN}`));

  const summary: DemoHistorySummary = {
    learners: 0,
    enrolments: 0,
    payments: { mobile_money: 0, card: 0, cash: 0 },
    abandoned: 0,
    refunds: 0,
    completions: 0,
    quizAttempts: 0,
  };
  const references = new Set<string>();
  const reference = () => {
    let candidate = newPaymentReference();
    while (references.has(candidate)) candidate = newPaymentReference();
    references.add(candidate);
    return candidate;
  };
  const before = (date: Date) => (date.getTime() > now.getTime() ? new Date(now.getTime() - random.between(60_000, 3_600_000)) : date);

  // Learners one chunk at a time, each chunk in one transaction (one commit, not one per row):
  // accounts, then their enrolments and what followed.
  for (let start = 0; start < options.learners; start += BATCH) {
    const count = Math.min(BATCH, options.learners - start);
    await db.transaction(async (tx) => {
      const people: Array<{ id: string; signedUp: Date }> = [];
      for (let index = 0; index < count; index += 1) {
        const number = already + start + index + 1;
        // More sign-ups lately: the square root leans the draw towards the end of the year.
        const signedUp = new Date(now.getTime() - (1 - Math.sqrt(random.next())) * 365 * DAY);
        const { id } = await createAccount(
          tx as unknown as Database,
          {
            email: `apprenant-${number}@${DEMO_LEARNER_EMAIL_DOMAIN}`,
            firstName: random.pick(firstNames),
            lastName: random.pick(lastNames),
            role: "user",
            emailVerified: true,
          },
          signedUp,
        );
        people.push({ id, signedUp });
      }

      type Plan = {
        enrolment: typeof enrolments.$inferInsert;
        payment: typeof payments.$inferInsert | null;
        done: Array<{ lessonId: number; at: Date }>;
        attempt: { quiz: (typeof quizRows)[number]; at: Date; score: number } | null;
      };
      const plans: Plan[] = [];
      for (const person of people) {
        const courseCount = random.weighted([
          [1, 55],
          [2, 30],
          [3, 15],
        ] as const);
        const chosen = new Set<(typeof catalogue)[number]>();
        while (chosen.size < Math.min(courseCount, catalogue.length)) chosen.add(random.pick(catalogue));
        for (const course of chosen) {
          const enrolledAt = before(new Date(person.signedUp.getTime() + random.between(0, 20) * DAY));
          const method = random.weighted([
            ["mobile_money", 55],
            ["card", 15],
            ["cash", 30],
          ] as const);
          const free = course.price <= 0;
          const abandoned = !free && random.next() < 0.1;
          const paidAt = free ? enrolledAt : before(new Date(enrolledAt.getTime() + random.between(0.01, method === "cash" ? 3 : 1) * DAY));
          const refunded = !free && !abandoned && random.next() < 0.04;
          const refundedAt = refunded ? before(new Date(paidAt.getTime() + random.between(1, 10) * DAY)) : null;
          const courseLessons = lessonRows.filter((lesson) => lesson.courseId === course.id);
          // The longer ago, the likelier finished (at most 60 % after four months).
          const age = (now.getTime() - paidAt.getTime()) / DAY;
          const open = !abandoned && !refunded;
          const finished = open && courseLessons.length > 0 && random.next() < Math.min(0.6, (age / 120) * 0.6);
          const completedAt = finished
            ? before(new Date(paidAt.getTime() + random.between(10, Math.max(11, Math.min(age, 90))) * DAY))
            : null;
          const doneCount = !open ? 0 : finished ? courseLessons.length : Math.floor(random.next() * courseLessons.length);
          const span = (completedAt ?? now).getTime() - paidAt.getTime();
          const done = courseLessons
            .slice(0, doneCount)
            .map((lesson, index) => ({ lessonId: lesson.id, at: new Date(paidAt.getTime() + (span * (index + 1)) / (doneCount + 1)) }));
          if (completedAt && done.length) done[done.length - 1]!.at = completedAt;
          const quiz = quizRows.find((row) => row.courseId === course.id && row.questions.length > 0);
          const attempt =
            quiz && open && (finished || doneCount >= courseLessons.length / 2)
              ? {
                  quiz,
                  at: completedAt ? new Date(completedAt.getTime() - 3_600_000) : (done.at(-1)?.at ?? paidAt),
                  score: finished ? Math.round(random.between(quiz.passingScore, 100)) : Math.round(random.between(30, 95)),
                }
              : null;
          plans.push({
            enrolment: {
              userId: person.id,
              courseId: course.id,
              status: abandoned || refunded ? "cancelled" : finished ? "completed" : "active",
              progress: courseLessons.length ? Math.round((doneCount / courseLessons.length) * 100) : 0,
              lastLessonId: done.at(-1)?.lessonId ?? null,
              enrolledAt,
              activatedAt: abandoned ? null : paidAt,
              completedAt,
              updatedAt: refundedAt ?? completedAt ?? done.at(-1)?.at ?? paidAt,
            },
            payment: free
              ? null
              : {
                  reference: reference(),
                  enrolmentId: 0,
                  userId: person.id,
                  courseId: course.id,
                  amount: course.price,
                  method,
                  provider: method === "cash" ? "office" : "sandbox",
                  providerReference: method === "cash" ? null : `SBX-DEMO-${references.size}`,
                  methodDetail:
                    method === "mobile_money" ? random.pick(["Orange Money", "Moov Money", "Wave"]) : method === "card" ? "VISA" : null,
                  status: abandoned ? "failed" : refunded ? "refunded" : "completed",
                  failureReason: abandoned ? "Paiement abandonné : délai de 48 heures dépassé." : null,
                  receiptNumber: method === "cash" && !abandoned ? `R-DEMO-${references.size}` : null,
                  recordedBy: method === "cash" && !abandoned ? (admin?.id ?? null) : null,
                  refundedBy: refunded ? (admin?.id ?? null) : null,
                  refundReason: refunded ? "Demande de l'apprenant" : null,
                  createdAt: enrolledAt,
                  updatedAt: refundedAt ?? paidAt,
                  completedAt: abandoned ? null : paidAt,
                  refundedAt,
                },
            done,
            attempt,
          });
          summary.enrolments += 1;
          if (!free) summary.payments[method] += 1;
          if (abandoned) summary.abandoned += 1;
          if (refunded) summary.refunds += 1;
          if (finished) summary.completions += 1;
          if (attempt) summary.quizAttempts += 1;
        }
      }

      const ids = new Map<string, number>();
      await insertInBatches(plans, async (batch) => {
        const rows = await tx
          .insert(enrolments)
          .values(batch.map((plan) => plan.enrolment))
          .onConflictDoNothing()
          .returning({ id: enrolments.id, userId: enrolments.userId, courseId: enrolments.courseId });
        for (const row of rows) ids.set(`${row.userId}:${row.courseId}`, row.id);
      });
      const idOf = (plan: Plan) => ids.get(`${plan.enrolment.userId}:${plan.enrolment.courseId}`);
      const kept = plans.filter((plan) => idOf(plan) !== undefined);
      await insertInBatches(
        kept.filter((plan) => plan.payment).map((plan) => ({ ...plan.payment!, enrolmentId: idOf(plan)! })),
        (batch) => tx.insert(payments).values(batch),
      );
      await insertInBatches(
        kept.flatMap((plan) =>
          plan.done.map((lesson) => ({
            enrolmentId: idOf(plan)!,
            lessonId: lesson.lessonId,
            completedAt: lesson.at,
            updatedAt: lesson.at,
          })),
        ),
        (batch) => tx.insert(lessonProgress).values(batch),
      );
      await insertInBatches(
        kept.flatMap((plan) => {
          const attempt = plan.attempt;
          if (!attempt) return [];
          // The quiz's draw, from its own seed: the history's random sequence (and its figures) stays the same.
          const questions = prepareAttemptQuestions(
            attempt.quiz.questions,
            attempt.quiz,
            seededRandom(`${attempt.quiz.id}:${plan.enrolment.userId}:1`),
          );
          const totalPoints = questions.reduce((sum, question) => sum + question.points, 0);
          return [
            {
              quizId: attempt.quiz.id,
              userId: plan.enrolment.userId,
              attemptNumber: 1,
              status: "submitted" as const,
              startedAt: new Date(attempt.at.getTime() - 15 * 60_000),
              submittedAt: attempt.at,
              questions,
              answers: {},
              results: [],
              totalPoints,
              earnedPoints: Math.round((totalPoints * attempt.score) / 100),
              score: attempt.score,
              passingScore: attempt.quiz.passingScore,
              passed: attempt.score >= attempt.quiz.passingScore,
              updatedAt: attempt.at,
            },
          ];
        }),
        (batch) => tx.insert(quizAttempts).values(batch),
      );
      summary.learners += people.length;
    });
    options.onProgress?.(summary.learners);
  }

  // The learners counted on each course card, as the learning capability keeps them: enrolments opened and not cancelled.
  await db.execute(sql`insert into ${courseLearnerCounts} (course_id, learners)
    select course_id, count(*)::int from ${enrolments} where status in ('active', 'completed', 'paused') group by course_id
    on conflict (course_id) do update set learners = excluded.learners`);
  return summary;
}
