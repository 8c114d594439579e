/** Course statuses and their French labels. Browser-safe (no server imports). */
export const courseStatuses = ["draft", "published", "archived"] as const;
export type CourseStatus = (typeof courseStatuses)[number];

export const courseStatusLabels: Record<CourseStatus, string> = {
  draft: "Brouillon",
  published: "Publié",
  archived: "Archivé",
};

export function isCourseStatus(value: unknown): value is CourseStatus {
  return typeof value === "string" && (courseStatuses as readonly string[]).includes(value);
}
