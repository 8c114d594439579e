import { loadPdfKit } from "~/.server/pdfkit";
import { formatFcfa } from "~/lib/format";
import { formatDateTime } from "~/lib/dates";

/** What a payment receipt shows; built by the payments capability from the payment row. */
export interface ReceiptData {
  institute: { name: string; shortName: string; tagline: string; address: string; phones: string[]; email: string };
  /** Our payment reference, e.g. "ICEF-7K3P-9QX2". */
  reference: string;
  /** The paper receipt number an admin typed for a cash payment. */
  receiptNumber: string | null;
  paidAt: Date;
  learner: { name: string; email: string };
  course: { title: string };
  /** Whole FCFA. */
  amount: number;
  currency: "XOF";
  method: "mobile_money" | "card" | "cash";
  /** "Orange Money", "VISA"... when known. */
  methodDetail: string | null;
  /** The admin's name for a cash payment. */
  recordedBy: string | null;
  status: "completed" | "refunded";
  refundedAt: Date | null;
}

export function methodLabel(method: ReceiptData["method"], detail: string | null): string {
  const withDetail = (label: string) => (detail ? `${label} (${detail})` : label);
  switch (method) {
    case "mobile_money":
      return withDetail("Mobile money");
    case "card":
      return withDetail("Carte bancaire");
    case "cash":
      return "Espèces, payées à l'institut";
  }
}

// Characters the standard PDF fonts can draw beyond Latin-1: their WinAnsi (cp1252) extras.
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
// Spaces ICU or a pasted name may carry, and Bambara letters (ɛ ɔ ɲ ŋ) in their older spelling.
const REPLACEMENTS: Record<string, string> = {
  "\u2002": " ",
  "\u2003": " ",
  "\u2007": " ",
  "\u2009": " ",
  "\u200a": " ",
  "\u202f": "\u00a0",
  "\u2010": "-",
  "\u2011": "-",
  "\u2212": "-",
  ɛ: "è",
  Ɛ: "È",
  ɔ: "ò",
  Ɔ: "Ò",
  ɲ: "ny",
  Ɲ: "Ny",
  ŋ: "ng",
  Ŋ: "Ng",
};

/**
 * The standard fonts (Helvetica) only cover WinAnsi, and pdfkit draws anything else as garbage:
 * keep what they can draw, spell the rest with its base letter, else "?". Embedding a Unicode
 * font would cost a font file for names that are nearly always French.
 */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0) ?? 0;
    if (REPLACEMENTS[char] !== undefined) out += REPLACEMENTS[char];
    else if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char)) out += char;
    else if (code === 0x09 || code === 0x0a || code === 0x0d) out += " ";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0))
      continue; // controls draw as wrong glyphs
    else {
      const base = char.normalize("NFD").replace(/\p{M}/gu, "");
      out += base !== char && [...base].every((c) => (c.codePointAt(0) ?? 0) < 0x100) ? base : "?";
    }
  }
  return out;
}

const PAGE = { width: 595.28, height: 841.89, margin: 56 }; // A4 in points, 2 cm margins
const COLOR = {
  brand: "#1e40af",
  brandDark: "#1e3a8a",
  brandLight: "#eff6ff",
  brandBorder: "#dbeafe",
  accent: "#f59e0b",
  text: "#0f172a",
  muted: "#475569",
  paid: "#15803d",
  refunded: "#b91c1c",
};
const FONT = { regular: "Helvetica", bold: "Helvetica-Bold", italic: "Helvetica-Oblique" };

