import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, appErrorCodes, validate } from "../errors";
import { formFailure, httpStatusOf, orHttpError } from "./errors";

/** What a thrown or returned `data(...)` carries. */
function unwrap(value: unknown) {
  return value as { data: unknown; init: { status: number } };
}

describe("the HTTP mapping of application errors", () => {
  it("gives every code its status", () => {
    expect(appErrorCodes.map((code) => [code, httpStatusOf[code]])).toEqual([
      ["not_found", 404],
      ["forbidden", 403],
      ["invalid", 400],
      ["conflict", 409],
      ["too_large", 413],
      ["unsupported", 415],
      ["rate_limited", 429],
      ["unavailable", 503],
    ]);
  });

  it("turns a refusal in a loader into its error response, and lets other errors through", async () => {
    const thrown = await orHttpError(Promise.reject(AppError.notFound("Cours introuvable."))).catch((error: unknown) => error);
    expect(unwrap(thrown).init.status).toBe(404);
    expect(unwrap(thrown).data).toEqual({ code: "not_found", message: "Cours introuvable." });
    const bug = new TypeError("boom");
    await expect(orHttpError(Promise.reject(bug))).rejects.toBe(bug);
    await expect(orHttpError(Promise.resolve(42))).resolves.toBe(42);
  });
});

describe("formFailure", () => {
  it("answers bad input with the field messages and what was typed, status 400", () => {
    const error = AppError.invalid({ email: "Saisissez une adresse e-mail valide." });
    const answer = unwrap(formFailure(error, { intent: "create", values: { email: "awa@" } }));
    expect(answer.init.status).toBe(400);
    expect(answer.data).toEqual({
      ok: false,
      intent: "create",
      message: null,
      fieldErrors: { email: "Saisissez une adresse e-mail valide." },
      values: { email: "awa@" },
    });
  });

  it("puts a message about no field above the form, with the code's status", () => {
    expect(unwrap(formFailure(AppError.conflict("Ce paiement est déjà enregistré.")))).toMatchObject({
      init: { status: 409 },
      data: { ok: false, message: "Ce paiement est déjà enregistré.", fieldErrors: {} },
    });
    expect(unwrap(formFailure(AppError.rateLimited())).init.status).toBe(429);
    expect(unwrap(formFailure(AppError.unavailable("Le service de paiement ne répond pas."))).init.status).toBe(503);
  });

  it("reads a zod error as bad input, first message per field", () => {
    const schema = z.object({ name: z.string().min(1, "Le nom est obligatoire."), age: z.number({ error: "Un nombre." }) });
    const parsed = schema.safeParse({ name: "", age: "x" });
    const answer = unwrap(formFailure(parsed.error));
    expect(answer.init.status).toBe(400);
    expect((answer.data as { fieldErrors: unknown }).fieldErrors).toEqual({ name: "Le nom est obligatoire.", age: "Un nombre." });
  });

  it("throws not found and forbidden as error pages, and rethrows anything that is not an application error", () => {
    let thrown: unknown;
    try {
      formFailure(AppError.forbidden());
    } catch (error) {
      thrown = error;
    }
    expect(unwrap(thrown).init.status).toBe(403);
    const bug = new Error("bug");
    expect(() => formFailure(bug)).toThrow(bug);
  });
});

describe("validate", () => {
  it("returns the parsed value, or throws AppError invalid with the schema's messages", () => {
    const schema = z.object({ q: z.string().trim().max(3, "Trop long.") });
    expect(validate(schema, { q: " ab " })).toEqual({ q: "ab" });
    const error = (() => {
      try {
        validate(schema, { q: "abcdef" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "invalid", fieldErrors: { q: "Trop long." } });
    expect(isRouteErrorResponse(error)).toBe(false);
  });
});
