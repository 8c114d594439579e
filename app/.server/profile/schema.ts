import { z } from "zod";

/** Profile form rules (document 2, "Profile"); messages in French, shown beside each field. */
export const profileMessages = {
  firstNameRequired: "Le prénom est obligatoire.",
  firstNameTooLong: "Le prénom ne doit pas dépasser 80 caractères.",
  lastNameRequired: "Le nom est obligatoire.",
  lastNameTooLong: "Le nom ne doit pas dépasser 80 caractères.",
  phoneFormat: "Le numéro doit commencer par +223 suivi de 8 chiffres (par exemple +223 76 12 34 56).",
  updated: "Profil mis à jour avec succès",
  updateFailed: "Impossible de mettre à jour le profil",
  loadFailed: "Impossible de charger le profil",
} as const;

/**
 * A Malian number: +223 then 8 digits, spaces allowed anywhere ("+223 76 12 34 56",
 * "+22376123456"). Returned in the grouped form "+223 76 12 34 56"; empty means no number.
 */
export function normalizeMalianPhone(raw: string): string | null | undefined {
  const trimmed = raw.trim();
  if (trimmed === "") return null;
  const compact = trimmed.replace(/\s+/g, "");
  const match = /^\+223(\d{8})$/.exec(compact);
  if (!match) return undefined;
  const digits = match[1]!;
  return `+223 ${digits.replace(/(\d{2})(?=\d)/g, "$1 ")}`;
}

const name = (required: string, tooLong: string) =>
  z
    .string({ error: required })
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(1, required).max(80, tooLong));

export const profileUpdateSchema = z.object({
  firstName: name(profileMessages.firstNameRequired, profileMessages.firstNameTooLong),
  lastName: name(profileMessages.lastNameRequired, profileMessages.lastNameTooLong),
  phone: z
    .string()
    .optional()
    .default("")
    .transform((value, ctx) => {
      const normalized = normalizeMalianPhone(value);
      if (normalized === undefined) {
        ctx.addIssue({ code: "custom", message: profileMessages.phoneFormat });
        return z.NEVER;
      }
      return normalized;
    }),
});

export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
export type ProfileField = keyof ProfileUpdate;
