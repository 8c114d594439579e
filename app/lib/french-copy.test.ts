import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The French of the interface, checked over the sources (defect 7.6 of issue 8): one spelling of
 * "e-mail", elision before a vowel, the same word for the same figure. A form written back into
 * any screen, message or mail fails here with the file and line.
 */
const appDir = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

const forbidden: Array<[RegExp, string]> = [
  [/\b(adresse|votre|par|un|nouvel|d'|l')\s?emails?\b/i, "« e-mail », with its hyphen"],
  [/label="Email"|>Email<|"Email"/, "« E-mail », with its hyphen"],
  [/\bde [AEIOUÉÈÊÀÂÎÔÛ][a-zé]+ [A-Z]|\bRôle de \{/, "« d' » before a vowel (ofName in ~/lib/text)"],
  [/Plus que \{|Plus que 1 /, "« Plus qu'une » (seatsLeftText in ~/lib/format)"],
  [/modules? terminés?/, "lessons are « leçons » wherever they are counted"],
];

describe("the interface's French", () => {
  it("uses one spelling of « e-mail », elides « de » and « que », and one word for lessons", () => {
    const offences: string[] = [];
    for (const file of sources(appDir)) {
      fs.readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
          for (const [pattern, rule] of forbidden)
            if (pattern.test(line)) offences.push(`${path.relative(appDir, file)}:${index + 1}: ${rule}\n    ${line.trim()}`);
        });
    }
    expect(offences).toEqual([]);
  });
});
