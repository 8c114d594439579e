/**
 * Teaching: a teacher's own settings — the public bio and photo shown on their course pages, and
 * where their commissions are paid (mobile money or bank). Owns the teacher_profiles table.
 * Finance reads the payout details through `getPayoutDetails` / `listPayoutDetails`.
 */
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { BIO_MAX, mobileMoneyOperators, payoutMethods, type MobileMoneyOperator, type PayoutMethod } from "~/lib/teaching";
import { optionalText, phoneSchema } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { files, teacherProfiles, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { canUseUnattachedFile } from "../files";
import { canEditTeacherProfile, canListPayoutDetails, canReadPayoutDetails } from "./policy";

export * from "./policy";

export type PayoutDetails =
  | { method: "mobile_money"; operator: MobileMoneyOperator; number: string; updatedAt: Date }
  | { method: "bank"; bankName: string; accountHolder: string; accountNumber: string; updatedAt: Date };

export interface TeacherProfile {
  bio: string;
  photoFileId: string | null;
  payout: PayoutDetails | null;
}

const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const teacherProfileSchema = z
  .object({
    bio: optionalText({ label: "La présentation", max: BIO_MAX }),
    payoutMethod: z.preprocess(blank, z.enum(payoutMethods, { error: "Choisissez un moyen de paiement." }).optional()),
    mobileMoneyOperator: z.preprocess(blank, z.enum(mobileMoneyOperators, { error: "Choisissez l'opérateur." }).optional()),
    mobileMoneyNumber: phoneSchema,
    bankName: optionalText({ label: "Le nom de la banque", max: 100 }),
    bankAccountHolder: optionalText({ label: "Le titulaire du compte", max: 100 }),
    bankAccountNumber: z.preprocess(
      (value) => (typeof value === "string" ? value.replace(/[\s-]/g, "").toUpperCase() : value),
      z
        .string()
        .max(34, "Le RIB ou l'IBAN ne doit pas dépasser 34 caractères.")
        .regex(/^([A-Z0-9]{10,34})?$/, "Saisissez le RIB ou l'IBAN : lettres et chiffres, 10 caractères au moins.")
        .default(""),
    ),
  })
  .superRefine((data, ctx) => {
    if (data.payoutMethod === "mobile_money") {
      if (!data.mobileMoneyOperator) ctx.addIssue({ code: "custom", path: ["mobileMoneyOperator"], message: "Choisissez l'opérateur." });
      if (!data.mobileMoneyNumber)
        ctx.addIssue({ code: "custom", path: ["mobileMoneyNumber"], message: "Le numéro mobile money est obligatoire." });
    }
    if (data.payoutMethod === "bank") {
      if (!data.bankName) ctx.addIssue({ code: "custom", path: ["bankName"], message: "Le nom de la banque est obligatoire." });
      if (!data.bankAccountHolder)
        ctx.addIssue({ code: "custom", path: ["bankAccountHolder"], message: "Le titulaire du compte est obligatoire." });
      if (!data.bankAccountNumber)
        ctx.addIssue({ code: "custom", path: ["bankAccountNumber"], message: "Le RIB ou l'IBAN est obligatoire." });
    }
  });

type ProfileRow = typeof teacherProfiles.$inferSelect;

function payoutOf(row: ProfileRow | undefined): PayoutDetails | null {
  if (!row?.payoutMethod) return null;
  if (row.payoutMethod === "mobile_money" && row.mobileMoneyOperator && row.mobileMoneyNumber) {
    return {
      method: "mobile_money",
      operator: row.mobileMoneyOperator as MobileMoneyOperator,
      number: row.mobileMoneyNumber,
      updatedAt: row.updatedAt,
    };
  }
  if (row.payoutMethod === "bank" && row.bankName && row.bankAccountHolder && row.bankAccountNumber) {
    return {
      method: "bank",
      bankName: row.bankName,
      accountHolder: row.bankAccountHolder,
      accountNumber: row.bankAccountNumber,
      updatedAt: row.updatedAt,
    };
  }
  return null;
}

/** A teacher's settings, for themself (or an admin). */
export async function getTeacherProfile(db: Database, actor: Actor, teacherId = actor.id): Promise<TeacherProfile> {
  if (!canEditTeacherProfile(actor, teacherId)) throw AppError.notFound("Enseignant introuvable.");
  const [row] = await db.select().from(teacherProfiles).where(eq(teacherProfiles.userId, teacherId));
  return { bio: row?.bio ?? "", photoFileId: row?.photoFileId ?? null, payout: payoutOf(row) };
}

/** The public part (a course page's "Votre formateur"): name, bio and photo; null when the account is gone or closed. */
export async function getPublicTeacherProfile(
  db: Database,
  teacherId: string,
): Promise<{ name: string; bio: string; photoFileId: string | null } | null> {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      banned: users.banned,
      bio: teacherProfiles.bio,
      photoFileId: teacherProfiles.photoFileId,
    })
    .from(users)
    .leftJoin(teacherProfiles, eq(teacherProfiles.userId, users.id))
    .where(eq(users.id, teacherId));
  if (!row || row.banned) return null;
  return { name: `${row.firstName} ${row.lastName}`.trim(), bio: row.bio ?? "", photoFileId: row.photoFileId ?? null };
}

