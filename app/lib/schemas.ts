import { formatNumber } from "./format";
import { z } from "zod";
import { LIMITS, MAX_SERIAL_ID } from "./limits";
import { passwordMessages } from "./password-policy";
import { parsePhone } from "./phone";

export { LIMITS, MAX_SERIAL_ID } from "./limits";

/**
 * One zod schema per kind of input, with one set of French messages, shared by every form's route
 * schema and every capability: an e-mail, a name or a receipt number is checked the same way
 * wherever it is typed. Build a form's schema from these pieces and put the same `LIMITS` in its
 * fields' `maxLength` (import them from ~/lib/limits in components: that module has no zod).
 *
 *   const signUp = z.object({ firstName: firstNameSchema, lastName: lastNameSchema, email: emailSchema, password: passwordSchema });
 *   const filters = z.object({ q: searchQuerySchema, statut: wordChoice({ all: "tous", pending: "en-attente" }, "all"), page: pageSchema });
 *
 * Every typed text passes through `requiredText` or `optionalText` (trimmed, NFC, bounded), so a
 * rule that holds for all text (control characters, for instance) is added there once.
 */

const grouped = (count: number) => formatNumber(count);

/** `label` carries its article: "Le prénom", "La description", "L'adresse e-mail". */
export const textMessages = {
  required: (label: string) => `${label} est obligatoire.`,
  tooLong: (label: string, max: number) => `${label} ne doit pas dépasser ${grouped(max)} caractères.`,
} as const;

type TextOptions = { label: string; max: number };

function cleanText(label: string, max: number, required: boolean) {
  const base = z
    .string({ error: textMessages.required(label) })
    .trim()
    .normalize("NFC");
  return (required ? base.min(1, textMessages.required(label)) : base).max(max, textMessages.tooLong(label, max));
}

/** A text that must be given: trimmed, never blank, at most `max` characters. */
export function requiredText({ label, max }: TextOptions) {
  return cleanText(label, max, true);
}

/** A text that may be left empty: trimmed, "" when absent or blank, at most `max` characters. */
export function optionalText({ label, max }: TextOptions) {
  return z.preprocess((value) => value ?? "", cleanText(label, max, false));
}

/** A person's name: like a required text, with runs of spaces made one. */
function personName(label: string) {
  return z
    .string({ error: textMessages.required(label) })
    .trim()
    .normalize("NFC")
    .overwrite((value) => value.replace(/\s+/g, " "))
    .min(1, textMessages.required(label))
    .max(LIMITS.name, textMessages.tooLong(label, LIMITS.name));
}

export const firstNameSchema = personName("Le prénom");
export const lastNameSchema = personName("Le nom");
/** A name typed in one field (the contact form). */
export const fullNameSchema = personName("Le nom");

export const emailMessages = {
  required: textMessages.required("L'adresse e-mail"),
  tooLong: "Cette adresse e-mail est trop longue.",
  invalid: "Saisissez une adresse e-mail valide (par exemple nom@exemple.ml).",
} as const;

/** An e-mail address, trimmed and in lower case, so that "Awa@Exemple.ML " and "awa@exemple.ml" are one address. */
export const emailSchema = z
  .string({ error: emailMessages.required })
  .trim()
  .toLowerCase()
  .min(1, emailMessages.required)
  .max(LIMITS.email, emailMessages.tooLong)
  .pipe(z.email(emailMessages.invalid));

/**
 * A password as typed: required and bounded, never trimmed (spaces are part of it). Whether a new
 * password is acceptable is the server's policy (~/lib/password-policy, with the common-password list).
 */
export const passwordSchema = z
  .string({ error: passwordMessages.required })
  .min(1, passwordMessages.required)
  .max(LIMITS.password, passwordMessages.tooLong);

export const phoneMessages = {
  tooLong: textMessages.tooLong("Le numéro", LIMITS.phone),
  invalid: "Numéro invalide : vérifiez-le, avec l'indicatif du pays s'il n'est pas malien (par exemple +225 07 08 09 10 11).",
} as const;

