import { z } from "zod";

export const NEWSLETTER_MESSAGES = {
  subscribed: "Merci ! Pour recevoir la lettre, confirmez votre abonnement : ouvrez le message que nous venons de vous envoyer.",
  pending: "Votre abonnement attend votre confirmation : ouvrez le lien du message reçu (pensez aux courriers indésirables).",
  already: "Vous êtes déjà abonné(e) : merci de votre fidélité !",
  invalid: "Veuillez saisir une adresse e-mail valide.",
} as const;

/** The confirmation link (double opt-in) used already, expired or forged. */
export const CONFIRMATION_INVALID =
  "Ce lien de confirmation n'est plus valide : il a déjà servi (votre abonnement est alors confirmé) ou il a expiré. Abonnez-vous de nouveau pour en recevoir un autre.";

/** Trimmed and lower-cased, so that " Awa@Example.ML " and "awa@example.ml" are one subscriber. */
export const newsletterEmailSchema = z
  .string(NEWSLETTER_MESSAGES.invalid)
  .trim()
  .toLowerCase()
  .min(1, NEWSLETTER_MESSAGES.invalid)
  .max(254, NEWSLETTER_MESSAGES.invalid)
  .pipe(z.email(NEWSLETTER_MESSAGES.invalid));

/** What POST /newsletter answers (JSON for fetchers; the same object renders the page without JS). */
export type NewsletterResponse = {
  status: "subscribed" | "pending" | "already" | "error";
  message: string;
  fieldErrors?: { email?: string };
  /** What was typed, echoed back on error so the field keeps it. */
  email?: string;
};
