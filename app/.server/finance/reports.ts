import { loadPdfKit } from "~/.server/pdfkit";
import { desc, eq, sql } from "drizzle-orm";
import { formatDateTime } from "~/lib/dates";
import { formatFcfa } from "~/lib/format";
import { REPORT_PDF_MAX_ROWS } from "~/lib/finance";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { financeReports, users, type ReportCell } from "../db/schema";
import { AppError } from "../errors";
import { toCsv } from "../http/csv";
import { toWinAnsi } from "../payments";
import { assertFinanceManager } from "./commissions";

/** A generated report: a table and its totals, as the read model built it. */
export interface ReportDocument {
  kind: string;
  title: string;
  periodStart: Date;
  periodEnd: Date;
  columns: string[];
  rows: ReportCell[][];
  totals: Array<[string, ReportCell]>;
}

const isAmount = (cell: ReportCell): cell is { fcfa: number } => typeof cell === "object" && cell !== null;

/** A cell as the PDF writes it. */
const cellText = (cell: ReportCell) => (isAmount(cell) ? formatFcfa(cell.fcfa) : cell === null ? "" : String(cell));

export type StoredReport = typeof financeReports.$inferSelect;

/** Keeps a generated report as it is now (its CSV and PDF are drawn from this copy). */
export async function storeReport(db: Database, admin: Actor, report: ReportDocument, now = new Date()): Promise<StoredReport> {
  assertFinanceManager(admin);
  const [row] = await db
    .insert(financeReports)
    .values({
      kind: report.kind,
      title: report.title,
      periodStart: report.periodStart,
      periodEnd: report.periodEnd,
      data: { columns: report.columns, rows: report.rows, totals: report.totals },
      generatedBy: admin.id,
      createdAt: now,
    })
    .returning();
  return row!;
}

/** The history: reports generated, newest first, with who generated them. */
export async function listReports(db: Database, admin: Actor, limit = 30) {
  assertFinanceManager(admin);
  return db
    .select({
      id: financeReports.id,
      kind: financeReports.kind,
      title: financeReports.title,
      createdAt: financeReports.createdAt,
      // Counted in SQL: a year's report keeps every payment, not to be read for its length.
      rowCount: sql<number>`jsonb_array_length(${financeReports.data}->'rows')`.mapWith(Number),
      byFirstName: users.firstName,
      byLastName: users.lastName,
      byEmail: users.email,
    })
    .from(financeReports)
    .leftJoin(users, eq(users.id, financeReports.generatedBy))
    .orderBy(desc(financeReports.createdAt), desc(financeReports.id))
    .limit(limit)
    .then((rows) =>
      rows.map(({ byFirstName, byLastName, byEmail, ...row }) => ({
        ...row,
        generatedBy: `${byFirstName ?? ""} ${byLastName ?? ""}`.trim() || (byEmail ?? "compte supprimé"),
      })),
    );
}

async function getReport(db: Database, admin: Actor, id: number): Promise<StoredReport> {
  assertFinanceManager(admin);
  const [row] = await db.select().from(financeReports).where(eq(financeReports.id, id));
  if (!row) throw AppError.notFound("Rapport introuvable.");
  return row;
}

const fileName = (report: StoredReport, extension: string) =>
  `${report.kind}-${report.createdAt.toISOString().slice(0, 10)}-${report.id}.${extension}`;

/**
 * A stored report as CSV: its table, a blank line, then its totals. Amounts are plain numbers, for
 * the spreadsheet to add up; their column (or total) says « (FCFA) » instead.
 */
export async function reportCsv(db: Database, admin: Actor, id: number) {
  const report = await getReport(db, admin, id);
  const { columns, rows, totals } = report.data;
  const width = columns.length;
  const inFcfa = (label: string) => `${label} (FCFA)`;
  const header = columns.map((column, index) => (rows.some((row) => isAmount(row[index] ?? null)) ? inFcfa(column) : column));
  const value = (cell: ReportCell): string | number | null => (isAmount(cell) ? cell.fcfa : cell);
  const pad = (cells: Array<string | number | null>) => [...cells, ...Array.from({ length: Math.max(0, width - cells.length) }, () => "")];
  const body = toCsv(header, [
    ...rows.map((row) => row.map(value)),
    pad([]),
    ...totals.map(([label, total]) => pad([isAmount(total) ? inFcfa(label) : label, value(total)])),
  ]);
  return { filename: fileName(report, "csv"), body };
}

const PAGE = { margin: 40 };

/**
 * A stored report as an A4 landscape PDF: title, generation line, totals, then the table (pages as
 * needed) up to REPORT_PDF_MAX_ROWS lines, saying so when the CSV has more.
 */
export async function reportPdf(db: Database, admin: Actor, id: number, institute: string): Promise<{ filename: string; pdf: Buffer }> {
  const report = await getReport(db, admin, id);
  const [author] = report.generatedBy
    ? await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, report.generatedBy))
    : [];
  const t = toWinAnsi;
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: PAGE.margin,
    lang: "fr-FR",
    info: { Title: report.title, Author: institute },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * PAGE.margin;
  doc.font("Helvetica-Bold").fontSize(16).fillColor("#1e3a8a").text(t(institute));
  doc.moveDown(0.3).fontSize(13).fillColor("#0f172a").text(t(report.title));
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor("#475569")
    .text(t(`Généré le ${formatDateTime(report.createdAt)}${author ? ` par ${author.firstName} ${author.lastName}` : ""}`));
  doc.moveDown(0.8);
  for (const [label, value] of report.data.totals) {
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .fillColor("#0f172a")
      .text(t(`${label} : `), { continued: true })
      .font("Helvetica")
      .text(t(cellText(value)));
  }
  doc.moveDown(0.8);
  const { columns, rows } = report.data;
  const columnWidth = width / Math.max(1, columns.length);
  const drawRow = (cells: ReportCell[], bold: boolean) => {
    const y = doc.y;
    doc
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(8)
      .fillColor("#0f172a");
    let height = 0;
    cells.forEach((cell, index) => {
      const text = t(cellText(cell));
      height = Math.max(height, doc.heightOfString(text, { width: columnWidth - 6 }));
      doc.text(text, PAGE.margin + index * columnWidth, y, { width: columnWidth - 6 });
    });
    doc.x = PAGE.margin;
    doc.y = y + height + 4;
    doc
      .moveTo(PAGE.margin, doc.y - 2)
      .lineTo(PAGE.margin + width, doc.y - 2)
      .strokeColor("#e2e8f0")
      .lineWidth(0.5)
      .stroke();
  };
  const shown = rows.slice(0, REPORT_PDF_MAX_ROWS);
  if (shown.length < rows.length) {
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor("#92400e")
      .text(
        t(
          `Ce PDF montre les ${shown.length} premières lignes sur ${rows.length} ; ` +
            "le fichier CSV de ce rapport les contient toutes. Les totaux ci-dessus portent sur toutes les lignes.",
        ),
      );
    doc.moveDown(0.6);
  }
  drawRow(columns, true);
  if (rows.length === 0) doc.font("Helvetica").fontSize(9).text(t("Aucune ligne pour cette période."));
  for (const row of shown) {
    if (doc.y > doc.page.height - PAGE.margin - 30) {
      doc.addPage();
      drawRow(columns, true);
    }
    drawRow(row, false);
  }
  doc.end();
  return { filename: fileName(report, "pdf"), pdf: await done };
}
