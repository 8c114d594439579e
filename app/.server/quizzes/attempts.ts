/**
 * Learners' attempts, one module per step: start (attempt-start), save as given (attempt-save),
 * submit and the offline replay (attempt-submit), grade and close, the deadline job included
 * (attempt-grade), and what the learner reads (attempt-read). This module keeps their one address.
 */
export { CLOSE_ATTEMPT_QUEUE, startAttempt } from "./attempt-start";
export { saveAnswers, unansweredBeforeSubmit } from "./attempt-save";
export { recordOfflineAttempt, submitAttempt } from "./attempt-submit";
export { closeAttemptAtDeadline } from "./attempt-grade";
export { getLearnerAttempt, getLearnerQuiz, listLearnerQuizzes } from "./attempt-read";
