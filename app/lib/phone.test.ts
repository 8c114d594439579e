import { describe, expect, it } from "vitest";
import { formatPhone, parsePhone } from "./phone";

describe("parsePhone", () => {
  it("reads West African and international numbers into E.164", () => {
    expect(parsePhone("+223 76 12 34 56")).toEqual({ e164: "+22376123456", display: "+223 76 12 34 56" });
    // Typed without the prefix: a Malian number.
    expect(parsePhone("76 12 34 56")?.e164).toBe("+22376123456");
    expect(parsePhone("+225 07 08 09 10 11")?.e164).toBe("+2250708091011");
    expect(parsePhone("+221 77 123 45 67")?.e164).toBe("+221771234567");
    expect(parsePhone("+226 70 12 34 56")?.e164).toBe("+22670123456");
    expect(parsePhone("00 33 6 12 34 56 78")?.e164).toBe("+33612345678");
    expect(parsePhone("(+1) 212-555-0123")?.e164).toBe("+12125550123");
  });

  it("refuses what cannot be a number", () => {
    expect(parsePhone("appelez-moi")).toBeNull();
    expect(parsePhone("76 12")).toBeNull();
    expect(parsePhone("+223 12 34")).toBeNull();
    expect(parsePhone("+999 76 12 34 56")).toBeNull();
  });
});

describe("formatPhone", () => {
  it("shows a stored number in the international format, and leaves anything else as it is", () => {
    expect(formatPhone("+22376123456")).toBe("+223 76 12 34 56");
    expect(formatPhone("+223 76 12 34 56")).toBe("+223 76 12 34 56");
    expect(formatPhone("inconnu")).toBe("inconnu");
  });
});
