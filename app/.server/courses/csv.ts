import { courseStatusLabels } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { toCsv } from "../users/csv";
import { listManagedCourses, type CourseFilters } from "./list";

const CSV_HEADER = ["Titre", "Catégorie", "Niveau", "Statut", "Prix (FCFA)", "Leçons", "Durée totale (min)", "Inscriptions", "Enseignant", "Mis à jour le"] as const;

const dateFormatter = new Intl.DateTimeFormat("fr-FR", { timeZone: "Africa/Bamako", day: "2-digit", month: "2-digit", year: "numeric" });

/** The courses of the current search and filters, as the list shows them, in a CSV document. */
export async function exportCoursesCsv(db: Database, actor: Actor, filters: Partial<CourseFilters> = {}, now = new Date()) {
  const rows = await listManagedCourses(db, actor, filters);
  const body = toCsv(
    CSV_HEADER,
    rows.map((row) => [
      row.title,
      row.categoryName,
      row.levelName,
      courseStatusLabels[row.status],
      row.priceFcfa,
      row.lessonCount,
      row.totalMinutes,
      row.enrolmentCount,
      row.instructorName ?? "",
      dateFormatter.format(row.updatedAt),
    ]),
  );
  return { filename: `cours-${now.toISOString().slice(0, 10)}.csv`, body, count: rows.length };
}
