import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "./form-result";
import {
  LIMITS,
  MAX_SERIAL_ID,
  choice,
  emailSchema,
  firstNameSchema,
  optionalText,
  pageSchema,
  passwordSchema,
  phoneSchema,
  receiptNumberSchema,
  requiredText,
  searchQuerySchema,
  requiredChoice,
  serialIdSchema,
  twoFactorCodeSchema,
  wordChoice,
} from "./schemas";

const messageOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe("e-mail", () => {
  it("trims and lower-cases, so one address is one address", () => {
    expect(emailSchema.parse("  Awa.Traore@Exemple.ML ")).toBe("awa.traore@exemple.ml");
  });
  it("says what is wrong, in French", () => {
    expect(messageOf(emailSchema, undefined)).toBe("L'adresse e-mail est obligatoire.");
    expect(messageOf(emailSchema, "   ")).toBe("L'adresse e-mail est obligatoire.");
    expect(messageOf(emailSchema, "awa@")).toBe("Saisissez une adresse e-mail valide (par exemple nom@exemple.ml).");
    expect(messageOf(emailSchema, `${"a".repeat(LIMITS.email)}@x.ml`)).toBe("Cette adresse e-mail est trop longue.");
  });
});

describe("names and texts", () => {
  it("tidies spaces in names and bounds them by the limit forms use", () => {
    expect(firstNameSchema.parse("  Awa   Marie ")).toBe("Awa Marie");
    expect(messageOf(firstNameSchema, "  ")).toBe("Le prénom est obligatoire.");
    expect(firstNameSchema.safeParse("a".repeat(LIMITS.name)).success).toBe(true);
    expect(messageOf(firstNameSchema, "a".repeat(LIMITS.name + 1))).toBe(`Le prénom ne doit pas dépasser ${LIMITS.name} caractères.`);
  });

  it("puts a composed accent and its decomposed twin in one form", () => {
    expect(firstNameSchema.parse("Ibrahima Koné".normalize("NFD"))).toBe("Ibrahima Koné".normalize("NFC"));
  });

  it("writes large limits the French way", () => {
    const message = requiredText({ label: "Le message", max: 5000 });
    expect(messageOf(message, "x".repeat(5001))).toMatch(/^Le message ne doit pas dépasser 5\s000 caractères\.$/);
  });

  it("lets an optional text be absent or blank", () => {
    const reason = optionalText({ label: "Le motif", max: 10 });
    expect(reason.parse(undefined)).toBe("");
    expect(reason.parse("  ")).toBe("");
    expect(reason.parse(" trop tard ")).toBe("trop tard");
    expect(messageOf(reason, "x".repeat(11))).toBe("Le motif ne doit pas dépasser 10 caractères.");
  });
});

describe("password", () => {
  it("keeps spaces, which are part of a password, and refuses nothing else but absence and excess", () => {
    expect(passwordSchema.parse(" mot de passe ")).toBe(" mot de passe ");
    expect(messageOf(passwordSchema, "")).toBe("Le mot de passe est obligatoire.");
    expect(passwordSchema.safeParse("x".repeat(LIMITS.password + 1)).success).toBe(false);
  });
});

describe("phone", () => {
  it("is null when left empty, E.164 for a number from anywhere, and refuses what cannot be a number", () => {
    expect(phoneSchema.parse("")).toBeNull();
    expect(phoneSchema.parse(undefined)).toBeNull();
    expect(phoneSchema.parse(" +223 76 12 34 56 ")).toBe("+22376123456");
    expect(phoneSchema.parse("76 12 34 56")).toBe("+22376123456");
    expect(phoneSchema.parse("+225 07 08 09 10 11")).toBe("+2250708091011");
    expect(messageOf(phoneSchema, "appelez-moi")).toMatch(/^Numéro invalide/);
    expect(messageOf(phoneSchema, "76 12")).toMatch(/^Numéro invalide/);
  });
});

describe("receipt number", () => {
  it("has one limit, the one the form's maxLength shows", () => {
    expect(receiptNumberSchema.parse(" R-00042 ")).toBe("R-00042");
    expect(messageOf(receiptNumberSchema, "")).toBe("Le numéro du reçu est obligatoire.");
    expect(messageOf(receiptNumberSchema, "9".repeat(LIMITS.receiptNumber + 1))).toBe(
      `Le numéro du reçu ne doit pas dépasser ${LIMITS.receiptNumber} caractères.`,
    );
  });
});

describe("two-factor code", () => {
  it("accepts the code with the space authenticator apps show", () => {
    expect(twoFactorCodeSchema.parse("123 456")).toBe("123456");
    expect(messageOf(twoFactorCodeSchema, "12")).toBe("Saisissez le code à 6 chiffres ou un code de secours.");
  });
});

describe("query parameters", () => {
  it("never fails on a search, and cuts it to the box's length", () => {
    expect(searchQuerySchema.parse(undefined)).toBe("");
    expect(searchQuerySchema.parse(["a", "b"])).toBe("");
    expect(searchQuerySchema.parse("  sécurité ")).toBe("sécurité");
    expect(searchQuerySchema.parse("x".repeat(500))).toHaveLength(LIMITS.search);
  });

  it("falls back to a filter's default on anything unknown", () => {
    const statut = choice(["all", "pending", "completed"], "all");
    expect(statut.parse("pending")).toBe("pending");
    expect(statut.parse("PENDING")).toBe("all");
    expect(statut.parse(undefined)).toBe("all");
  });

  it("reads a filter's French word as its internal value, and nothing else", () => {
    const statut = wordChoice({ all: "tous", pending_payment: "en-attente" }, "all");
    expect(statut.parse("en-attente")).toBe("pending_payment");
    expect(statut.parse("tous")).toBe("all");
    // The stored value itself is not a word of the URL: an old English link shows everything.
    expect(statut.parse("pending_payment")).toBe("all");
    expect(statut.parse(undefined)).toBe("all");
    expect(statut.parse(["en-attente"])).toBe("all");
  });

  it("reads a page number or starts at the first page", () => {
    expect(pageSchema.parse("3")).toBe(3);
    expect(pageSchema.parse("0")).toBe(1);
    expect(pageSchema.parse("trois")).toBe(1);
  });
});

describe("ids", () => {
  it("refuses what the database could not look up instead of failing in SQL", () => {
    expect(serialIdSchema.parse("42")).toBe(42);
    for (const bad of ["", "0", "-1", "4.5", "abc", String(MAX_SERIAL_ID + 1)]) {
      expect(serialIdSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe("required choices", () => {
  it("an empty choice asks for the field in its own words; a value no option gives is an invalid id", () => {
    const course = requiredChoice("Choisissez une formation.");
    for (const empty of ["", "   ", undefined, null]) {
      expect(messageOf(course, empty), String(empty)).toBe("Choisissez une formation.");
    }
    expect(messageOf(course, "abc")).toBe("Identifiant invalide.");
    expect(messageOf(course, "0")).toBe("Identifiant invalide.");
    expect(course.parse("12")).toBe(12);
    expect(course.parse(12)).toBe(12);
  });
});

describe("composing a form", () => {
  it("gives one French message per field through fieldErrorsOf", () => {
    const signUp = z.object({ firstName: firstNameSchema, email: emailSchema, password: passwordSchema });
    const result = signUp.safeParse({ firstName: "", email: "nope", password: "" });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      firstName: "Le prénom est obligatoire.",
      email: "Saisissez une adresse e-mail valide (par exemple nom@exemple.ml).",
      password: "Le mot de passe est obligatoire.",
    });
  });
});
