import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Role } from "~/lib/roles";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { AppError } from "../errors";
import { accounts, users } from "../db/schema";
import { hashPassword } from "./password";

export type NewAccount = {
  email: string;
  firstName: string;
  lastName: string;
  role?: Role;
  phone?: string | null;
  /** A confirmed address (an invitation is sent to it; demo accounts; tests). Default: true. */
  emailVerified?: boolean;
  /** A password to sign in with at once (hashed here); without one, the person chooses it through a password-setup link. */
  password?: string;
};

export const duplicateEmailMessage = "Un compte existe déjà avec cette adresse e-mail.";

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `length` random letters and digits, evenly drawn: ids, and tokens that travel in links. */
export function randomAlphanumeric(length: number): string {
  let result = "";
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue; // 248 = 62 * 4: keeps the draw uniform
      result += alphanumerics[byte % 62];
      if (result.length === length) break;
    }
  }
  return result;
}

/** Better Auth's id shape: 32 letters and digits. */
export function newAccountId(): string {
  return randomAlphanumeric(32);
}

/**
 * The one way an account is created besides Better Auth's own sign-up form: an administrator's
 * invitation, the demo accounts, `npm run create-admin` and the tests all come here. The address
 * is stored in lower case; one already taken is a conflict on the e-mail field (the unique index
 * settles two creations at once). Runs inside the caller's transaction when given one.
 */
export async function createAccount(db: Database, input: NewAccount, now = new Date()): Promise<{ id: string; email: string }> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const id = newAccountId();
  // The person and their password together, or neither (a savepoint inside a caller's transaction).
  await db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (taken) throw duplicateEmail();
    try {
      await tx.insert(users).values({
        id,
        name: `${input.firstName} ${input.lastName}`.trim(),
        email,
        emailVerified: input.emailVerified ?? true,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone ?? null,
        role: input.role ?? "user",
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
    if (passwordHash) {
      await tx.insert(accounts).values({
        id: newAccountId(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
    }
  });
  return { id, email };
}

function duplicateEmail() {
  return new AppError("conflict", duplicateEmailMessage, { fieldErrors: { email: duplicateEmailMessage }, reason: "duplicate_email" });
}
