/**
 * The read model: figures that cross capabilities (a course's learners and revenue today;
 * analytics, finance, commissions and the teacher dashboard next), read with Drizzle from the
 * tables their owners write. It writes nothing, and filters every list through the owners' policies.
 */
export {
  courseFiltersSchema,
  exportCoursesCsv,
  getManagedCourseStats,
  listManagedCourses,
  parseCourseFilters,
  type CourseFilters,
  type ManagedCourse,
  type ManagedCourseStats,
} from "./courses";
export { getTeacherDashboard, listTeacherActivity, type TeacherActivity } from "./teacher";
export {
  exportTeacherStudentsCsv,
  getTeacherStudent,
  listTeacherStudents,
  parseStudentFilters,
  type StudentFilters,
  type StudentRow,
} from "./teacher-students";
export { getTeacherAnalytics, parseAnalyticsFilters, type AnalyticsFilters, type TeacherAnalytics } from "./teacher-analytics";
export {
  getBreakdowns,
  getDashboardStats,
  getFinanceSummary,
  getMonthlyFigures,
  getTopCourses,
  lastMonths,
  listPeriodTransactions,
  type PeriodTransaction,
  windowOf,
  type Breakdown,
  type DashboardStats,
  type FinanceSummary,
  type MonthlyFigures,
  type TopCourse,
  type Trend,
  type Window,
} from "./admin";
export {
  getAdvancedAnalytics,
  paymentMethodOrder,
  PROJECTION_BASIS_MONTHS,
  PROJECTION_MIN_MONTHS,
  type AdvancedAnalytics,
  type Projection,
  type TimelineBucket,
} from "./admin-analytics";
export { buildReport, isReportKind, reportKinds, type ReportKind } from "./documents";
export { myDataCsvFiles, myDataJson, myDataZip, readMyData, type MyData } from "./learner-data";
export { collectedRevenue, commissionsEarned, netRevenue, refundsMade, revenueFigures, type RevenueFigures } from "./revenue";
export { countPlatformLearners } from "./public-figures";
