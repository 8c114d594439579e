import { hash, verify } from "@node-rs/argon2";
import { commonPasswordsText } from "./common-passwords";
import { normalizeForCommonCheck, passwordPolicyReasons } from "~/lib/password-policy";
import { getInstitute } from "../catalogue";
import type { Database } from "../db/client";

/**
 * Argon2id at OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1), used by Better Auth
 * through emailAndPassword.password.hash/verify instead of its lighter scrypt default.
 */
const ARGON2ID = 2; // Algorithm.Argon2id (a const enum in @node-rs/argon2's types)
export const argon2Options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  if (!stored.startsWith("$argon2")) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

const commonPasswords = new Set(
  commonPasswordsText
    .split(/\r?\n/)
    .map((line) => normalizeForCommonCheck(line))
    .filter((line) => line.length > 0 && !line.startsWith("#")),
);

export function commonPasswordCount(): number {
  return commonPasswords.size;
}

/**
 * A password is common when it is in the list, or becomes a listed password once trailing
 * digits and symbols are removed ("motdepasse2024!" is "motdepasse").
 */
export function isCommonPassword(normalized: string): boolean {
  if (commonPasswords.has(normalized)) return true;
  const stem = normalized.replace(/[\d\W_]+$/u, "");
  return stem.length >= 4 && stem !== normalized && commonPasswords.has(stem);
}

/**
 * The policy's reasons for refusing `password` (French), empty when accepted. `contextWords`:
 * the institute's own words (`passwordContextWords`), refused as the substance of a password.
 */
export function checkPassword(password: string, options: { email?: string | null; contextWords?: string[] } = {}): string[] {
  return passwordPolicyReasons(password, { isCommon: isCommonPassword, ...options });
}

/** The words an attacker tries first on this site: the platform's and the institute's names, its acronym, the words of its address. */
export async function passwordContextWords(db: Database): Promise<string[]> {
  const institute = await getInstitute(db);
  const addressWords = institute.address.split(/[\s,;]+/).filter((word) => word.length >= 4);
  return ["Campus", institute.name, institute.shortName, ...addressWords];
}
