/**
 * One factory per entity, for every test: each creates what it needs through the capability that
 * owns it (so a test never builds a row the application could not), with sensible defaults and a
 * unique e-mail or title, and returns what later calls take (a TestUser is an Actor and a Payer).
 *
 *   const teacher = await createUser(db, { role: "teacher" });
 *   const { course, lessons } = await createCourse(db, { instructor: teacher, priceFcfa: 0 });
 *   const learner = await createUser(db);
 *   await enrol(db, learner, course);
 */
export { createContactMessage, type ContactMessageOverrides } from "./contact";
export { createCourse, type CourseOverrides, type LessonOverrides } from "./courses";
export { createStoredFile, sampleBytes, testUploadLimits, type StoredFileOverrides } from "./files";
export { createReply, createThread } from "./forum";
export { enrol } from "./learning";
export { createNotification } from "./notifications";
export { cashOnlyPayments, createPayment } from "./payments";
export { createSignedInUser, createUser, TEST_PASSWORD, type TestUser, type UserOverrides } from "./users";
export { createReview } from "./reviews";
export { createQuiz, DEFAULT_QUESTIONS, rightAnswers, takeQuiz, type QuizOverrides } from "./quizzes";
