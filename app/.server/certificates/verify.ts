import { eq } from "drizzle-orm";
import { certificateState, gradeLabels, normalizeCertificateCode, type CertificateState } from "~/lib/certificates";
import type { Database } from "../db/client";
import { certificates } from "../db/schema";
import { consumeRateLimit } from "../rate-limit";
import { issuerKeyMethods, issuerProfile, issuerUrls, publishedJwk, signedStatusList } from "./credential";
import { getPublicKey, listPublicKeys } from "./keys";
import { issuerIdentity, type Certificates } from "./services";

/**
 * The public verification of a code: valid, expired or revoked, with the name, the course and the
 * dates, and nothing else personal. Null when no certificate has this code.
 */
export async function verifyCertificateCode(db: Database, code: string, now = new Date()) {
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
  if (!row) return null;
  const state: CertificateState = certificateState(row, now);
  const [replacement] = row.replacedAt
    ? await db.select({ code: certificates.code }).from(certificates).where(eq(certificates.replacesId, row.id))
    : [];
  return {
    code: row.code,
    state,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    issuedAt: row.issuedAt,
    validUntil: row.validUntil,
    gradeLabel: row.grade ? gradeLabels[row.grade] : null,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    replacementCode: replacement?.code ?? null,
    /** The signed credential (VC-JWT): public like this page, for verifiers and wallets. */
    credential: row.credential,
  };
}

/** Public look-ups allowed per address: plenty for an employer, too few to walk the codes. */
export const VERIFICATION_LIMIT = { limit: 30, windowSeconds: 10 * 60 };

/**
 * A visitor's look-up (the QR code's page, the code form): the code read as typed (case, spaces
 * and dashes forgiven), counted against the visitor's address, then verified.
 */
export async function verifyForVisitor(db: Database, rawCode: string, ip: string, now = new Date()) {
  const code = normalizeCertificateCode(rawCode);
  if (!code) return { status: "invalid" as const };
  const allowed = await consumeRateLimit(db, `certificate-verify:ip:${ip}`, { ...VERIFICATION_LIMIT, now });
  if (!allowed.allowed) return { status: "rate_limited" as const, retryAfterSeconds: allowed.retryAfterSeconds };
  const certificate = await verifyCertificateCode(db, code, now);
  return certificate ? { status: "found" as const, certificate } : { status: "not_found" as const, code };
}

/** The published revocation list, signed now. */
export async function revocationList(db: Database, services: Certificates, now = new Date()) {
  const revoked = await db.select({ index: certificates.statusIndex }).from(certificates).where(eq(certificates.status, "revoked"));
  return signedStatusList(
    db,
    services.secret,
    services.publicUrl,
    await issuerIdentity(db, services.publicUrl),
    revoked.map((row) => row.index),
    now,
  );
}

/** The issuer's public Profile (Open Badges 3.0), published at its id, with the keys it signs with. */
export async function publishedIssuerProfile(db: Database, services: Certificates) {
  const profile = issuerProfile(services.publicUrl, await issuerIdentity(db, services.publicUrl));
  return {
    ...profile,
    "@context": [...profile["@context"], "https://www.w3.org/ns/cid/v1"],
    ...issuerKeyMethods(services.publicUrl, await listPublicKeys(db)),
  };
}

/** The issuer's JWKS: every key ever used (current first), each under the kid its signatures carry. */
export async function publishedKeySet(db: Database, services: Certificates) {
  const keys = await listPublicKeys(db);
  return { keys: keys.map((key) => publishedJwk(services.publicUrl, key)), issuer: issuerUrls(services.publicUrl).profile };
}

/** One published key (the URL in a JWT header's kid dereferences to it), or null. */
export async function publishedKey(db: Database, services: Certificates, kid: string) {
  const jwk = await getPublicKey(db, kid);
  return jwk ? publishedJwk(services.publicUrl, { kid, jwk }) : null;
}
