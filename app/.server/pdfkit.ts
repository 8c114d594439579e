/**
 * pdfkit, loaded on the first PDF drawn (receipts, certificates, reports) instead of at start:
 * with its fonts and dependencies it weighs some 30 MB that a process serving pages would carry
 * idle (decision 0012).
 */
export async function loadPdfKit(): Promise<typeof import("pdfkit")> {
  return (await import("pdfkit")).default;
}
