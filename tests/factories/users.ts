import { randomUUID } from "node:crypto";
import { createAccount } from "~/.server/auth/accounts";
import type { CampusAuth } from "~/.server/auth/express";
import type { Database } from "~/.server/db/client";
import type { Role } from "~/lib/roles";
import { signInCookie } from "../setup/auth";

/** A password that passes the policy; every factory user who signs in has it unless told otherwise. */
export const TEST_PASSWORD = "une phrase assez longue";

/** A person as tests use them: an Actor (id, role), a Payer (names, e-mail, phone), and the password if any. */
export type TestUser = {
  id: string;
  role: Role;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  password: string | null;
};

export type UserOverrides = {
  role?: Role;
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  emailVerified?: boolean;
  /** true: TEST_PASSWORD; a string: that password; default: none (the account cannot sign in with a password). */
  password?: boolean | string;
  /** When the account was created (lists sorted or counted by date). */
  createdAt?: Date;
};

/**
 * An account, created the one way accounts are created (app/.server/auth/accounts.ts): a confirmed
 * e-mail, a student unless told, a unique address.
 */
export async function createUser(
  db: Database,
  overrides: UserOverrides & { password: true | string },
): Promise<TestUser & { password: string }>;
export async function createUser(db: Database, overrides?: UserOverrides): Promise<TestUser>;
export async function createUser(db: Database, overrides: UserOverrides = {}): Promise<TestUser> {
  const role = overrides.role ?? "user";
  const firstName = overrides.firstName ?? "Awa";
  const lastName = overrides.lastName ?? "Traoré";
  const email = overrides.email ?? `${role}-${randomUUID().slice(0, 8)}@exemple.ml`;
  const password = overrides.password === true ? TEST_PASSWORD : typeof overrides.password === "string" ? overrides.password : null;
  const phone = overrides.phone === undefined ? null : overrides.phone;
  const { id, email: stored } = await createAccount(
    db,
    {
      email,
      firstName,
      lastName,
      role,
      phone,
      emailVerified: overrides.emailVerified ?? true,
      ...(password ? { password } : {}),
    },
    overrides.createdAt,
  );
  return { id, role, email: stored, firstName, lastName, phone, password };
}

/** An account with a password, signed in through Better Auth's real endpoint: the user and the Cookie header a browser would send. */
export async function createSignedInUser(campus: CampusAuth, db: Database, overrides: UserOverrides = {}) {
  const user = await createUser(db, { ...overrides, password: overrides.password || true });
  const cookie = await signInCookie(campus, user.email, user.password);
  return { user, cookie };
}
