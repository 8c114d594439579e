import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/**
 * Phone numbers from anywhere, as the numbering plans say (libphonenumber-js, Google's metadata):
 * typed with or without their country code ("76 12 34 56" is a Malian number, "+225 07 08 09 10
 * 11" an Ivorian one), stored in E.164 ("+22376123456"), shown in the international format.
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = "ML";

export type ParsedPhone = { e164: string; display: string };

/** The number in `text`, or null when it is not a number that can exist (wrong length, unknown prefix). */
export function parsePhone(text: string, defaultCountry: CountryCode = DEFAULT_PHONE_COUNTRY): ParsedPhone | null {
  const parsed = parsePhoneNumberFromString(text.trim(), defaultCountry);
  if (!parsed || !parsed.isValid()) return null;
  return { e164: parsed.number, display: parsed.formatInternational() };
}

/** A stored number (E.164, or an older "+223 76 12 34 56") as people read it: "+223 76 12 34 56". */
export function formatPhone(stored: string): string {
  return parsePhone(stored)?.display ?? stored;
}
