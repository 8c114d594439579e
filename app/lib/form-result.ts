/**
 * What every form action answers, and what every form reads back (browser-safe: no server imports).
 * A success usually redirects with a toast; when it stays on the page it answers `{ ok: true }`.
 * A failure keeps what was typed and puts one French message beside each field at fault.
 */

/** One message per field, keyed by the field's name as the form posts it ("email", "lessons.0.title"). */
export type FieldErrors = Record<string, string>;

export type FormFailure<Values = Record<string, string>> = {
  ok: false;
  /** Which form of the page answered, when a page has several (each posts an `intent`). */
  intent?: string;
  /** A message about the whole form (shown above its fields), or null. */
  message: string | null;
  fieldErrors: FieldErrors;
  /** What was typed, sent back so that nothing is lost. */
  values?: Values;
};

export type FormSuccess<Extra extends object = object> = { ok: true; intent?: string; message?: string } & Extra;

export type FormResult<Values = Record<string, string>, Extra extends object = object> = FormSuccess<Extra> | FormFailure<Values>;

type IssueLike = { path: ReadonlyArray<PropertyKey>; message: string };

/**
 * The field messages of a zod error (or of its issues): the first message per field, keyed by the
 * issue's path joined with dots; an issue without a path is about the whole form ("form").
 */
export function fieldErrorsOf(error: { issues: ReadonlyArray<IssueLike> }): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    result[key] ??= issue.message;
  }
  return result;
}

/** The failure of `result` for the form posting `intent`, if that is what answered (pages with several forms). */
export function failureOf<Values>(result: unknown, intent?: string): FormFailure<Values> | null {
  if (!result || typeof result !== "object" || (result as { ok?: unknown }).ok !== false) return null;
  const failure = result as FormFailure<Values>;
  return intent === undefined || failure.intent === intent ? failure : null;
}

/** One line for a failure shown in a single place (a toast, a row of a table): its message, else its first field message. */
export function summaryOf(failure: FormFailure<unknown>): string {
  return failure.message ?? Object.values(failure.fieldErrors)[0] ?? "";
}
