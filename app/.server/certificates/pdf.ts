import { formatPercent } from "~/lib/format";
import { loadPdfKit } from "~/.server/pdfkit";
import { formatDate } from "~/lib/dates";
import { toWinAnsi } from "../payments";

/** What the printed certificate states; built by the capability from the certificate row. */
export interface CertificatePdfData {
  institute: { name: string; shortName: string; tagline: string; address: string; email: string };
  code: string;
  learnerName: string;
  courseTitle: string;
  instructorName: string | null;
  issuedAt: Date;
  validUntil: Date | null;
  score: number | null;
  gradeLabel: string | null;
  credits: number;
  /** The public verification page (the QR code's target). */
  verificationUrl: string;
  /** Revoked certificates still print (for the record), marked across the page. */
  revoked: boolean;
}

const PAGE = { width: 841.89, height: 595.28 }; // A4 landscape, in points
const COLOR = { brand: "#1e40af", brandDark: "#1e3a8a", accent: "#f59e0b", text: "#0f172a", muted: "#475569", red: "#b91c1c" };
const FONT = {
  regular: "Helvetica",
  bold: "Helvetica-Bold",
  italic: "Helvetica-Oblique",
  serif: "Times-Bold",
  serifItalic: "Times-Italic",
};

/**
 * The certificate, one A4 landscape page in French: the institute, the learner's name (accents kept:
 * the standard fonts cover French), the course, the grade, the dates, the code, and a QR code to the
 * public verification page. Standard fonts only: a few tens of kilobytes.
 */
export async function renderCertificatePdf(data: CertificatePdfData): Promise<Buffer> {
  const t = toWinAnsi;
  const [PDFDocument, { default: QRCode }] = await Promise.all([loadPdfKit(), import("qrcode")]);
  const qr = await QRCode.toBuffer(data.verificationUrl, { type: "png", errorCorrectionLevel: "M", margin: 1, width: 300 });
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 0,
    lang: "fr-FR",
    displayTitle: true,
    info: {
      Title: `Certificat ${data.code} – ${data.courseTitle}`,
      Author: data.institute.name,
      Subject: `Certificat délivré à ${data.learnerName}`,
      Creator: `${data.institute.shortName} Campus`,
      CreationDate: data.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  // Frame: a thick brand border and a thin gold one inside.
  doc
    .rect(18, 18, PAGE.width - 36, PAGE.height - 36)
    .lineWidth(6)
    .strokeColor(COLOR.brand)
    .stroke();
  doc
    .rect(32, 32, PAGE.width - 64, PAGE.height - 64)
    .lineWidth(1.5)
    .strokeColor(COLOR.accent)
    .stroke();

  const left = 70;
  const width = PAGE.width - 2 * left;
  const center = (text: string, y: number, font: string, size: number, color = COLOR.text) => {
    doc.font(font).fontSize(size).fillColor(color).text(t(text), left, y, { width, align: "center" });
    return doc.y;
  };

  // The institute.
  let y = center(data.institute.name, 58, FONT.bold, 16, COLOR.brandDark);
  y = center(data.institute.tagline, y + 2, FONT.italic, 10, COLOR.muted);

  y = center("CERTIFICAT DE RÉUSSITE", y + 30, FONT.serif, 34, COLOR.brand);
  doc
    .moveTo(PAGE.width / 2 - 80, y + 6)
    .lineTo(PAGE.width / 2 + 80, y + 6)
    .lineWidth(2)
    .strokeColor(COLOR.accent)
    .stroke();

  y = center("Ce certificat est décerné à", y + 22, FONT.regular, 13, COLOR.muted);
  y = center(data.learnerName, y + 8, FONT.serifItalic, 32);
  y = center("pour avoir suivi avec succès la formation", y + 10, FONT.regular, 13, COLOR.muted);
  y = center(data.courseTitle, y + 6, FONT.bold, 20, COLOR.brandDark);

  const details = [
    data.gradeLabel && data.score !== null ? `Mention ${data.gradeLabel} · score ${formatPercent(data.score, { decimals: 2 })}` : null,
    `${data.credits} crédit${data.credits > 1 ? "s" : ""}`,
  ].filter(Boolean);
  center(details.join(" · "), y + 12, FONT.regular, 12);

  // Bottom row: dates and signature on the left, the QR code and the code on the right.
  const bottom = PAGE.height - 150;
  doc.font(FONT.regular).fontSize(11).fillColor(COLOR.text);
  doc.text(t(`Délivré le ${formatDate(data.issuedAt)}`), left, bottom, { width: 300 });
  doc.text(t(data.validUntil ? `Valide jusqu'au ${formatDate(data.validUntil)}` : "Sans date d'expiration"), left, doc.y + 2, {
    width: 300,
  });
  if (data.instructorName) {
    doc
      .moveTo(left, bottom + 62)
      .lineTo(left + 220, bottom + 62)
      .lineWidth(0.8)
      .strokeColor(COLOR.muted)
      .stroke();
    doc
      .font(FONT.regular)
      .fontSize(10)
      .fillColor(COLOR.muted)
      .text(t(`${data.instructorName}, formateur`), left, bottom + 66, { width: 260 });
  }

  const qrSize = 96;
  const qrX = PAGE.width - left - qrSize;
  doc.image(qr, qrX, bottom - 10, { width: qrSize, height: qrSize });
  doc
    .font(FONT.bold)
    .fontSize(10)
    .fillColor(COLOR.text)
    .text(t(`N° ${data.code}`), qrX - 200, bottom + 10, { width: 190, align: "right" });
  doc
    .font(FONT.regular)
    .fontSize(8.5)
    .fillColor(COLOR.muted)
    .text(t(`Vérifiable sur ${data.verificationUrl.replace(/^https?:\/\//, "")}`), qrX - 200, doc.y + 2, { width: 190, align: "right" });

  if (data.revoked) {
    doc.save();
    doc.rotate(-20, { origin: [PAGE.width / 2, PAGE.height / 2] });
    doc
      .font(FONT.bold)
      .fontSize(72)
      .fillColor(COLOR.red)
      .fillOpacity(0.25)
      .text("RÉVOQUÉ", 0, PAGE.height / 2 - 40, { width: PAGE.width, align: "center" });
    doc.restore();
  }

  doc.end();
  return done;
}
