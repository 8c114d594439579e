import type { z } from "zod";
import { fieldErrorsOf, type FieldErrors } from "~/lib/form-result";

export type { FieldErrors } from "~/lib/form-result";

/**
 * The application's one error type. A capability throws it when it refuses something; the route
 * layer turns its code into an HTTP answer in one place (app/.server/http/errors.ts). The message
 * is French and safe to show to whoever asked. Anything else thrown is a bug (a 500).
 */
export const appErrorCodes = [
  "not_found",
  "forbidden",
  "invalid",
  "conflict",
  "too_large",
  "unsupported",
  "rate_limited",
  "unavailable",
] as const;
export type AppErrorCode = (typeof appErrorCodes)[number];

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** With "invalid": one message per field at fault ("form" for the whole form). */
  readonly fieldErrors: FieldErrors;
  /**
   * What exactly was refused, for callers that act on it (a learner not enrolled is sent to the
   * course page, one who has not paid to the checkout): a short snake_case word of the capability.
   */
  readonly reason: string | null;

  constructor(code: AppErrorCode, message: string, options: { fieldErrors?: FieldErrors; reason?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = options.fieldErrors ?? {};
    this.reason = options.reason ?? null;
  }

  /** Does not exist, or the actor may not know it exists (both answer 404, so ids leak nothing). */
  static notFound(message = "Introuvable.", reason?: string) {
    return new AppError("not_found", message, { reason });
  }

  /** Exists and the actor knows it, but may not do this. */
  static forbidden(message = "Action non autorisée.", reason?: string) {
    return new AppError("forbidden", message, { reason });
  }

  /** Bad input: messages beside the fields, and an optional one for the whole form. */
  static invalid(fieldErrors: FieldErrors, message = "Vérifiez les champs signalés.") {
    return new AppError("invalid", message, { fieldErrors });
  }

  /** The request clashes with the current state (already done, taken, full...). */
  static conflict(message: string, reason?: string) {
    return new AppError("conflict", message, { reason });
  }

  /** What was sent is bigger than allowed (a file, a body). */
  static tooLarge(message: string) {
    return new AppError("too_large", message);
  }

  /** What was sent is of a kind not accepted (a file type, a body format). */
  static unsupported(message: string) {
    return new AppError("unsupported", message);
  }

  static rateLimited(message = "Trop de tentatives. Réessayez dans quelques minutes.") {
    return new AppError("rate_limited", message);
  }

  /** A service we depend on does not answer (a payment provider, the mail server...). */
  static unavailable(message: string, cause?: unknown) {
    return new AppError("unavailable", message, { cause });
  }
}

export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

/** Parses `input` with `schema`; bad input throws AppError "invalid" with the schema's French messages per field. */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown, message?: string): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw AppError.invalid(fieldErrorsOf(parsed.error), message);
  return parsed.data;
}
