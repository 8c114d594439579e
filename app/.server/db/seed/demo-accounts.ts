import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { Role } from "~/lib/roles";
import { hashPassword } from "../../auth/password";
import type { Database } from "../client";
import { accounts, users } from "../schema";

/**
 * Accounts for trying Campus on a laptop (development only, never with NODE_ENV=production):
 * confirmed addresses, passwords that pass the policy. Listed in README.md.
 */
export const demoAccounts: ReadonlyArray<{ email: string; password: string; firstName: string; lastName: string; role: Role }> = [
  { email: "admin@campus.test", password: "Demo-Admin-ICEF-2025", firstName: "Fatoumata", lastName: "Coulibaly", role: "admin" },
  { email: "enseignant@campus.test", password: "Demo-Enseignant-2025", firstName: "Seydou", lastName: "Traoré", role: "teacher" },
  { email: "etudiant@campus.test", password: "Demo-Etudiant-2025", firstName: "Aïssata", lastName: "Keïta", role: "user" },
];

function newId(): string {
  return randomBytes(24).toString("base64url").slice(0, 32);
}

/** Creates the demo accounts that do not exist yet (matched by e-mail); existing ones are left alone. */
export async function seedDemoAccounts(db: Database): Promise<number> {
  const existing = new Set(
    (await db.select({ email: users.email }).from(users).where(inArray(users.email, demoAccounts.map((account) => account.email)))).map((row) => row.email),
  );
  const missing = demoAccounts.filter((account) => !existing.has(account.email));
  if (missing.length === 0) return 0;
  const prepared = await Promise.all(missing.map(async (account) => ({ ...account, id: newId(), hash: await hashPassword(account.password) })));
  await db.transaction(async (tx) => {
    for (const account of prepared) {
      const now = new Date();
      await tx
        .insert(users)
        .values({
          id: account.id,
          name: `${account.firstName} ${account.lastName}`,
          email: account.email,
          emailVerified: true,
          firstName: account.firstName,
          lastName: account.lastName,
          role: account.role,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: users.email });
      await tx
        .insert(accounts)
        .values({ id: newId(), accountId: account.id, providerId: "credential", userId: account.id, password: account.hash, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
    }
  });
  return prepared.length;
}