/** An A4 receipt in French, as a PDF, with the standard fonts only (a few kilobytes). */
export async function renderReceiptPdf(data: ReceiptData): Promise<Buffer> {
  const t = toWinAnsi;
  const { institute } = data;
  const refunded = data.status === "refunded";
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    lang: "fr-FR",
    displayTitle: true,
    info: {
      // Metadata strings are UTF-16 in the PDF, so they keep the original text.
      Title: `Reçu de paiement ${data.reference}`,
      Author: institute.name,
      Subject: `${institute.shortName} – ${data.course.title}`,
      Creator: `${institute.shortName} Campus`,
      CreationDate: new Date(),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = PAGE.margin;
  const contentWidth = PAGE.width - 2 * PAGE.margin;

  // Header: the institute's identity on the left, its short name as a badge on the right.
  const badge = { width: 96, height: 44 };
  const identityWidth = contentWidth - badge.width - 24;
  doc.roundedRect(left + contentWidth - badge.width, PAGE.margin, badge.width, badge.height, 6).fill(COLOR.brand);
  doc
    .font(FONT.bold)
    .fontSize(20)
    .fillColor("#ffffff")
    .text(t(institute.shortName), left + contentWidth - badge.width, PAGE.margin + 13, {
      width: badge.width,
      align: "center",
      lineBreak: false,
    });

  doc.font(FONT.bold).fontSize(15).fillColor(COLOR.brandDark).text(t(institute.name), left, PAGE.margin, { width: identityWidth });
  doc.font(FONT.italic).fontSize(10).fillColor(COLOR.muted).text(t(institute.tagline), { width: identityWidth });
  doc.moveDown(0.3).font(FONT.regular).fontSize(9.5).fillColor(COLOR.text);
  doc.text(t(institute.address), { width: identityWidth });
  if (institute.phones.length > 0) doc.text(t(`Tél. : ${institute.phones.join(" · ")}`), { width: identityWidth });
  doc.text(t(`E-mail : ${institute.email}`), { width: identityWidth });

  let y = Math.max(doc.y, PAGE.margin + badge.height) + 14;
  doc
    .moveTo(left, y)
    .lineTo(left + contentWidth, y)
    .lineWidth(2)
    .strokeColor(COLOR.accent)
    .stroke();

  // Title and identifiers.
  y += 24;
  doc.font(FONT.bold).fontSize(24).fillColor(COLOR.text).text("Reçu de paiement", left, y, { width: contentWidth });
  y = doc.y + 12;

  const labelWidth = 130;
  const valueX = left + labelWidth;
  const valueWidth = contentWidth - labelWidth;
  /** A label and its value side by side; returns the y below the taller of the two. */
  const row = (label: string, value: string, options: { bold?: boolean; color?: string; sub?: string } = {}) => {
    doc
      .font(FONT.regular)
      .fontSize(10)
      .fillColor(COLOR.muted)
      .text(t(label), left, y + 1, { width: labelWidth - 10 });
    const labelBottom = doc.y;
    doc
      .font(options.bold ? FONT.bold : FONT.regular)
      .fontSize(11)
      .fillColor(options.color ?? COLOR.text)
      .text(t(value), valueX, y, { width: valueWidth });
    if (options.sub)
      doc
        .font(FONT.regular)
        .fontSize(9.5)
        .fillColor(COLOR.muted)
        .text(t(options.sub), valueX, doc.y + 1, { width: valueWidth });
    y = Math.max(labelBottom, doc.y) + 8;
  };

  row("Référence :", data.reference, { bold: true });
  if (data.receiptNumber) row("N° de reçu :", data.receiptNumber, { bold: true });
  row("Date :", formatDateTime(data.paidAt));

  y += 6;
  doc
    .moveTo(left, y)
    .lineTo(left + contentWidth, y)
    .lineWidth(0.75)
    .strokeColor(COLOR.brandBorder)
    .stroke();
  y += 14;

  row("Apprenant :", data.learner.name, { bold: true, sub: data.learner.email });
  row("Formation :", data.course.title, { bold: true });
  row("Moyen de paiement :", methodLabel(data.method, data.methodDetail));
  if (data.method === "cash" && data.recordedBy) row("Enregistré par :", data.recordedBy);

  // The amount, large, with the payment's status stamped beside it.
  y += 10;
  const box = { height: 92, padding: 20 };
  doc.roundedRect(left, y, contentWidth, box.height, 8).fillAndStroke(COLOR.brandLight, COLOR.brandBorder);
  doc
    .font(FONT.regular)
    .fontSize(10)
    .fillColor(COLOR.muted)
    .text("Montant payé", left + box.padding, y + 18, { lineBreak: false });
  doc
    .font(FONT.bold)
    .fontSize(30)
    .fillColor(COLOR.brandDark)
    .text(t(formatFcfa(data.amount)), left + box.padding, y + 36, { lineBreak: false });

  const stampColor = refunded ? COLOR.refunded : COLOR.paid;
  const stampText = refunded ? "Remboursé" : "Payé";
  doc.font(FONT.bold).fontSize(16);
  const stamp = { width: doc.widthOfString(stampText) + 32, height: 36 };
  const stampX = left + contentWidth - box.padding - stamp.width;
  const stampY = y + (box.height - stamp.height) / 2;
  doc.roundedRect(stampX, stampY, stamp.width, stamp.height, 6).lineWidth(2).strokeColor(stampColor).stroke();
  doc.fillColor(stampColor).text(stampText, stampX, stampY + 11, { width: stamp.width, align: "center", lineBreak: false });
  y += box.height + 14;

  if (refunded) {
    // A refunded receipt must not pass for proof of a standing payment.
    const when = data.refundedAt ? `Remboursé le ${formatDateTime(data.refundedAt)}` : "Remboursé";
    doc.font(FONT.bold).fontSize(13).fillColor(COLOR.refunded).text(when, left, y, { width: contentWidth });
    doc
      .font(FONT.regular)
      .fontSize(10)
      .text("Ce paiement a été remboursé à l'apprenant : ce reçu n'atteste plus d'un paiement en cours.", left, doc.y + 2, {
        width: contentWidth,
      });
  }

  // Footer, kept above the bottom margin so pdfkit doesn't start a second page.
  const footerY = PAGE.height - PAGE.margin - 34;
  doc
    .moveTo(left, footerY)
    .lineTo(left + contentWidth, footerY)
    .lineWidth(0.75)
    .strokeColor(COLOR.brandBorder)
    .stroke();
  doc
    .font(FONT.regular)
    .fontSize(10)
    .fillColor(COLOR.text)
    .text("Ce reçu atteste du paiement de la formation. Conservez-le.", left, footerY + 10, {
      width: contentWidth,
      align: "center",
      lineBreak: false,
    });
  doc
    .fontSize(8.5)
    .fillColor(COLOR.muted)
    .text(t(`${institute.shortName} – ${institute.name} · ${data.reference}`), left, footerY + 24, {
      width: contentWidth,
      align: "center",
      lineBreak: false,
    });

  doc.end();
  return done;
}
