import { afterAll, beforeAll, expect, test } from "vitest";
import { signIn } from "~/.server/auth/flows";
import { checkPassword, passwordContextWords } from "~/.server/auth/password";
import { createPasswordSetupUrl } from "~/.server/auth/password-setup";
import { resetPassword } from "~/.server/auth/flows";
import { users } from "~/.server/db/schema";
import { demoAccounts, seedDemoAccounts } from "~/.server/db/seed/demo-accounts";
import { createTestDatabase } from "../setup/db";
import { createUser } from "../factories";
import { browserHeaders, createTestAuth } from "../setup/auth";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => handle?.close());

test("tests get no demo account from the seed (NODE_ENV=test)", async () => {
  expect(await handle.db.$count(users)).toBe(0);
});

test("demo accounts: passwords pass the policy, seeding is idempotent, each signs in with its role", async () => {
  for (const account of demoAccounts)
    expect(checkPassword(account.password, { email: account.email, contextWords: await passwordContextWords(handle.db) })).toEqual([]);
  expect(await seedDemoAccounts(handle.db)).toBe(3);
  expect(await seedDemoAccounts(handle.db)).toBe(0);
  const campus = createTestAuth(handle.db);
  for (const account of demoAccounts) {
    const result = await signIn(campus.auth, browserHeaders("203.0.113.90"), { email: account.email, password: account.password });
    expect(result.ok, account.email).toBe(true);
  }
  expect((await handle.db.select({ role: users.role }).from(users)).map((row) => row.role).sort()).toEqual(["admin", "teacher", "user"]);
});

test("a password-setup link (invitation, first admin) sets the first password and signs in", async () => {
  const campus = createTestAuth(handle.db);
  const invited = await createUser(handle.db, { email: "invite@example.ml", firstName: "Fanta", lastName: "Camara", role: "teacher" });
  const url = await createPasswordSetupUrl(campus.auth, "http://campus.test", invited.id);
  const token = new URL(url).searchParams.get("token")!;
  const result = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.91"), {
    token,
    password: "ma première phrase de passe",
  });
  expect(result).toMatchObject({ ok: true, signedIn: true });
  expect(
    (await signIn(campus.auth, browserHeaders("203.0.113.91"), { email: "invite@example.ml", password: "ma première phrase de passe" })).ok,
  ).toBe(true);
});
