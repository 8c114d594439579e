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
  expect(passwordPolicyReasons("ab".repeat(65))).toEqual([passwordMessages.tooLong]);
  expect(passwordPolicyReasons("une phrase de passe".repeat(6).slice(0, 128))).toEqual([]);
  expect(passwordPolicyReasons("Bamako2025", { isCommon: (value) => value === "bamako2025" })).toEqual([passwordMessages.common]);
  expect(passwordPolicyReasons("awa.traore@example.ml", { email: "awa.traore@example.ml" })).toEqual([passwordMessages.containsEmail]);
  expect(passwordPolicyReasons("une phrase de passe")).toEqual([]);
});

test("spaces around a password do not count, and spaces alone are no password", () => {
  expect(passwordPolicyReasons("        ")).toEqual([passwordMessages.blank]);
  expect(passwordPolicyReasons(" \t  \n   ")).toEqual([passwordMessages.blank]);
  expect(passwordPolicyReasons("   abc   ")).toEqual([passwordMessages.tooShort]);
  expect(passwordPolicyReasons("  une phrase  ")).toEqual([]);
});

test("the institute's own words are no password, however decorated", () => {
  const contextWords = ["Campus", "Institut Consulaire d'Études et de Formation", "ICEF", "Cité", "SEMA", "Bamako", "Mali"];
  for (const password of ["icef2025", "ICEF-2025!", "Bamako123", "IcefBamako", "bamako mali 2025", "Campus2025", "cité sema 99"]) {
    expect(passwordPolicyReasons(password, { contextWords }), password).toEqual([passwordMessages.contextWord]);
  }
  expect(passwordPolicyReasons("Institut Consulaire d'Études et de Formation", { contextWords })).toEqual([passwordMessages.contextWord]);
  // Words of one's own around them are fine.
  for (const password of ["icef mon chat orange", "Bamako sous la pluie", "Demo-Admin-ICEF-2025"]) {
    expect(passwordPolicyReasons(password, { contextWords }), password).toEqual([]);
  }
});

test("one character repeated is no password, whatever its length or case", () => {
  for (const password of ["aaaaaaaaaaaa", "11111111", "AaAaAaAaAa", "  zzzzzzzzz  ", "éééééééé", "😀😀😀😀😀😀😀😀"]) {
    expect(passwordPolicyReasons(password), password).toEqual([passwordMessages.repeated]);
  }
  expect(passwordPolicyReasons("a".repeat(129))).toEqual([passwordMessages.tooLong, passwordMessages.repeated]);
  expect(passwordPolicyReasons("aaaaaaab")).toEqual([]);
});
