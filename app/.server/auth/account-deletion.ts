import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts, sessions, twoFactors, users, verifications } from "../db/schema";
import type { Auth } from "./auth";
import { cookiesOf } from "./flows";

/** The name a deleted account shows wherever its kept records appear (payments, certificates, forum, messages). */
export const DELETED_ACCOUNT_NAME = "Compte supprimé";

/** An address that is nobody's and can receive nothing (RFC 2606 `.invalid`), unique per account. */
function deletedAccountEmail(userId: string): string {
  return `compte-supprime-${userId.toLowerCase()}@campus.invalid`;
}

/**
 * The auth side of deleting an account (docs/decisions/0045-account-deletion.md), inside the
 * caller's transaction: the users row stays because payments and certificates point at it, but
 * it keeps nothing of the person (names, e-mail, phone, picture) and can never sign in again
 * (no credential, no session, no two-factor secret, banned). The e-mail is freed, so the person
 * may sign up again as a new account. Answers false when the account was already deleted (a
 * second submit changes nothing).
 */
export async function anonymiseAccount(tx: Database, userId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for("update");
  if (!row) return false;
  await tx
    .update(users)
    .set({
      name: DELETED_ACCOUNT_NAME,
      firstName: "Compte",
      lastName: "supprimé",
      email: deletedAccountEmail(userId),
      emailVerified: false,
      phone: null,
      image: null,
      banned: true,
      bannedAt: now,
      twoFactorEnabled: false,
      dataSaver: false,
      deletedAt: now,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(accounts).where(eq(accounts.userId, userId));
  await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
  // Password-setting and reset links carry the user id as their value.
  await tx.delete(verifications).where(eq(verifications.value, userId));
  return true;
}

/**
 * The Set-Cookie headers that sign this browser out once its account is gone (the sessions were
 * deleted with it): Better Auth's own sign-out expires its cookies.
 */
export async function expireSessionCookies(auth: Auth, requestHeaders: Headers): Promise<Headers> {
  const forwarded = new Headers();
  try {
    const result = await auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
    for (const cookie of cookiesOf(result.headers)) forwarded.append("Set-Cookie", cookie);
  } catch {
    // Nothing to expire: the sessions are already deleted, so the cookie opens nothing.
  }
  return forwarded;
}
