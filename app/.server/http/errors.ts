import { data } from "react-router";
import { fieldErrorsOf, type FormFailure } from "~/lib/form-result";
import { AppError, type AppErrorCode } from "../errors";

/** The one mapping of application errors to HTTP. */
export const httpStatusOf: Record<AppErrorCode, number> = {
  not_found: 404,
  forbidden: 403,
  invalid: 400,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** What an error page receives (`error.data` of a route error response). */
export type HttpErrorData = { code: AppErrorCode; message: string };

/** The error response React Router renders for an AppError: its status, and its message for the error page. */
export function httpErrorOf(error: AppError) {
  return data<HttpErrorData>({ code: error.code, message: error.message }, { status: httpStatusOf[error.code] });
}

/** Rethrows an AppError as its HTTP answer (the route's error boundary shows it); anything else unchanged. */
export function rethrowAsHttp(error: unknown): never {
  if (error instanceof AppError) throw httpErrorOf(error);
  throw error;
}

/**
 * For loaders: awaits a capability's answer; what it refused becomes its HTTP error (404, 403...).
 *
 *   const course = await orHttpError(getCourseForViewer(db, actor, slug));
 */
export function orHttpError<T>(work: Promise<T>): Promise<T> {
  return work.catch(rethrowAsHttp);
}

/**
 * For actions: the form's answer to a refusal, what was typed kept. Bad input, a conflict, a limit
 * or a service down come back to the form (a FormFailure, with the mapped status): the messages
 * beside their fields, or the error's message above the form when no field is at fault. "Not
 * found" and "forbidden" concern the URL, not the form, and are thrown as error pages. A zod error
 * counts as bad input. Anything else is rethrown.
 *
 *   } catch (error) {
 *     return formFailure(error, { intent: "create", values });
 *   }
 */
export function formFailure<Values = Record<string, string>>(
  error: unknown,
  options: { intent?: string; values?: Values; message?: string } = {},
) {
  const { failure, status } = toFormFailure(error, options);
  return data(failure, { status });
}

/** `formFailure` before it becomes a response, for an action that answers more than the failure (a tab to show...). */
export function toFormFailure<Values = Record<string, string>>(
  error: unknown,
  options: { intent?: string; values?: Values; message?: string } = {},
): { failure: FormFailure<Values>; status: number } {
  const appError = asAppError(error);
  if (!appError) throw error;
  if (appError.code === "not_found" || appError.code === "forbidden") throw httpErrorOf(appError);
  const hasFieldErrors = Object.keys(appError.fieldErrors).length > 0;
  const failure: FormFailure<Values> = {
    ok: false,
    ...(options.intent === undefined ? {} : { intent: options.intent }),
    // Beside the fields when there are some; above the form otherwise (or when the route says so).
    message: options.message ?? (hasFieldErrors ? null : appError.message),
    fieldErrors: appError.fieldErrors,
    ...(options.values === undefined ? {} : { values: options.values }),
  };
  return { failure, status: httpStatusOf[appError.code] };
}

function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isZodError(error)) return AppError.invalid(fieldErrorsOf(error));
  return null;
}

function isZodError(error: unknown): error is { issues: Array<{ path: PropertyKey[]; message: string }> } {
  return error instanceof Error && error.name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues);
}

/**
 * For resource routes that answer plain text (notifications, files, downloads): an AppError as a
 * short French text with its status; anything else is rethrown.
 */
export function plainTextError(error: unknown): Response {
  if (!(error instanceof AppError)) throw error;
  return new Response(error.message, {
    status: httpStatusOf[error.code],
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** What a 405 page receives: a French message, and the page that sends the form, to go back to. */
export type MethodNotAllowedData = { code: "method_not_allowed"; message: string; back: string };

/**
 * For the loader of a route made for POST (a typed or bookmarked address): a 405 with `Allow`,
 * which the area's error page renders inside its layout with a link to `back`.
 */
export function methodNotAllowed(back: string, allow = "POST") {
  return data<MethodNotAllowedData>(
    {
      code: "method_not_allowed",
      message:
        "Cette adresse reçoit un formulaire\u00a0: elle ne s'ouvre pas comme une page. Le formulaire se trouve sur la page ci-dessous.",
      back,
    },
    { status: 405, headers: { Allow: allow } },
  );
}
