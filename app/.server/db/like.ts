/** Escapes LIKE/ILIKE wildcards so that a search matches the typed text literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
