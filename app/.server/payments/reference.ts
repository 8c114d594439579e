import { randomInt } from "node:crypto";

/** Letters and digits that read unambiguously aloud and on paper (no 0/O, 1/I/L, U). */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";

/** "ICEF-7K3P-9QX2" (two groups of four), "ICEF-7K3P-9QX2-M4TD" (three): readable aloud, typed without mistakes. */
export function newReadableCode(prefix: string, groups: number): string {
  const part = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return [prefix, ...Array.from({ length: groups }, part)].join("-");
}

/**
 * "ICEF-7K3P-9QX2": a payment reference a learner can read out at the counter or type in a
 * mobile-money memo. 30^8 ≈ 6.5×10^11 values; the unique index catches the unlikely clash.
 */
export function newPaymentReference(prefix = "ICEF"): string {
  return newReadableCode(prefix, 2);
}

/** A reference as typed by someone (lower case, spaces, missing dashes) in its stored form. */
export function normalizePaymentReference(input: string): string {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  const match = /^([A-Z]+)([A-Z0-9]{4})([A-Z0-9]{4})$/.exec(compact);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : input.trim().toUpperCase();
}
