import { describe, expect, it } from "vitest";
import { z } from "zod";
import { failureOf, fieldErrorsOf } from "./form-result";

describe("fieldErrorsOf", () => {
  it("keys each message by the field's dotted path, keeps the first per field, and files path-less issues under form", () => {
    const schema = z.object({
      title: z.string().min(1, "Le titre est obligatoire.").max(3, "Trop long."),
      lessons: z.array(z.object({ title: z.string().min(1, "Le titre de la leçon est obligatoire.") })),
    });
    const parsed = schema.safeParse({ title: "", lessons: [{ title: "ok" }, { title: "" }] });
    expect(fieldErrorsOf(parsed.error!)).toEqual({
      title: "Le titre est obligatoire.",
      "lessons.1.title": "Le titre de la leçon est obligatoire.",
    });
    const whole = z
      .object({ a: z.string() })
      .refine(() => false, "Le formulaire est incomplet.")
      .safeParse({ a: "x" });
    expect(fieldErrorsOf(whole.error!)).toEqual({ form: "Le formulaire est incomplet." });
  });
});

describe("failureOf", () => {
  it("finds the failure of the form that posted, and nothing for a success or another form", () => {
    const failure = { ok: false, intent: "password", message: null, fieldErrors: { currentPassword: "Incorrect." } };
    expect(failureOf(failure, "password")).toBe(failure);
    expect(failureOf(failure, "profile")).toBeNull();
    expect(failureOf(failure)).toBe(failure);
    expect(failureOf({ ok: true, intent: "password" }, "password")).toBeNull();
    expect(failureOf(undefined)).toBeNull();
  });
});
