import { describe, expect, it } from "vitest";
import { formatExperience, formatHighlight, formatInteger, formatProjects, initialsOf } from "./about";

describe("about page formatting", () => {
  it("groups thousands with a no-break space", () => {
    expect(formatInteger(0)).toBe("0");
    expect(formatInteger(999)).toBe("999");
    expect(formatInteger(2500)).toBe("2\u00a0500");
    expect(formatInteger(1234567)).toBe("1\u00a0234\u00a0567");
    expect(formatInteger(-1800)).toBe("-1\u00a0800");
  });

  it("writes highlights, experience and projects as the page shows them", () => {
    expect(formatHighlight(2500, "+")).toBe("2\u00a0500+");
    expect(formatHighlight(25, "")).toBe("25");
    expect(formatExperience(20)).toBe("20+\u00a0ans");
    expect(formatExperience(1)).toBe("1+\u00a0an");
    expect(formatProjects(150)).toBe("150+");
  });

  it("takes initials from the first and last names, titles left out", () => {
    expect(initialsOf("Dr Mamadou Keïta")).toBe("MK");
    expect(initialsOf("Aminata Diarra")).toBe("AD");
    expect(initialsOf("Mme Awa Sidibé Traoré")).toBe("AT");
    expect(initialsOf("M. Oumar Touré")).toBe("OT");
    expect(initialsOf("Pr Évariste")).toBe("É");
    expect(initialsOf("  ")).toBe("");
  });
});
