import { crc32 } from "node:zlib";
import sharp from "sharp";
import { escapeHtml } from "../mail";

/**
 * The badge image of a certificate, with its credential baked in (Open Badges 3.0, "Baking"): a PNG
 * whose iTXt chunk of keyword "openbadgecredential" holds the signed credential (the VC-JWT), so
 * the picture a learner posts is itself the verifiable credential.
 */

export const BAKED_CREDENTIAL_KEYWORD = "openbadgecredential";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG's chunks in order (type, data), after checking its signature. */
export function pngChunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error("not a PNG");
  const chunks = [];
  for (let offset = 8; offset + 12 <= png.length;) {
    const length = png.readUInt32BE(offset);
    chunks.push({ type: png.toString("latin1", offset + 4, offset + 8), data: png.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
  }
  return chunks;
}

/** Bakes `credential` into `png`: one uncompressed iTXt chunk before IEND, any earlier one removed (the spec allows one). */
export function bakePng(png: Buffer, credential: string): Buffer {
  const text = Buffer.concat([
    Buffer.from(BAKED_CREDENTIAL_KEYWORD, "latin1"),
    // NUL, compression flag 0 and method 0, empty language tag and translated keyword (each NUL-ended).
    Buffer.from([0, 0, 0, 0, 0]),
    Buffer.from(credential, "utf8"),
  ]);
  const kept = pngChunks(png).filter(
    (part) =>
      !(
        part.type === "iTXt" &&
        part.data.subarray(0, BAKED_CREDENTIAL_KEYWORD.length + 1).toString("latin1") === `${BAKED_CREDENTIAL_KEYWORD}\0`
      ),
  );
  const body = kept.flatMap((part) =>
    part.type === "IEND" ? [chunk("iTXt", text), chunk("IEND", part.data)] : [chunk(part.type, part.data)],
  );
  return Buffer.concat([PNG_SIGNATURE, ...body]);
}

/** The credential baked in a PNG, or null. */
export function readBakedCredential(png: Buffer): string | null {
  const prefix = `${BAKED_CREDENTIAL_KEYWORD}\0`;
  const found = pngChunks(png).find((part) => part.type === "iTXt" && part.data.subarray(0, prefix.length).toString("latin1") === prefix);
  if (!found) return null;
  // After the keyword: compression flag and method, then language tag and translated keyword, each NUL-ended.
  let offset = prefix.length + 2;
  for (let field = 0; field < 2; field++) offset = found.data.indexOf(0, offset) + 1;
  return found.data.subarray(offset).toString("utf8");
}

/** Splits a text into lines of at most `width` characters, on spaces; three lines at most. */
function lines(title: string, width: number): string[] {
  const result: string[] = [];
  for (const word of title.split(/\s+/)) {
    const last = result.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) result[result.length - 1] = `${last} ${word}`;
    else result.push(word);
  }
  return result.length > 3 ? [...result.slice(0, 2), `${result[2]}…`] : result;
}

/** The badge picture (a 600 px rosette: institute, course, number), as a PNG. */
export async function renderBadgePng(facts: { instituteName: string; courseTitle: string; code: string }): Promise<Buffer> {
  const title = lines(facts.courseTitle, 22);
  const top = 318 - (title.length - 1) * 19;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">
  <circle cx="300" cy="300" r="290" fill="#1e40af"/>
  <circle cx="300" cy="300" r="262" fill="#ffffff"/>
  <circle cx="300" cy="300" r="246" fill="none" stroke="#1e40af" stroke-width="4"/>
  <g font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle" fill="#0f172a">
    <text x="300" y="145" font-size="26" font-weight="700" fill="#1e40af">CERTIFICAT</text>
    ${lines(facts.instituteName, 34)
      .slice(0, 2)
      .map((line, index) => `<text x="300" y="${186 + index * 24}" font-size="18">${escapeHtml(line)}</text>`)
      .join("\n    ")}
    ${title.map((line, index) => `<text x="300" y="${top + index * 38}" font-size="32" font-weight="700">${escapeHtml(line)}</text>`).join("\n    ")}
    <text x="300" y="460" font-size="18" font-family="DejaVu Sans Mono, monospace">${escapeHtml(facts.code)}</text>
  </g>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