/** Saves the bio and the payout details (the fields of the other method are cleared). */
export async function saveTeacherProfile(db: Database, actor: Actor, input: unknown, now = new Date(), teacherId = actor.id) {
  if (!canEditTeacherProfile(actor, teacherId)) throw AppError.notFound("Enseignant introuvable.");
  const data = validate(teacherProfileSchema, input);
  const values = {
    bio: data.bio,
    payoutMethod: data.payoutMethod ?? null,
    mobileMoneyOperator: data.payoutMethod === "mobile_money" ? data.mobileMoneyOperator! : null,
    mobileMoneyNumber: data.payoutMethod === "mobile_money" ? data.mobileMoneyNumber : null,
    bankName: data.payoutMethod === "bank" ? data.bankName : null,
    bankAccountHolder: data.payoutMethod === "bank" ? data.bankAccountHolder : null,
    bankAccountNumber: data.payoutMethod === "bank" ? data.bankAccountNumber : null,
    updatedAt: now,
  };
  await db
    .insert(teacherProfiles)
    .values({ userId: teacherId, ...values })
    .onConflictDoUpdate({ target: teacherProfiles.userId, set: values });
}

/**
 * Sets (or removes, with null) the teacher's photo: an image the teacher (or an admin) has just
 * uploaded and that no course uses. From then on it is public (on their course pages) and kept by
 * the maintenance job; the photo it replaces is released to it.
 */
export async function setTeacherPhoto(db: Database, actor: Actor, fileId: string | null, now = new Date(), teacherId = actor.id) {
  if (!canEditTeacherProfile(actor, teacherId)) throw AppError.notFound("Enseignant introuvable.");
  if (fileId !== null) {
    const [file] = await db
      .select({ purpose: files.purpose, courseId: files.courseId, uploadedBy: files.uploadedBy })
      .from(files)
      .where(eq(files.id, fileId));
    if (!file || file.courseId !== null || !canUseUnattachedFile(actor, file)) {
      throw AppError.invalid({ photoFileId: "Cette image n'est plus disponible : envoyez-la de nouveau." });
    }
    if (file.purpose !== "thumbnail") {
      throw AppError.invalid({ photoFileId: "La photo doit être une image JPEG, PNG ou WebP." });
    }
  }
  await db
    .insert(teacherProfiles)
    .values({ userId: teacherId, photoFileId: fileId, updatedAt: now })
    .onConflictDoUpdate({ target: teacherProfiles.userId, set: { photoFileId: fileId, updatedAt: now } });
}

/** Whether a stored file is a teacher's photo (public: it is shown on their course pages). */
export async function isTeacherPhoto(db: Database, fileId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: teacherProfiles.userId })
    .from(teacherProfiles)
    .where(eq(teacherProfiles.photoFileId, fileId))
    .limit(1);
  return row !== undefined;
}

/**
 * Where a teacher's commissions are paid (finance, issue 15): null when they gave none.
 * For the teacher themself and administrators; anyone else gets "not found".
 */
export async function getPayoutDetails(db: Database, actor: Actor, teacherId: string): Promise<PayoutDetails | null> {
  if (!canReadPayoutDetails(actor, teacherId)) throw AppError.notFound("Enseignant introuvable.");
  const [row] = await db.select().from(teacherProfiles).where(eq(teacherProfiles.userId, teacherId));
  return payoutOf(row);
}

/** Payout details of several teachers at once (admins only): teacherId → details (absent: none given). */
export async function listPayoutDetails(db: Database, actor: Actor, teacherIds: string[]): Promise<Map<string, PayoutDetails>> {
  if (!canListPayoutDetails(actor)) throw AppError.forbidden("Réservé aux administrateurs.");
  if (!teacherIds.length) return new Map();
  const rows = await db.select().from(teacherProfiles).where(inArray(teacherProfiles.userId, teacherIds));
  const result = new Map<string, PayoutDetails>();
  for (const row of rows) {
    const payout = payoutOf(row);
    if (payout) result.set(row.userId, payout);
  }
  return result;
}

export type { MobileMoneyOperator, PayoutMethod };
