import { describe, expect, test } from "vitest";
import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  test.each([
    ["/dashboard/profile", "/dashboard/profile"],
    ["/formations?categorie=tech#liste", "/formations?categorie=tech#liste"],
    ["/admin/users?q=awa%20traor%C3%A9", "/admin/users?q=awa%20traor%C3%A9"],
  ])("keeps the same-site path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  test.each([
    "//evil.example",
    "//evil.example/dashboard",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/dashboard",
    "http:/evil.example",
    "javascript:alert(1)",
    "dashboard",
    "/dash\nboard",
    "/%0d%0aSet-Cookie:x",
    "/auth?onglet=inscription",
    "/api/auth/sign-out",
    " //evil.example",
    "/\t/evil.example",
    "\t//evil.example",
    "/\u0000/evil.example",
    "/\r\nSet-Cookie: x=1",
    "",
  ])("refuses %j", (input) => {
    const result = safeRedirect(input);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(new URL(result, "http://campus.test").origin).toBe("http://campus.test");
    if (!input.startsWith("/%0d")) expect(result).toBe("/dashboard");
  });

  test("non-strings fall back", () => {
    expect(safeRedirect(null)).toBe("/dashboard");
    expect(safeRedirect(undefined, "/")).toBe("/");
  });
});
