import { ilike, or, type SQL, type SQLWrapper } from "drizzle-orm";

/** Escapes LIKE/ILIKE wildcards so that a search matches the typed text literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The screens' search rule: the text, ignoring case, anywhere in one of the columns. */
export function containsText(text: string, ...columns: SQLWrapper[]): SQL {
  const pattern = `%${escapeLike(text)}%`;
  return or(...columns.map((column) => ilike(column as SQL, pattern)))!;
}
