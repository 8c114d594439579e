import { z } from "zod";
import { firstNameSchema, lastNameSchema, phoneSchema } from "~/lib/schemas";

/** Profile form rules (document 2, "Profile"): the shared schemas of names and phone numbers. */
export const profileMessages = {
  updated: "Profil mis à jour avec succès",
  updateFailed: "Impossible de mettre à jour le profil",
  loadFailed: "Impossible de charger le profil",
} as const;

export const profileUpdateSchema = z.object({ firstName: firstNameSchema, lastName: lastNameSchema, phone: phoneSchema });

export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
export type ProfileField = keyof ProfileUpdate;
