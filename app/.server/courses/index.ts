/**
 * Courses: authoring (the course form: a course, its lessons, its files), statuses, the readers a
 * course's managers use, the announcement of new lessons to the learners, and the rules of who may
 * do what (policy.ts). Owns the courses and lessons tables.
 */
export { courseNotFound, getManagedCourse, type Course } from "./access";
export {
  announceNewLessons,
  LESSONS_ANNOUNCEMENT_DELAY_MS,
  LESSONS_ANNOUNCEMENT_QUEUE,
  queueLessonsAnnouncement,
  type LessonsAnnouncementJob,
} from "./announcements";
export {
  createCourse,
  describeFormFiles,
  formFileIds,
  getCourseForEditing,
  getCourseFormValues,
  listCourseFormOptions,
  slugify,
  updateCourse,
  type CourseForEditing,
  type FormFile,
  type Lesson,
  type SavedCourse,
} from "./authoring";
export {
  attachContentFile,
  CONTENT_LIST_LIMIT,
  deleteContentFile,
  detachContentFile,
  listCourseContent,
  renameContentFile,
  replaceContentFile,
  type ContentCourse,
  type ContentFile,
  type CourseContent,
} from "./content";
export { courseFormSchema, type CourseFormData, type CourseFormInput } from "./form-schema";
export * from "./policy";
export { changeCourseStatus } from "./status";
