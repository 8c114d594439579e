import { createHash, randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { SignJWT } from "jose";
import { gradeBands } from "~/lib/certificates";
import type { Database } from "../db/client";
import { currentSigningKey, SIGNING_ALGORITHM } from "./keys";

/**
 * Each certificate is also an Open Badges 3.0 credential (a W3C Verifiable Credential, data model
 * 2.0) secured as a VC-JWT (Open Badges 3.0, "JSON Web Token Proof Format"): the credential is the
 * JWT payload with iss, jti, sub, nbf (and exp) claims; the JOSE header's kid is the URL of the
 * signing key, which returns its public JWK, and the same string is that key's kid in the issuer's
 * JWKS (so a JWKS verifier selecting by kid finds it). Its status (revoked or not) is a bit of a published, signed
 * BitstringStatusList, so a verifier needs nothing but these public URLs.
 */

/** The stable public addresses of the issuer, its keys and its revocation list. */
export function issuerUrls(publicUrl: string) {
  return {
    profile: `${publicUrl}/certificats/emetteur`,
    keys: `${publicUrl}/certificats/cles`,
    key: (kid: string) => `${publicUrl}/certificats/cles/${kid}`,
    statusList: `${publicUrl}/certificats/statut`,
    verification: (code: string) => `${publicUrl}/certificats/${code}`,
    /** The credential itself, public (JSON; .jwt for the signed one), as its verification page is. */
    credential: (code: string, format: "json" | "jwt" = "json") => `${publicUrl}/certificats/${code}/attestation.${format}`,
  };
}

export type IssuerIdentity = { name: string; email: string; address: string; url: string };

/** The issuer Profile (Open Badges 3.0), as published at its own id. */
export function issuerProfile(publicUrl: string, identity: IssuerIdentity) {
  const urls = issuerUrls(publicUrl);
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
    id: urls.profile,
    type: ["Profile"],
    name: identity.name,
    url: identity.url,
    email: identity.email,
    address: { type: ["Address"], addressLocality: identity.address, addressCountry: "Mali", addressCountryCode: "ML" },
  };
}

/**
 * The issuer's keys as a controller document lists them (W3C Controlled Identifiers, the shape of a
 * DID document's verificationMethod): each key's id is the kid its signatures carry.
 */
export function issuerKeyMethods(publicUrl: string, keys: Array<{ kid: string; jwk: Record<string, unknown> }>) {
  const urls = issuerUrls(publicUrl);
  const methods = keys.map((key) => ({
    id: urls.key(key.kid),
    type: "JsonWebKey",
    controller: urls.profile,
    publicKeyJwk: publishedJwk(publicUrl, key),
  }));
  return { verificationMethod: methods, assertionMethod: methods.map((method) => method.id) };
}

/** A public JWK as published: its kid is its own URL, the kid of the JWT headers it verifies. */
export function publishedJwk(publicUrl: string, key: { kid: string; jwk: Record<string, unknown> }) {
  return { ...key.jwk, kid: issuerUrls(publicUrl).key(key.kid) };
}

/**
 * The holder's e-mail as an Open Badges IdentityHash: "sha256$" and the hex SHA-256 of the address
 * (lower case) followed by a random salt, so a verifier given the address can match it and nobody
 * else can read it.
 */
export function hashedEmailIdentity(email: string, salt = randomBytes(12).toString("hex")) {
  const digest = createHash("sha256").update(`${email.trim().toLowerCase()}${salt}`, "utf8").digest("hex");
  return { type: "IdentityObject", identityType: "emailAddress", hashed: true, identityHash: `sha256$${digest}`, salt } as const;
}

