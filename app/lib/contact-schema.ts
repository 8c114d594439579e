import { formatNumber } from "./format";
import { z } from "zod";
import { CONTACT_INTERESTS, CONTACT_LIMITS, CONTACT_SUBJECTS } from "./contact";

/**
 * The contact form's rules, in French. The form's HTML attributes (required, type=email,
 * maxLength) mirror them, so the browser checks the same things without shipping zod.
 */
/** An empty or blank optional field counts as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value);

/**
 * Digits, spaces and the usual separators, with an optional leading "+": "+223 76 12 34 56",
 * "76123456", "(+223) 20-22-50-36". At least 8 digits (a Malian number without its prefix).
 */
const phonePattern = /^\(?\+?[\d\s().-]+$/;

export const contactSchema = z.object({
  name: z
    .string("Veuillez indiquer votre nom.")
    .trim()
    .min(1, "Veuillez indiquer votre nom.")
    .max(CONTACT_LIMITS.name, `Votre nom ne doit pas dépasser ${CONTACT_LIMITS.name} caractères.`),
  email: z
    .string("Veuillez indiquer votre adresse e-mail.")
    .trim()
    .min(1, "Veuillez indiquer votre adresse e-mail.")
    .max(CONTACT_LIMITS.email, "Cette adresse e-mail est trop longue.")
    .pipe(z.email("Veuillez saisir une adresse e-mail valide (exemple : nom@domaine.ml).")),
  phone: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(CONTACT_LIMITS.phone, `Le numéro ne doit pas dépasser ${CONTACT_LIMITS.phone} caractères.`)
      .regex(phonePattern, "Numéro invalide : utilisez des chiffres, des espaces et éventuellement « + ».")
      .refine((phone) => phone.replace(/\D/g, "").length >= 8, "Numéro trop court : au moins 8 chiffres.")
      .optional(),
  ),
  subject: z.enum(CONTACT_SUBJECTS, "Veuillez choisir un sujet dans la liste."),
  message: z
    .string("Veuillez écrire votre message.")
    .trim()
    .min(1, "Veuillez écrire votre message.")
    .max(CONTACT_LIMITS.message, `Votre message est trop long : ${formatNumber(CONTACT_LIMITS.message)} caractères au maximum.`),
  interest: z.preprocess(blankToUndefined, z.enum(CONTACT_INTERESTS, "Veuillez choisir un centre d'intérêt dans la liste.").optional()),
});

export type ContactInput = z.infer<typeof contactSchema>;
