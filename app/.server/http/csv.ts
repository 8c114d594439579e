/**
 * CSV writing for exports opened in spreadsheets: RFC 4180 quoting, CRLF line ends, a UTF-8 BOM
 * so Excel reads accents, and formula injection neutralized (OWASP "CSV injection"). Cells are
 * separated by semicolons, as a French-speaking Excel expects: with commas it put a whole record
 * in one column (docs/decisions/0038-csv-semicolons.md).
 */

const CSV_SEPARATOR = ";";

/** Characters that make a spreadsheet treat a cell as a formula (tab and CR too, per OWASP). */
const FORMULA_TRIGGERS = new Set(["=", "+", "-", "@", "\t", "\r"]);

export const UTF8_BOM = "\uFEFF";

/**
 * One cell: formula triggers get a leading quote, then RFC 4180 quoting when needed (commas too,
 * for readers that guess the separator).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && text.length > 0 && FORMULA_TRIGGERS.has(text[0]!)) text = `'${text}`;
  if (/[";,\r\n]/.test(text) || text.startsWith(" ") || text.endsWith(" ")) {
    return `"${text.replaceAll('"', '""')}"`;
  }
  return text;
}

/** A whole document: header row then data rows, CRLF between records, BOM first. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(CSV_SEPARATOR));
  return `${UTF8_BOM}${lines.join("\r\n")}\r\n`;
}

/** A CSV document as a download named `filename` (never cached, never sniffed as something else). */
export function csvDownload(filename: string, body: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
