import { describe, expect, it } from "vitest";
import { formatFcfa, formatMinutes, formatNumber, formatPercent, formatPrice, formatWeeks, plural } from "./format";

// A narrow no-break space between thousands, a no-break space before the currency.
const n = "\u202f";
const nb = "\u00a0";

describe("formatFcfa", () => {
  it("groups thousands the French way, with narrow no-break spaces", () => {
    expect(formatFcfa(120000)).toBe(`120${n}000${nb}FCFA`);
    expect(formatFcfa(64045000)).toBe(`64${n}045${n}000${nb}FCFA`);
  });
  it("keeps small and zero amounts plain", () => {
    expect(formatFcfa(0)).toBe(`0${nb}FCFA`);
    expect(formatFcfa(950)).toBe(`950${nb}FCFA`);
  });
  it("rounds and signs", () => {
    expect(formatFcfa(-5000)).toBe(`−5${n}000${nb}FCFA`);
    expect(formatFcfa(999.6)).toBe(`1${n}000${nb}FCFA`);
  });
});

describe("formatNumber and formatPercent", () => {
  it("writes counts with the same separator as money", () => {
    expect(formatNumber(2007)).toBe(`2${n}007`);
    expect(formatNumber(999)).toBe("999");
    expect(formatFcfa(2007)).toContain(`2${n}007`);
  });
  it("writes decimals with a comma, never a point", () => {
    expect(formatNumber(4.9, { decimals: 1 })).toBe("4,9");
    expect(formatNumber(4, { decimals: 1 })).toBe("4");
    expect(formatNumber(4, { decimals: 1, fixed: true })).toBe("4,0");
    expect(formatNumber(1234.56, { decimals: 1 })).toBe(`1${n}234,6`);
    expect(formatNumber(-0.04, { decimals: 1 })).toBe("0");
  });
  it("writes percentages with a comma and a narrow space before the sign", () => {
    expect(formatPercent(62.5)).toBe(`62,5${n}%`);
    expect(formatPercent(100)).toBe(`100${n}%`);
  });
});

describe("plural", () => {
  it("uses the singular for 0 and 1, the plural above", () => {
    expect(plural(0, "formation trouvée", "formations trouvées")).toBe("0 formation trouvée");
    expect(plural(1, "formation trouvée", "formations trouvées")).toBe("1 formation trouvée");
    expect(plural(2, "formation trouvée", "formations trouvées")).toBe("2 formations trouvées");
    expect(plural(2007, "inscription", "inscriptions")).toBe(`2${n}007 inscriptions`);
  });
  it("formats durations in weeks", () => {
    expect(formatWeeks(12)).toBe("12 semaines");
    expect(formatWeeks(1)).toBe("1 semaine");
  });
});

describe("formatPrice", () => {
  it("says Gratuit for a course that costs nothing", () => {
    expect(formatPrice(0)).toBe("Gratuit");
    expect(formatPrice(75000)).toBe(`75${n}000${nb}FCFA`);
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
