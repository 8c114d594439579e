import { describe, expect, it } from "vitest";
import { foldText } from "./text";

describe("foldText", () => {
  it("drops accents, spells out ligatures and lowers the case, as the database's campus_fold does", () => {
    expect(foldText("Développement Web")).toBe("developpement web");
    expect(foldText("CYBERSÉCURITÉ")).toBe("cybersecurite");
    expect(foldText("Énergie Solaire, Mécatronique")).toBe("energie solaire, mecatronique");
    expect(foldText("Œuvre, Lætitia, Straße")).toBe("oeuvre, laetitia, strasse");
    expect(foldText("Ça, Naïma, Aïssata Keïta")).toBe("ca, naima, aissata keita");
  });
});
