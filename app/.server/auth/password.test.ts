import { expect, test } from "vitest";
import { checkPassword, commonPasswordCount, hashPassword, isCommonPassword, verifyPassword } from "./password";

test("the common-password list is loaded (over a thousand entries)", () => {
  expect(commonPasswordCount()).toBeGreaterThan(1000);
  for (const common of ["123456", "password", "azerty", "motdepasse", "bamako", "iloveyou", "qwerty123"])
    expect(isCommonPassword(common)).toBe(true);
});

test("a listed word followed by digits or symbols is common too", () => {
  expect(isCommonPassword("motdepasse2024!")).toBe(true);
  expect(isCommonPassword("soleil1987")).toBe(true);
  expect(isCommonPassword("le fleuve niger")).toBe(false);
  expect(checkPassword("Azerty2025!")).toEqual(["Ce mot de passe est trop courant : choisissez-en un moins facile à deviner."]);
});

test("Argon2id hashes at OWASP parameters verify the right password only", async () => {
  const hash = await hashPassword("une phrase de passe");
  expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  expect(await verifyPassword({ hash, password: "une phrase de passe" })).toBe(true);
  expect(await verifyPassword({ hash, password: "une autre phrase" })).toBe(false);
  expect(await verifyPassword({ hash: "scrypt:abc", password: "x" })).toBe(false);
});
