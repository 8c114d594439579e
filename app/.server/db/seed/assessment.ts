import { canTeach } from "~/lib/roles";
import { and, asc, eq, like } from "drizzle-orm";
import { gradeAttempt, prepareAttemptQuestions, seededRandom, type QuizQuestion } from "~/lib/quiz";
import type { Database } from "../client";
import { requestCompletionCheck } from "../../learning";
import { courses, enrolments, lessons, quizAttempts, quizzes, users } from "../schema";
import { seedAssessments } from "./assessment-data";
import { demoAccounts } from "./demo-accounts";

/** The template paragraph the catalogue seed gives every lesson: replaced by the module's own text, never a teacher's. */
const TEMPLATE_START = "Ce module porte sur : ";

function questionsOf(slug: string): QuizQuestion[] {
  return seedAssessments[slug]!.questions.map((question, index) => {
    const base = { id: `q_seed_${slug.slice(0, 12)}_${index + 1}`, question: question.q, points: 1, explanation: question.why };
    if (question.type === "qcm")
      return { ...base, type: "multiple_choice", options: [...question.options], correctAnswer: String(question.answer) };
    if (question.type === "vf") return { ...base, type: "true_false", options: [], correctAnswer: String(question.answer) };
    return { ...base, type: "short_answer", options: [], correctAnswer: question.answer };
  });
}

/** Questions a final exam asks per attempt, drawn from its eight. */
const FINAL_DRAW = 6;

/**
 * The seeded courses' final quiz (required for the certificate, drawn from a pool and shuffled), their lessons' own texts, and in a
 * trial the demo learners' attempts: the demo student's first at "Intelligence Artificielle"
 * (failed, two attempts left), and a pass at each course a demo learner finished. Idempotent: a
 * course that has (or had) a quiz gets none, a lesson already edited keeps its text.
 */
export async function seedAssessment(db: Database, options: { demoAccounts?: boolean } = {}) {
  await db.transaction(async (tx) => {
    for (const [slug, content] of Object.entries(seedAssessments)) {
      const [course] = await tx.select({ id: courses.id, title: courses.title }).from(courses).where(eq(courses.slug, slug));
      if (!course) continue;
      const courseLessons = await tx
        .select({ id: lessons.id, content: lessons.content })
        .from(lessons)
        .where(eq(lessons.courseId, course.id))
        .orderBy(asc(lessons.position), asc(lessons.id));
      for (const [index, lesson] of courseLessons.entries()) {
        const text = content.lessons[index];
        if (text && lesson.content.startsWith(TEMPLATE_START))
          await tx
            .update(lessons)
            .set({ content: text })
            .where(and(eq(lessons.id, lesson.id), like(lessons.content, `${TEMPLATE_START}%`)));
      }
      if ((await tx.$count(quizzes, eq(quizzes.courseId, course.id))) > 0) continue;
      await tx.insert(quizzes).values({
        courseId: course.id,
        title: `Évaluation finale : ${course.title}`,
        description:
          "Six questions tirées au hasard parmi huit, sur l'ensemble des modules : chaque tentative reçoit un autre tirage. 70 % de bonnes réponses valident la formation et ouvrent le certificat. La correction s'ouvre après votre dernière tentative ou votre réussite.",
        questions: questionsOf(slug),
        // A certifying exam: a pool larger than the draw, shuffled, its answers kept until the last attempt or a pass.
        drawCount: FINAL_DRAW,
        timeLimitMinutes: 20,
        maxAttempts: 3,
        passingScore: 70,
        shuffleQuestions: true,
        shuffleOptions: true,
        corrections: "after_last_attempt",
        required: true,
      });
    }
  });
  if (options.demoAccounts) {
    await seedDemoAttempt(db);
    await seedDemoPasses(db);
  }
}

type Quiz = typeof quizzes.$inferSelect;

/**
 * A demo learner's graded attempt, as the quizzes capability leaves a submitted one: the quiz's
 * draw for it (from a fixed seed, so the demo is the same each time), answered by `answer`
 * (each drawn question and its position → the answer given, or none).
 */
