/**
 * Quizzes: authoring (/teacher/quiz), learners' attempts (start, save as given, submit, the
 * deadline job), and results (filter, sort, CSV, analytics). Owns the quizzes and quiz_attempts
 * tables. Other capabilities import it through this module.
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
export {
  bestQuizScores,
  exportQuizResultsCsv,
  getQuizAnalytics,
  listQuizResults,
  parseResultFilters,
  resultFiltersSchema,
  type ResultFilters,
} from "./results";
