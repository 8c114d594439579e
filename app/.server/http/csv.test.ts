import { describe, expect, it } from "vitest";
import { csvCell, toCsv, UTF8_BOM } from "./csv";

describe("csvCell", () => {
  it("leaves plain text alone", () => {
    expect(csvCell("Aminata")).toBe("Aminata");
    expect(csvCell("Étudiant")).toBe("Étudiant");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes separators, commas, quotes and line breaks (RFC 4180)", () => {
    expect(csvCell("Traoré; Awa")).toBe('"Traoré; Awa"');
    expect(csvCell("Traoré, Awa")).toBe('"Traoré, Awa"');
    expect(csvCell('Le "chef"')).toBe('"Le ""chef"""');
    expect(csvCell("ligne 1\nligne 2")).toBe('"ligne 1\nligne 2"');
  });

  it("neutralizes formula injection", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+223 70 00 00 00")).toBe("'+223 70 00 00 00");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    // A formula hidden behind a comma is still quoted and prefixed.
    expect(csvCell("=1,2")).toBe('"\'=1,2"');
  });
});

describe("toCsv", () => {
  it("starts with a BOM, separates cells with semicolons (a French Excel's separator) and records with CRLF", () => {
    const csv = toCsv(
      ["Prénom", "Nom"],
      [
        ["Awa", "Traoré"],
        ["=x", "a,b"],
      ],
    );
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    expect(csv.slice(1)).toBe('Prénom;Nom\r\nAwa;Traoré\r\n\'=x;"a,b"\r\n');
  });
});
