/**
 * Learning: enrolments (who follows which course, seats, opening and closing), progress through
 * the lessons, what the learner sees (Mes Formations, the course home, the player, the dashboard)
 * and who may read a lesson's files. Owns the enrolments and lesson_progress tables.
 */
export {
  activateEnrolment,
  cancelEnrolment,
  closeEnrolmentsOf,
  followsCourse,
  getEnrolment,
  recomputeCourseProgress,
  recomputeProgress,
  seatsLeft,
  startEnrolment,
  type Enrolment,
  type EnrolmentStart,
  type EnrolmentStatus,
} from "./enrolments";
export { canManageEnrolments, FOLLOWING, followingEnrolment, isFollowing } from "./policy";
export { COMPLETION_CHECK_QUEUE, requestCompletionCheck, type CompletionCheck } from "./completion";
export { getReadableFile } from "./file-access";
export { getOfflinePlan, recordOfflineProgress, type OfflinePlan } from "./offline";
export {
  getLearnerCourse,
  getLessonForViewer,
  getStudentDashboard,
  listAvailableCourses,
  listMyEnrolments,
  openLesson,
  saveVideoPosition,
  setLessonDone,
  type MyEnrolment,
} from "./learner";
export {
  changeEnrolment,
  ENROLMENT_ACTIONS,
  enrolByHand,
  GRANT_KINDS,
  listCourseEnrolments,
  listCoursesForEnrolments,
  type EnrolmentAction,
} from "./management";
