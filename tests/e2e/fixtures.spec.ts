import { roleLabels, roles } from "~/lib/roles";
import { expect, test } from "./fixtures";

/** The fixture of fixtures.ts: each test's own account of the role asked for, signed in without the form. */
for (const role of roles) {
  test.describe(`a test's own ${role}`, () => {
    test.use({ role });

    test("is signed in, with that role, and is nobody else", async ({ page, user, createUser }) => {
      await page.goto("/dashboard/profile");
      await expect(page.getByRole("heading", { name: "Mon Profil" })).toBeVisible();
      await expect(page.getByLabel("E-mail")).toHaveValue(user.email);
      await expect(page.getByTestId("role-badge")).toHaveText(roleLabels[role]);
      // Another one is another account.
      const other = await createUser(role);
      expect(other.email).not.toBe(user.email);
      expect(other.name).not.toBe(user.name);
    });
  });
}
