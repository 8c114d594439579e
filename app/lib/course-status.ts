/** Course statuses and their French labels. Browser-safe (no server imports). */
export const courseStatuses = ["draft", "published", "archived"] as const;
export type CourseStatus = (typeof courseStatuses)[number];

export const courseStatusLabels: Record<CourseStatus, string> = {
  draft: "Brouillon",
  published: "Publié",
  archived: "Archivé",
};

/** The course lists' status filter and each status's word in the URL (?statut=publies). */
export const courseStatusWords = { all: "tous", draft: "brouillons", published: "publies", archived: "archives" } as const;

export function isCourseStatus(value: unknown): value is CourseStatus {
  return typeof value === "string" && (courseStatuses as readonly string[]).includes(value);
}
