import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The French of the interface, checked over the sources (defect 7.6 of issue 8): one spelling of
 * "e-mail", elision before a vowel, the same word for the same figure, and its typography. A form
 * written back into any screen, message or mail fails here with the file and line.
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
  [/\b(adresse|votre|par|un|nouvel|d'|l')\s?emails?\b/i, "« e-mail », with its hyphen"],
  [/label="Email"|>Email<|"Email"/, "« E-mail », with its hyphen"],
  [/\bde [AEIOUÉÈÊÀÂÎÔÛ][a-zé]+ [A-Z]|\bRôle de \{/, "« d' » before a vowel (ofName in ~/lib/text)"],
  [/Plus que \{|Plus que 1 /, "« Plus qu'une » (seatsLeftText in ~/lib/format)"],
  [/modules? terminés?/, "lessons are « leçons » wherever they are counted"],
];

describe("the interface's French", () => {
  it("uses one spelling of « e-mail », elides « de » and « que », and one word for lessons", () => {
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

  it("keeps « » and ? ! : ; with their word: a no-break space, never a plain one, in every text", () => {
    // A plain space lets the browser start a line with » or ?, or leave « alone at the end of one.
    const plainSpace = /« |(?<=^|\S) [»?!:;](?![\p{L}\p{N}_])/u;
    const offences: string[] = [];
    for (const file of sources(appDir)) {
      const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        const isText =
          ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node);
        // A JSX text's leading spaces are its own (" : {title}"), though getText() skips them as trivia.
        const text = ts.isJsxText(node) ? source.text.slice(node.pos, node.end) : node.getText(source);
        if (isText && plainSpace.test(text)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          offences.push(`${path.relative(appDir, file)}:${line}: ${text.trim()}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offences).toEqual([]);
  });
});
