import { or, sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** Escapes LIKE wildcards so that a search matches the typed text literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * The product's one search rule: the typed text anywhere in one of the columns, ignoring case and
 * accents ("securite" finds "Sécurité", "TRAORE" finds "Traoré"), through campus_fold
 * (drizzle/0009: PostgreSQL's unaccent, then lower case), on PGlite and PostgreSQL alike. A
 * prepared statement gives the pattern (`containingPattern`) as a placeholder instead of the text.
 */
export function containsText(text: string | SQLWrapper, ...columns: SQLWrapper[]): SQL {
  const pattern = typeof text === "string" ? containingPattern(text) : text;
  return or(...columns.map((column) => sql`campus_fold(${column}) like campus_fold(${pattern})`))!;
}

/** The LIKE pattern of `containsText`, for a prepared statement that takes it as a placeholder. */
export function containingPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
