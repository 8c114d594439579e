/**
 * What a certificate says, shared by the server and the pages (browser-safe): grades by score
 * band, their labels, and the status a verifier reads.
 */

export const certificateGrades = ["excellent", "tres_bien", "bien"] as const;
export type CertificateGrade = (typeof certificateGrades)[number];

/** The bands, highest first: a score at or above `from` earns the grade. Shown to learners as they are. */
export const gradeBands: ReadonlyArray<{ grade: CertificateGrade; label: string; from: number }> = [
  { grade: "excellent", label: "Excellent", from: 90 },
  { grade: "tres_bien", label: "Très Bien", from: 80 },
  { grade: "bien", label: "Bien", from: 0 },
];

export const gradeLabels: Record<CertificateGrade, string> = { excellent: "Excellent", tres_bien: "Très Bien", bien: "Bien" };

/** The grade of a score; a course without quiz has no score, hence no grade. */
export function gradeOf(score: number | null): CertificateGrade | null {
  if (score === null) return null;
  return gradeBands.find((band) => score >= band.from)!.grade;
}

/** "Excellent : 90 % et plus · Très Bien : 80 à 89,99 % · Bien : en dessous" */
export function gradeBandsText(): string {
  return "Excellent : 90 % et plus · Très Bien : de 80 à 89,99 % · Bien : en dessous de 80 %";
}

export type CertificateState = "valid" | "expired" | "revoked";

/** Revoked wins; then a validity date in the past makes it expired. */
export function certificateState(row: { status: "valid" | "revoked"; validUntil: Date | null }, now: Date): CertificateState {
  if (row.status === "revoked") return "revoked";
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) return "expired";
  return "valid";
}

export const certificateStateLabels: Record<CertificateState, string> = {
  valid: "Certificat valide",
  expired: "Certificat expiré",
  revoked: "Certificat révoqué",
};

/** A code as typed by someone reading it: case, spaces and dashes forgiven ("icef 7k3p9qx2 m4td" → "ICEF-7K3P-9QX2-M4TD"). */
export function normalizeCertificateCode(input: string): string | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  const match = /^ICEF([0-9A-Z]{12})$/.exec(compact);
  if (!match) return null;
  const body = match[1]!;
  return `ICEF-${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8, 12)}`;
}

/** LinkedIn's "Add to profile" link for a certification (its documented query parameters). */
export function linkedInAddToProfileUrl(args: {
  name: string;
  organizationName: string;
  issuedAt: Date;
  validUntil: Date | null;
  code: string;
  url: string;
}): string {
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: args.name,
    organizationName: args.organizationName,
    issueYear: String(args.issuedAt.getUTCFullYear()),
    issueMonth: String(args.issuedAt.getUTCMonth() + 1),
    certId: args.code,
    certUrl: args.url,
  });
  if (args.validUntil) {
    params.set("expirationYear", String(args.validUntil.getUTCFullYear()));
    params.set("expirationMonth", String(args.validUntil.getUTCMonth() + 1));
  }
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}
