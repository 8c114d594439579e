/**
 * Browser-safe helpers of the about page (/a-propos). Its figures, leaders and quotes live in the
 * database (app/.server/db/schema/about.ts), read by app/.server/about.
 */

/** Quote rotation period (spec: 4 seconds). */
export const QUOTE_ROTATION_MS = 4000;

const NBSP = "\u00a0";

/** "2 500": French digit grouping with a no-break space, so a figure never wraps. */
export function formatInteger(value: number): string {
  const rounded = Math.round(value);
  const sign = rounded < 0 ? "-" : "";
  return sign + String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

/** A highlight figure: value 2500 with suffix "+" reads "2 500+". */
export function formatHighlight(value: number, suffix: string): string {
  return formatInteger(value) + suffix;
}

/** A leader's experience, at least `years`: "20+ ans", "1+ an". */
export function formatExperience(years: number): string {
  return `${formatInteger(years)}+${NBSP}${Math.abs(years) >= 2 ? "ans" : "an"}`;
}

/** A leader's projects count, at least `count`: "150+". */
export function formatProjects(count: number): string {
  return `${formatInteger(count)}+`;
}

/** Titles before a name ("Dr", "Pr", "M.", "Mme", "Mlle", "Me"), compared without a final dot. */
const TITLES = new Set(["dr", "pr", "m", "mme", "mlle", "me"]);

/** "Dr Mamadou Keïta" gives "MK": first letters of the first and last names, titles left out. */
export function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter((word) => word && !TITLES.has(word.toLowerCase().replace(/\.$/, "")));
  if (words.length === 0) return "";
  const first = words[0]!;
  const last = words.length > 1 ? words[words.length - 1]! : "";
  return (Array.from(first)[0]! + (last ? Array.from(last)[0]! : "")).toLocaleUpperCase("fr");
}
