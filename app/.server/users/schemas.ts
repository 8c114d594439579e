import { z } from "zod";
import { roles, roleWords } from "~/lib/roles";
import { wordChoice } from "~/lib/schemas";

/** Filters of the user list, read from the query string; anything unknown falls back to "all". */
export const userFiltersSchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  role: wordChoice(roleWords, "all"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type UserFilters = z.infer<typeof userFiltersSchema>;

export function parseUserFilters(searchParams: URLSearchParams): UserFilters {
  return userFiltersSchema.parse({
    q: searchParams.get("q") ?? undefined,
    role: searchParams.get("role") ?? undefined,
    page: searchParams.get("page") ?? undefined,
  });
}

const name = (label: string) =>
  z
    .string({ error: `${label} est obligatoire.` })
    .trim()
    .min(1, `${label} est obligatoire.`)
    .max(100, `${label} ne doit pas dépasser 100 caractères.`);

export const roleSchema = z.enum(roles, { error: "Choisissez un rôle valide." });

/** The "Nouvel utilisateur" form. */
export const newUserSchema = z.object({
  firstName: name("Le prénom"),
  lastName: name("Le nom"),
  email: z
    .string({ error: "L'adresse e-mail est obligatoire." })
    .trim()
    .min(1, "L'adresse e-mail est obligatoire.")
    .max(254, "L'adresse e-mail est trop longue.")
    .pipe(z.email("Saisissez une adresse e-mail valide, par exemple nom@exemple.com."))
    .transform((value) => value.toLowerCase()),
  role: roleSchema,
});
export type NewUserInput = z.infer<typeof newUserSchema>;

const userId = z.string().trim().min(1).max(100);

/** Every form of /admin/users posts an `intent`; one schema per intent. */
export const userActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("change-role"), userId, role: roleSchema }),
  z.object({
    intent: z.literal("create"),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    email: z.string().optional(),
    role: z.string().optional(),
  }),
  z.object({ intent: z.literal("deactivate"), userId }),
  z.object({ intent: z.literal("reactivate"), userId }),
  z.object({ intent: z.literal("resend-invitation"), userId }),
]);
export type UserAction = z.infer<typeof userActionSchema>;

/** Field errors of a zod error, first message per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const result: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    result[key] ??= issue.message;
  }
  return result;
}