async function insertAttempt(
  db: Database,
  quiz: Quiz,
  userId: string,
  answer: (question: QuizQuestion, index: number) => string | null,
  submittedAt: Date,
) {
  const questions = prepareAttemptQuestions(quiz.questions, quiz, seededRandom(`demo:${quiz.id}:${userId}`));
  const answers: Record<string, string> = {};
  questions.forEach((question, index) => {
    const given = answer(question, index);
    if (given !== null) answers[question.id] = given;
  });
  const grade = gradeAttempt(questions, answers, quiz.passingScore);
  const startedAt = new Date(submittedAt.getTime() - 14 * 60 * 1000);
  await db.insert(quizAttempts).values({
    quizId: quiz.id,
    userId,
    attemptNumber: 1,
    status: "submitted",
    startedAt,
    deadlineAt: quiz.timeLimitMinutes ? new Date(startedAt.getTime() + quiz.timeLimitMinutes * 60_000) : null,
    submittedAt,
    questions,
    answers,
    results: grade.results,
    totalPoints: grade.totalPoints,
    earnedPoints: grade.earnedPoints,
    score: grade.score,
    passingScore: quiz.passingScore,
    passed: grade.passed,
    updatedAt: submittedAt,
  });
}

/** The demo learner tried the "Intelligence Artificielle" final quiz once, three weeks ago: 4 of 6, failed. */
async function seedDemoAttempt(db: Database) {
  const student = demoAccounts.find((account) => !canTeach(account.role));
  if (!student) return;
  const [row] = await db
    .select({ userId: users.id, quiz: quizzes })
    .from(users)
    .innerJoin(courses, eq(courses.slug, "intelligence-artificielle"))
    .innerJoin(quizzes, eq(quizzes.courseId, courses.id))
    .where(eq(users.email, student.email))
    .orderBy(asc(quizzes.id))
    .limit(1);
  if (!row || (await db.$count(quizAttempts, and(eq(quizAttempts.userId, row.userId), eq(quizAttempts.quizId, row.quiz.id)))) > 0) return;
  // Right on the first four questions drawn, wrong on the fifth, the last left blank: 4 of 6, failed.
  const wrong = (question: QuizQuestion) =>
    question.type === "true_false"
      ? String(question.correctAnswer !== "true")
      : question.type === "multiple_choice"
        ? String((Number(question.correctAnswer) + 1) % question.options.length)
        : "Je ne sais pas";
  await insertAttempt(
    db,
    row.quiz,
    row.userId,
    (question, index) => (index < 4 ? question.correctAnswer : index < 5 ? wrong(question) : null),
    new Date(Date.now() - 21 * 24 * 3600 * 1000 + 14 * 60 * 1000),
  );
}

/**
 * The demo learners who finished a course passed its final quiz the day after their last lesson
 * (all right but the last question), and ask for their certificate as the quizzes capability does:
 * the completion check runs once the app's jobs start, and issues it, signed, with its notification.
 */
const demoPasses = [
  { email: "etudiant@campus.test", slug: "energie-solaire" },
  { email: "moussa.diallo@campus.test", slug: "intelligence-artificielle" },
];

async function seedDemoPasses(db: Database) {
  for (const pass of demoPasses) {
    const [row] = await db
      .select({ userId: users.id, courseId: courses.id, completedAt: enrolments.completedAt, quiz: quizzes })
      .from(users)
      .innerJoin(courses, eq(courses.slug, pass.slug))
      .innerJoin(enrolments, and(eq(enrolments.userId, users.id), eq(enrolments.courseId, courses.id), eq(enrolments.status, "completed")))
      .innerJoin(quizzes, and(eq(quizzes.courseId, courses.id), eq(quizzes.required, true)))
      .where(eq(users.email, pass.email))
      .orderBy(asc(quizzes.id))
      .limit(1);
    if (!row?.completedAt) continue;
    const { userId, courseId, quiz } = row;
    if ((await db.$count(quizAttempts, and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quiz.id)))) > 0) continue;
    const submittedAt = new Date(Math.min(row.completedAt.getTime() + 24 * 3600 * 1000, Date.now() - 3600 * 1000));
    await db.transaction(async (tx) => {
      await insertAttempt(tx, quiz, userId, (question, index) => (index < FINAL_DRAW - 1 ? question.correctAnswer : null), submittedAt);
      await requestCompletionCheck(tx, { userId, courseId });
    });
  }
}
