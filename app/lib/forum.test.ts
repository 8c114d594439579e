import { describe, expect, it } from "vitest";
import { hashtagsOf, textPieces } from "./forum";

describe("hashtagsOf", () => {
  it("finds hashtags once each, lower-case, accents kept, in order", () => {
    expect(hashtagsOf("Débuter en #IA avec #Python", "Encore #ia et #cybersécurité, puis #python_3.")).toEqual([
      "ia",
      "python",
      "cybersécurité",
      "python_3",
    ]);
  });

  it("ignores anchors, entities, single letters and mid-word signs", () => {
    expect(hashtagsOf("https://exemple.ml/page#section C# &#39; note#1 #a")).toEqual([]);
  });

  it("keeps at most ten", () => {
    expect(hashtagsOf(Array.from({ length: 15 }, (_, index) => `#tag${index}`).join(" "))).toHaveLength(10);
  });
});

describe("textPieces", () => {
  it("cuts paragraphs and lines, links http(s) only, and leaves the rest as text", () => {
    const pieces = textPieces("Bonjour <b>tous</b>,\nvoir https://exemple.ml/cours?a=1.\n\njavascript:alert(1) et #IA");
    expect(pieces).toEqual([
      [
        [{ kind: "text", text: "Bonjour <b>tous</b>," }],
        [
          { kind: "text", text: "voir " },
          { kind: "link", href: "https://exemple.ml/cours?a=1", text: "https://exemple.ml/cours?a=1" },
          { kind: "text", text: "." },
        ],
      ],
      [
        [
          { kind: "text", text: "javascript:alert(1) et " },
          { kind: "tag", tag: "ia", text: "#IA" },
        ],
      ],
    ]);
  });

  it("drops blank paragraphs", () => {
    expect(textPieces("\n\n\nUn\r\n\r\n\r\n")).toEqual([[[{ kind: "text", text: "Un" }]]]);
  });
});
