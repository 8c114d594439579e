/**
 * Quizzes: authoring (/teacher/quiz), learners' attempts (start, save as given, submit, the
 * deadline job), one more attempt opened to a learner by their teacher, and results (filter, sort,
 * CSV, analytics). Owns the quizzes, quiz_attempts and quiz_attempt_grants tables. Other
 * capabilities import it through this module.
 */
export {
  createQuiz,
  deleteQuiz,
  getManagedQuiz,
  listManagedQuizzes,
  listQuizPlacementOptions,
  MISSING_DATA,
  MISSING_QUESTION,
  quizFormValuesOf,
  updateQuiz,
  type Quiz,
} from "./authoring";
export {
  CLOSE_ATTEMPT_QUEUE,
  closeAttemptAtDeadline,
  getLearnerAttempt,
  getLearnerQuiz,
  listLearnerQuizzes,
  recordOfflineAttempt,
  saveAnswers,
  startAttempt,
  submitAttempt,
  unansweredBeforeSubmit,
} from "./attempts";
export { attemptsSpent, grantExtraAttempt, learnerAttemptLimit } from "./grants";
export {
  bestQuizScores,
  exportQuizResultsCsv,
  getQuizAnalytics,
  listQuizResults,
  parseResultFilters,
  resultFiltersSchema,
  type ResultFilters,
} from "./results";
