import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { desc, eq, isNull, sql } from "drizzle-orm";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Database } from "../db/client";
import { issuerKeys } from "../db/schema";

/**
 * The institute's Ed25519 signing keys, kept in the database so that every server process signs
 * with the same key. The private half is encrypted with a key derived from the application secret
 * (BETTER_AUTH_SECRET): a copy of the database alone cannot forge certificates. If that secret
 * changes, the old key can no longer be opened: it is retired (its public half stays published,
 * so what it signed still verifies) and a new one is made.
 */

export const SIGNING_ALGORITHM = "EdDSA";

function wrappingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "campus-issuer-keys", "ed25519-private-jwk-v1", 32));
}

function encrypt(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", wrappingKey(secret), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

function decrypt(secret: string, sealed: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", wrappingKey(secret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export type SigningKey = { kid: string; privateKey: CryptoKey };

/** The current signing key; the first use (or a changed secret) creates one, once even across processes. */
export async function currentSigningKey(db: Database, secret: string, now = new Date()): Promise<SigningKey> {
  const open = async (tx: Database) => {
    const [row] = await tx
      .select()
      .from(issuerKeys)
      .where(isNull(issuerKeys.retiredAt))
      .orderBy(desc(issuerKeys.createdAt), desc(issuerKeys.kid))
      .limit(1);
    if (!row) return null;
    const privateJwk = decrypt(secret, row.encryptedPrivateJwk);
    if (privateJwk === null) {
      await tx.update(issuerKeys).set({ retiredAt: now }).where(eq(issuerKeys.kid, row.kid));
      return null;
    }
    return { kid: row.kid, privateKey: (await importJWK(JSON.parse(privateJwk) as JWK, SIGNING_ALGORITHM)) as CryptoKey };
  };
  const found = await open(db);
  if (found) return found;
  return db.transaction(async (tx) => {
    // One process creates the key; another waiting here then finds it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('campus.issuer_keys'))`);
    const again = await open(tx);
    if (again) return again;
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: "Ed25519", extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    await tx.insert(issuerKeys).values({
      kid,
      publicJwk: { kty: publicJwk.kty!, crv: publicJwk.crv!, x: publicJwk.x!, kid, alg: SIGNING_ALGORITHM, use: "sig" },
      encryptedPrivateJwk: encrypt(secret, JSON.stringify(await exportJWK(privateKey))),
      createdAt: now,
    });
    return { kid, privateKey };
  });
}

/** Every public key ever used (current first), for the published key set. */
export async function listPublicKeys(db: Database) {
  return db
    .select({ kid: issuerKeys.kid, jwk: issuerKeys.publicJwk, createdAt: issuerKeys.createdAt, retiredAt: issuerKeys.retiredAt })
    .from(issuerKeys)
    .orderBy(sql`${issuerKeys.retiredAt} is not null`, desc(issuerKeys.createdAt));
}

/** One published public key (a JWK without any private part), or null. */
export async function getPublicKey(db: Database, kid: string) {
  const [row] = await db.select({ jwk: issuerKeys.publicJwk }).from(issuerKeys).where(eq(issuerKeys.kid, kid));
  return row?.jwk ?? null;
}
