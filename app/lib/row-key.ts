/**
 * The key of a row being edited in a form (a lesson, a question): it follows the row through
 * reorders and a refused submit, before the row has an id. Unique enough within one form
 * (crypto.randomUUID needs https outside localhost).
 */
export function newRowKey(): string {
  return `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** A posted row key, if it has the shape of one. */
export function parseRowKey(raw: string): string | undefined {
  return /^[a-z0-9]{1,40}$/.test(raw) ? raw : undefined;
}
