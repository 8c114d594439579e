import { expect, test } from "vitest";
import { passwordLength, passwordMessages, passwordPolicyReasons } from "./password-policy";

test("length counts characters, not UTF-16 units", () => {
  expect(passwordLength("éééééééé")).toBe(8);
  expect(passwordLength("😀😀😀😀😀😀😀")).toBe(7);
});

test("reasons in French", () => {
  expect(passwordPolicyReasons("")).toEqual([passwordMessages.required]);
  expect(passwordPolicyReasons("court")).toEqual(["Le mot de passe doit contenir au moins 8 caractères."]);
  expect(passwordPolicyReasons("😀😀😀😀😀😀😀")).toEqual([passwordMessages.tooShort]);
  expect(passwordPolicyReasons("a".repeat(129))).toEqual([passwordMessages.tooLong]);
  expect(passwordPolicyReasons("a".repeat(128))).toEqual([]);
  expect(passwordPolicyReasons("Bamako2025", { isCommon: (value) => value === "bamako2025" })).toEqual([passwordMessages.common]);
  expect(passwordPolicyReasons("awa.traore@example.ml", { email: "awa.traore@example.ml" })).toEqual([passwordMessages.containsEmail]);
  expect(passwordPolicyReasons("une phrase de passe")).toEqual([]);
});
