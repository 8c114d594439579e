import { spawnSync } from "node:child_process";
import { inflateSync } from "node:zlib";
import { formatFcfa } from "~/lib/format";
import { describe, expect, test } from "vitest";
import { methodLabel, renderReceiptPdf, toWinAnsi, type ReceiptData } from "./receipt";

const paid: ReceiptData = {
  institute: {
    name: "Institut Consulaire d'Études et de Formation",
    shortName: "ICEF",
    tagline: "Œuvre de la CCIM",
    address: "Cité SEMA, Bamako, Mali",
    phones: ["+223 20 22 50 36", "+223 76 45 12 89"],
    email: "contact@icef.ml",
  },
  reference: "ICEF-7K3P-9QX2",
  receiptNumber: null,
  paidAt: new Date("2026-11-22T14:05:00Z"),
  learner: { name: "Aïssata Coulibaly", email: "aissata@example.ml" },
  course: { title: "Intelligence artificielle : les bases pour l'entreprise" },
  amount: 120_000,
  currency: "XOF",
  method: "mobile_money",
  methodDetail: "Orange Money",
  recordedBy: null,
  status: "completed",
  refundedAt: null,
};

const refunded: ReceiptData = {
  ...paid,
  receiptNumber: "0042",
  method: "cash",
  methodDetail: null,
  recordedBy: "Moussa Traoré",
  status: "refunded",
  refundedAt: new Date("2026-12-01T09:30:00Z"),
};

/**
 * The text pdfkit drew, without a PDF library: inflate each content stream and decode the hex
 * strings of its TJ operators as WinAnsi (cp1252), one line per operator. Checks what we wrote;
 * pdftotext, below, checks that a reader decodes it the same way.
 */
function drawnText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const cp1252 = new TextDecoder("windows-1252");
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString("latin1");
    } catch {
      continue; // not a Flate stream
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(op[1] ?? "").matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]).join("");
      lines.push(cp1252.decode(Buffer.from(hex, "hex")));
    }
  }
  return lines.join("\n");
}

const hasPoppler = !spawnSync("pdftotext", ["-v"]).error;
function poppler(command: "pdftotext" | "pdfinfo", pdf: Buffer): string {
  const result = spawnSync(command, command === "pdftotext" ? ["-enc", "UTF-8", "-", "-"] : ["-enc", "UTF-8", "-"], { input: pdf });
  expect(result.status).toBe(0);
  return result.stdout.toString("utf8");
}

// A PDF reader gives the no-break spaces of French typography back as plain ones: words are compared.
const words = (value: string) => value.replace(/\u00a0/g, " ");

function expectPaidReceipt(text: string) {
  for (const expected of [
    "Institut Consulaire d'Études et de Formation",
    "Œuvre de la CCIM",
    "Cité SEMA, Bamako, Mali",
    "Tél. : +223 20 22 50 36 · +223 76 45 12 89",
    "E-mail : contact@icef.ml",
    "Reçu de paiement",
    "ICEF-7K3P-9QX2",
    "22 novembre 2026 à 14:05",
    "Aïssata Coulibaly",
    "Intelligence artificielle : les bases pour l'entreprise",
    "Formation :",
    "Mobile money (Orange Money)",
    toWinAnsi(formatFcfa(120000)),
    "Payé",
    "Ce reçu atteste du paiement de la formation. Conservez-le.",
  ]) {
    expect(words(text)).toContain(words(expected));
  }
  expect(text).not.toContain("Remboursé");
  expect(text).not.toContain("N° de reçu");
}

function expectRefundedReceipt(text: string) {
  for (const expected of [
    "Remboursé le 1er décembre 2026 à 09:30",
    "N° de reçu",
    "0042",
    "Espèces, payées à l'institut",
    "Moussa Traoré",
    toWinAnsi(formatFcfa(120000)),
  ]) {
    expect(words(text)).toContain(words(expected));
  }
  expect(text).not.toMatch(/^Payé$/m);
}

describe("renderReceiptPdf", () => {
  test("a small one-page A4 PDF whose text is the receipt's, in correct French", async () => {
    const pdf = await renderReceiptPdf(paid);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdf.length).toBeLessThan(20_000); // standard fonts, nothing embedded
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
    expect(pdf.toString("latin1")).toContain("/MediaBox [0 0 595.28 841.89]");
    expectPaidReceipt(drawnText(pdf));
  });

  test("a refunded payment says so, with the refund's date", async () => {
    const text = drawnText(await renderReceiptPdf(refunded));
    expectRefundedReceipt(text);
    expect(text).toContain("Enregistré par :");
  });

  test("a card payment without detail, and a long title that wraps, stay on one page", async () => {
    const pdf = await renderReceiptPdf({ ...paid, method: "card", methodDetail: null, course: { title: "Gestion ".repeat(30).trim() } });
    expect(drawnText(pdf)).toContain("Carte bancaire");
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  // pdftotext reads the PDF as a viewer would, so it proves the fonts' encoding maps é, Œ, ° right.
  test.skipIf(!hasPoppler)("a PDF reader sees the same text and the metadata (poppler)", async () => {
    const pdf = await renderReceiptPdf(paid);
    expectPaidReceipt(poppler("pdftotext", pdf));
    expectRefundedReceipt(poppler("pdftotext", await renderReceiptPdf(refunded)));
    const info = poppler("pdfinfo", pdf);
    expect(info).toMatch(/^Title:\s+Reçu de paiement ICEF-7K3P-9QX2$/m);
    expect(info).toMatch(/^Author:\s+Institut Consulaire d'Études et de Formation$/m);
    expect(info).toMatch(/^CreationDate:\s+\S/m);
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m);
  });
});

describe("receipt text", () => {
  test("methods in French", () => {
    expect(methodLabel("mobile_money", "Orange Money")).toBe("Mobile money (Orange Money)");
    expect(methodLabel("mobile_money", null)).toBe("Mobile money");
    expect(methodLabel("card", "VISA")).toBe("Carte bancaire (VISA)");
    expect(methodLabel("cash", null)).toBe("Espèces, payées à l'institut");
  });

  test("text is kept to what the standard fonts can draw", () => {
    expect(toWinAnsi("Œuvre, façade, à côté, N° 3 – « oui » €")).toBe("Œuvre, façade, à côté, N° 3 – « oui » €");
    expect(toWinAnsi("Dɛmbɛlɛ Kɔnɛ, Ɲuman Ŋolo")).toBe("Dèmbèlè Kònè, Nyuman Ngolo");
    expect(toWinAnsi("Nguyễn Łukasz")).toBe("Nguyen ?ukasz");
    expect(toWinAnsi("1\u202f000\tFCFA\u0007")).toBe("1\u00a0000 FCFA");
    expect(toWinAnsi("E\u0301cole")).toBe("École"); // decomposed accents are composed first
    expect(toWinAnsi("李")).toBe("?");
  });
});
