import { formatNumber } from "~/lib/format";
import { z } from "zod";
import { courseStatuses } from "~/lib/course-status";

/**
 * The course form, validated on the server. It accepts the form's strings (what
 * app/lib/course-form.ts reads from a FormData) as well as typed values (numbers, booleans), so
 * that tests and other callers need not stringify. Integers must be whole numbers: "12,5", "abc"
 * or "-3" are field errors, never a silent 0; an empty price or duration means 0.
 */

const blankToUndefined = (value: unknown) => ((typeof value === "string" && value.trim() === "") || value === null ? undefined : value);

function integer(label: string, { min, max, empty }: { min: number; max: number; empty: number | null }) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number | null => {
      if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return empty;
      // Spaces are thousands separators in French ("120 000").
      const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.replace(/[\s\u00a0\u202f]/g, "") : "";
      if (!/^-?\d+$/.test(text)) {
        ctx.addIssue({ code: "custom", message: `${label} doit être un nombre entier.` });
        return z.NEVER;
      }
      const number = Number(text);
      if (number < min) ctx.addIssue({ code: "custom", message: `${label} doit valoir au moins ${min}.` });
      else if (number > max) ctx.addIssue({ code: "custom", message: `${label} ne doit pas dépasser ${formatNumber(max)}.` });
      return number;
    });
}

const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Ce texte ne doit pas dépasser ${max} caractères.`);

const optionalText = (max: number) =>
  z.preprocess((value) => value ?? "", z.string().trim().max(max, `Ce texte ne doit pas dépasser ${max} caractères.`));

/** An http(s) link, or nothing (null). */
const optionalUrl = (message: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(2000, message)
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
        } catch {
          return false;
        }
      }, message)
      .optional()
      .transform((value) => value ?? null),
  );

/** A datetime-local value ("2026-12-01T18:00"), in Bamako time (UTC all year), or nothing (null). */
const optionalDateTime = z.preprocess(
  blankToUndefined,
  z
    .union([
      z.date(),
      z
        .string()
        .trim()
        .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "Saisissez une date et une heure valides."),
    ])
    .transform((value, ctx) => {
      const date = value instanceof Date ? value : new Date(`${value}Z`);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: "Saisissez une date et une heure valides." });
        return z.NEVER;
      }
      return date;
    })
    .optional()
    .transform((value) => value ?? null),
);

/** A files.id given by the upload widget; "" or null removes the file, undefined keeps it. */
const fileId = z
  .union([z.string().trim().max(100), z.null()])
  .optional()
  .transform((value) => (value === undefined ? undefined : value || null));

const textList = (label: string) =>
  z
    .array(z.string().trim().max(500, `${label} : 500 caractères au plus.`), { error: `${label} : liste invalide.` })
    .max(50, `${label} : 50 éléments au plus.`)
    .default([])
    .transform((items) => items.filter((item) => item !== ""));

const lessonSchema = z.object({
  id: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: "Leçon inconnue." }).int("Leçon inconnue.").positive("Leçon inconnue.").optional(),
  ),
  title: requiredText("Le titre de la leçon est obligatoire.", 200),
  description: optionalText(2000),
  content: optionalText(100_000),
  videoUrl: optionalUrl("Saisissez un lien vidéo valide (http:// ou https://)."),
  videoFileId: fileId,
  attachmentIds: z.array(z.string().trim().min(1).max(100)).max(50, "50 documents au plus par leçon.").optional(),
  durationMinutes: integer("La durée de la leçon", { min: 0, max: 10_000, empty: 0 }).transform((value) => value ?? 0),
  isFree: z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean()),
});

export const courseFormSchema = z.object({
  title: requiredText("Le titre est obligatoire.", 200),
  description: requiredText("La description est obligatoire.", 5000),
  category: requiredText("Choisissez une catégorie.", 100),
  level: requiredText("Choisissez un niveau.", 100),
  durationWeeks: integer("La durée", { min: 0, max: 520, empty: 0 }).transform((value) => value ?? 0),
  priceFcfa: integer("Le prix", { min: 0, max: 100_000_000, empty: 0 }).transform((value) => value ?? 0),
  maxStudents: integer("Le nombre maximum d'étudiants", { min: 1, max: 100_000, empty: null }),
  liveSessionUrl: optionalUrl("Saisissez un lien valide (http:// ou https://)."),
  nextLiveAt: optionalDateTime,
  status: z.preprocess(blankToUndefined, z.enum(courseStatuses, { error: "Choisissez un statut valide." }).default("draft")),
  objectives: textList("Objectifs"),
  prerequisites: textList("Prérequis"),
  lessons: z.array(lessonSchema).max(200, "200 leçons au plus.").default([]),
  thumbnailFileId: fileId,
  /** Admins only (checked by the capability); blank means "keep" (or "me" on creation). */
  instructorId: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
});

export type CourseFormInput = z.input<typeof courseFormSchema>;
export type CourseFormData = z.output<typeof courseFormSchema>;