/**
 * An optional phone number from anywhere (~/lib/phone): null when left empty, otherwise the number
 * in E.164 ("+22376123456"). "76 12 34 56" is read as Malian; another country needs its code.
 */
export const phoneSchema = z.preprocess(
  (value) => (value == null || (typeof value === "string" && value.trim() === "") ? null : value),
  z
    .string()
    .trim()
    .max(LIMITS.phone, phoneMessages.tooLong)
    .transform((typed, context) => {
      const phone = parsePhone(typed);
      if (phone) return phone.e164;
      context.addIssue({ code: "custom", message: phoneMessages.invalid });
      return z.NEVER;
    })
    .nullable(),
);

/** The number written on the paper receipt of a cash payment. */
export const receiptNumberSchema = requiredText({ label: "Le numéro du reçu", max: LIMITS.receiptNumber });

/** Our payment reference as someone typed it; the payments capability puts it in its stored form. */
export const paymentReferenceSchema = requiredText({ label: "La référence du paiement", max: LIMITS.paymentReference });

const twoFactorMessage = "Saisissez le code à 6 chiffres ou un code de secours.";

/** A code from an authenticator app ("123 456" counts as "123456") or a backup code. */
export const twoFactorCodeSchema = z
  .string({ error: twoFactorMessage })
  .overwrite((value) => value.replace(/\s+/g, ""))
  .min(6, twoFactorMessage)
  .max(LIMITS.twoFactorCode, twoFactorMessage);

/** What a search box sends: never an error; trimmed, cut to the box's length, "" when absent. */
export const searchQuerySchema = z
  .string()
  .catch("")
  .transform((value) => value.trim().normalize("NFC").slice(0, LIMITS.search));

/** One of a filter's values; anything else (absent, mistyped, stale link) falls back to `fallback`. */
export function choice<const Values extends readonly [string, ...string[]]>(values: Values, fallback: Values[number]) {
  return z.enum(values).catch(fallback);
}

/**
 * A list filter read from the query string in the URL's language: `words` gives each internal
 * value (a status as stored) its French word. The word parses to its value; anything else (unknown,
 * or an old English value) is `fallback`. Links and the filter's options write `words[value]`.
 *
 *   const statut = wordChoice({ all: "tous", pending_payment: "en-attente" }, "all");
 *   statut.parse("en-attente"); // "pending_payment"
 */
export function wordChoice<const Value extends string>(words: Readonly<Record<Value, string>>, fallback: NoInfer<Value>) {
  const values = new Map<string, Value>(Object.entries(words).map(([value, word]) => [word as string, value as Value]));
  return z
    .string()
    .catch("")
    .transform((word): Value => values.get(word) ?? fallback);
}

/** A page of a list, from 1; anything unreadable is the first page. */
export const pageSchema = z.coerce.number().int().min(1).max(10_000).catch(1);

const idMessage = "Identifiant invalide.";

const serialId = <Input = unknown>() =>
  z.coerce.number<Input>({ error: idMessage }).int(idMessage).positive(idMessage).max(MAX_SERIAL_ID, idMessage);

/** The id of a row with a serial key (course, lesson, payment), as a form or a URL gives it. */
export const serialIdSchema = serialId();

/**
 * A required choice in a select of rows (a course, a lesson...) by its serial id: an empty choice
 * (the select's placeholder, or the field missing) says `emptyMessage` in the field's own words
 * ("Choisissez un cours."), not "Identifiant invalide.", which stays for a value no option gives.
 */
export function requiredChoice(emptyMessage: string) {
  return z
    .union([z.string(), z.number()], { error: emptyMessage })
    .refine((value) => String(value).trim() !== "", { error: emptyMessage, abort: true })
    .pipe(serialId<string | number>());
}

/** The id of a row with a text key (user, file). */
export const textIdSchema = z.string({ error: idMessage }).trim().min(1, idMessage).max(LIMITS.textId, idMessage);

/** « Télécharger mes données »: `?format=json` (one file) or `?format=csv` (a zip of one CSV per kind); anything else is JSON. */
export const myDataFormatSchema = z.enum(["json", "csv"]).catch("json");