/** A learner's stable subject id (a name-based UUID): the same for all their certificates, and says nothing about them. */
export function subjectIdOf(userId: string): string {
  const hex = createHash("sha256").update(`campus-learner:${userId}`).digest("hex").slice(0, 32).split("");
  hex[12] = "8"; // RFC 9562 version 8 (custom), variant 10xx
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export type CredentialFacts = {
  id: string;
  code: string;
  userId: string;
  learnerName: string;
  learnerEmail: string;
  courseTitle: string;
  courseDescription: string;
  courseUrl: string;
  issuedAt: Date;
  validUntil: Date | null;
  credits: number;
  skills: string[];
  score: number | null;
  gradeLabel: string | null;
  statusIndex: number;
};

/** The OpenBadgeCredential of a certificate (unsigned). */
export function buildCredential(publicUrl: string, identity: IssuerIdentity, facts: CredentialFacts) {
  const urls = issuerUrls(publicUrl);
  const profile = issuerProfile(publicUrl, identity);
  const achievementId = `${facts.courseUrl}#certificat`;
  const scoreId = `${achievementId}-score`;
  const gradeId = `${achievementId}-mention`;
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
    id: `urn:uuid:${facts.id}`,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: `Certificat : ${facts.courseTitle}`,
    issuer: { id: profile.id, type: profile.type, name: profile.name, url: profile.url, email: profile.email },
    validFrom: facts.issuedAt.toISOString(),
    ...(facts.validUntil ? { validUntil: facts.validUntil.toISOString() } : {}),
    credentialSubject: {
      id: subjectIdOf(facts.userId),
      type: ["AchievementSubject"],
      identifier: [
        { type: "IdentityObject", identityType: "name", hashed: false, identityHash: facts.learnerName },
        hashedEmailIdentity(facts.learnerEmail),
      ],
      creditsEarned: facts.credits,
      achievement: {
        id: achievementId,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: facts.courseTitle,
        description: facts.courseDescription,
        criteria: {
          narrative: "Toutes les leçons de la formation terminées et toutes les évaluations obligatoires réussies.",
        },
        creditsAvailable: facts.credits,
        tag: facts.skills,
        resultDescription: [
          {
            id: scoreId,
            type: ["ResultDescription"],
            name: "Score moyen aux évaluations",
            resultType: "Percent",
            valueMin: "0",
            valueMax: "100",
          },
          {
            id: gradeId,
            type: ["ResultDescription"],
            name: "Mention",
            resultType: "LetterGrade",
            allowedValue: gradeBands.map((band) => band.label),
          },
        ],
      },
      // The score and its grade as Results, each read against its ResultDescription above.
      ...(facts.score !== null
        ? {
            result: [
              { type: ["Result"], resultDescription: scoreId, value: String(facts.score) },
              ...(facts.gradeLabel ? [{ type: ["Result"], resultDescription: gradeId, value: facts.gradeLabel }] : []),
            ],
          }
        : {}),
    },
    credentialStatus: {
      id: `${urls.statusList}#${facts.statusIndex}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(facts.statusIndex),
      statusListCredential: urls.statusList,
    },
    evidence: [{ id: urls.verification(facts.code), type: ["Evidence"], name: "Page de vérification" }],
  };
}

type Claims = Record<string, unknown> & { id: string; issuer: { id: string } | string; validFrom: string; validUntil?: string };

/** Signs a credential as a compact JWS (VC-JWT) with the institute's current key. */
export async function signCredential(db: Database, secret: string, publicUrl: string, credential: Claims, subject: string | null) {
  const key = await currentSigningKey(db, secret);
  const issuer = typeof credential.issuer === "string" ? credential.issuer : credential.issuer.id;
  const jwt = new SignJWT(credential)
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: issuerUrls(publicUrl).key(key.kid), typ: "JWT" })
    .setIssuer(issuer)
    .setJti(credential.id)
    .setNotBefore(Math.floor(Date.parse(credential.validFrom) / 1000));
  if (subject) jwt.setSubject(subject);
  if (credential.validUntil) jwt.setExpirationTime(Math.floor(Date.parse(credential.validUntil) / 1000));
  return jwt.sign(key.privateKey);
}

/** The BitstringStatusList's minimum size (W3C): 16 KB, so a bit says nothing about how many certificates exist. */
const STATUS_LIST_BITS = 131_072;

/** The revocation list: bit i (from the left of byte 0) is 1 when the certificate of status index i is revoked. */
export function encodeStatusList(revokedIndexes: number[]): string {
  const size = Math.max(STATUS_LIST_BITS, Math.ceil((Math.max(-1, ...revokedIndexes) + 1) / 8) * 8);
  const bits = Buffer.alloc(size / 8);
  for (const index of revokedIndexes) bits[index >> 3]! |= 0x80 >> (index & 7);
  return `u${gzipSync(bits).toString("base64url")}`;
}

/** The signed BitstringStatusListCredential published at /certificats/statut. */
export async function signedStatusList(
  db: Database,
  secret: string,
  publicUrl: string,
  identity: IssuerIdentity,
  revokedIndexes: number[],
  now: Date,
) {
  const urls = issuerUrls(publicUrl);
  const credential = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    id: urls.statusList,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: { id: urls.profile, name: identity.name },
    validFrom: now.toISOString(),
    credentialSubject: {
      id: `${urls.statusList}#liste`,
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: encodeStatusList(revokedIndexes),
    },
  };
  return signCredential(db, secret, publicUrl, credential, `${urls.statusList}#liste`);
}
