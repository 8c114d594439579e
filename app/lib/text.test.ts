import { describe, expect, it } from "vitest";
import { foldText, ofTitle } from "./text";

describe("foldText", () => {
  it("drops accents, spells out ligatures and lowers the case, as the database's campus_fold does", () => {
    expect(foldText("Développement Web")).toBe("developpement web");
    expect(foldText("CYBERSÉCURITÉ")).toBe("cybersecurite");
    expect(foldText("Énergie Solaire, Mécatronique")).toBe("energie solaire, mecatronique");
    expect(foldText("Œuvre, Lætitia, Straße")).toBe("oeuvre, laetitia, strasse");
    expect(foldText("Ça, Naïma, Aïssata Keïta")).toBe("ca, naima, aissata keita");
  });
});

describe("ofTitle", () => {
  it("elides the article before a title's vowel, and only there", () => {
    expect(`Résultats ${ofTitle("Évaluation finale : Intelligence Artificielle")}`).toBe(
      "Résultats de l'Évaluation finale : Intelligence Artificielle",
    );
    expect(ofTitle(" Introduction à Python")).toBe("de l'Introduction à Python");
    expect(ofTitle("Quiz final")).toBe("de Quiz final");
    expect(ofTitle("Haute tension")).toBe("de Haute tension");
  });
});
