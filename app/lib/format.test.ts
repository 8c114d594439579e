import { describe, expect, it } from "vitest";
import { formatFcfa, formatMinutes, formatPrice, formatWeeks, plural } from "./format";

describe("formatFcfa", () => {
  it("separates thousands with commas as the spec shows", () => {
    expect(formatFcfa(120000)).toBe("120,000 FCFA");
    expect(formatFcfa(1250000)).toBe("1,250,000 FCFA");
  });
  it("keeps small and zero amounts plain", () => {
    expect(formatFcfa(0)).toBe("0 FCFA");
    expect(formatFcfa(950)).toBe("950 FCFA");
  });
  it("rounds and signs", () => {
    expect(formatFcfa(-5000)).toBe("-5,000 FCFA");
    expect(formatFcfa(999.6)).toBe("1,000 FCFA");
  });
});

describe("plural", () => {
  it("uses the singular for 0 and 1, the plural above", () => {
    expect(plural(0, "formation trouvée", "formations trouvées")).toBe("0 formation trouvée");
    expect(plural(1, "formation trouvée", "formations trouvées")).toBe("1 formation trouvée");
    expect(plural(2, "formation trouvée", "formations trouvées")).toBe("2 formations trouvées");
  });
  it("formats durations in weeks", () => {
    expect(formatWeeks(12)).toBe("12 semaines");
    expect(formatWeeks(1)).toBe("1 semaine");
  });
});

describe("formatPrice", () => {
  it("says Gratuit for a course that costs nothing", () => {
    expect(formatPrice(0)).toBe("Gratuit");
    expect(formatPrice(75000)).toBe("75,000 FCFA");
  });
});

describe("formatMinutes", () => {
  it("writes lesson durations in minutes, then hours", () => {
    expect(formatMinutes(45)).toBe("45 min");
    expect(formatMinutes(60)).toBe("1 h");
    expect(formatMinutes(90)).toBe("1 h 30");
    expect(formatMinutes(125)).toBe("2 h 05");
  });
});
