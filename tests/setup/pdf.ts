import zlib from "node:zlib";

const winAnsi = new TextDecoder("windows-1252");

/**
 * The text runs a PDF drawn by PDFKit with its standard fonts shows, in order: each `[<hex> kern
 * <hex>…] TJ` of its (deflated) page contents, decoded from WinAnsi. Enough to check what a
 * receipt or a report says, not a PDF reader.
 */
export function pdfTextRuns(pdf: Buffer): string[] {
  const runs: string[] = [];
  const text = pdf.toString("latin1");
  // Each stream read by its declared /Length: deflated bytes may end in "\r", which a pattern
  // stopping at "\r\nendstream" would cut off.
  for (const match of text.matchAll(/\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const stream = pdf.subarray(start, start + Number(match[1]));
    let content: string;
    try {
      content = zlib.inflateSync(stream).toString("latin1");
    } catch {
      continue; // an image or a font, not page contents
    }
    for (const [, array] of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array!.matchAll(/<([0-9a-f]*)>/gi)].map((part) => part[1]).join("");
      runs.push(winAnsi.decode(Buffer.from(hex, "hex")));
    }
  }
  return runs;
}
