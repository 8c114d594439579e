/**
 * Contact form lists and bounds, safe for the browser bundle (no zod here: the rules live in
 * ./contact-schema, which the server uses and the browser may use too, at ~25 KB compressed).
 */

/** The contact form's subjects, in the spec's order. */
export const CONTACT_SUBJECTS = [
  "Renseignements généraux",
  "Inscription aux formations",
  "Information sur l'IA",
  "Information sur la Cybersécurité",
  "Partenariat entreprise",
  "Formation sur mesure",
  "Certification",
  "Autre",
] as const;

/** Fields of interest offered on the contact form. */
export const CONTACT_INTERESTS = [
  "Intelligence Artificielle",
  "Cybersécurité",
  "Data Science",
  "Développement Web",
  "Marketing Digital",
  "Transit Douanes",
  "Énergie Solaire",
  "Agro Business",
  "Mécatronique",
  "Maintenance Industrielle",
] as const;

/** Length bounds, shared by the browser (maxLength) and the server. */
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

export const CONTACT_FIELDS = ["name", "email", "phone", "subject", "message", "interest"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Partial<Record<ContactField, string>>;
export type ContactFieldErrors = Partial<Record<ContactField, string>>;

export const CONTACT_SUCCESS_MESSAGE = "Merci ! Votre message a bien été envoyé. Nous vous répondrons sous 48 heures.";
