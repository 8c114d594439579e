import { expect, test, type Browser } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { signInAs, type demoAccounts } from "./sign-in";

/** A signed-in person in their own browser context, on a 360 px phone unless told. */
async function personIn(browser: Browser, who: keyof typeof demoAccounts, options: { javaScript?: boolean; wide?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: options.wide ? { width: 1280, height: 800 } : { width: 360, height: 740 },
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = await context.newPage();
  await signInAs(page, who);
  return page;
}

test("a learner and the administration talk live, on phones, and the learner again without JavaScript", async ({ browser }) => {
  test.setTimeout(150_000);
  const hello = `Bonjour, une question sur mon inscription ${Date.now()}`;
  const admin = await personIn(browser, "admin");
  await admin.goto("/dashboard/messages");
  await expect(admin.getByRole("heading", { level: 1, name: "Messagerie" })).toBeVisible();

  // The learner starts a conversation with the administration (the people they may write to).
  const student = await personIn(browser, "student");
  await student.goto("/dashboard/messages");
  await student.getByRole("link", { name: "Nouveau" }).click();
  await student.getByRole("link", { name: /Fatoumata Coulibaly/ }).click();
  await expect(student.getByText("Votre premier message ouvrira la conversation avec Fatoumata Coulibaly.")).toBeVisible();
  const studentText = student.getByLabel("Votre message");
  await studentText.fill(hello);
  await studentText.press("Enter");
  await expect(student).toHaveURL(/\/dashboard\/messages\/\d+$/);
  await expect(student.getByTestId("messages").getByText(hello)).toBeVisible();
  await expectNoSeriousA11yViolations(student);

  // Without reloading, the administrator's list shows it, unread, with the learner online.
  const row = admin.getByTestId("conversations").getByRole("link", { name: /Aïssata Keïta/ });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("non-lus")).toHaveText("1");
  await expect(row.getByTestId("en-ligne")).toBeVisible();
  await expectNoSeriousA11yViolations(admin);
  await row.click();
  await expect(admin.getByTestId("messages").getByText(hello)).toBeVisible();
  await expect(admin.getByTestId("statut-presence")).toHaveText("En ligne");
  // Shift+Enter adds a line, Enter sends; an empty message is ignored.
  const adminText = admin.getByLabel("Votre message");
  await adminText.press("Enter");
  await expect(admin.getByTestId("messages").getByRole("listitem")).toHaveCount(1);
  await adminText.fill("Bonjour Aïssata,");
  await adminText.press("Shift+Enter");
  await adminText.pressSequentially("votre paiement est bien reçu.");
  await adminText.press("Enter");
  await expect(adminText).toHaveValue("");
  const reply = admin.getByTestId("messages").getByRole("listitem").last();
  await expect(reply).toContainText("Bonjour Aïssata,");
  await expect(reply.locator("br")).toHaveCount(1);

  // The learner sees the answer live, and the administrator sees it was read.
  await expect(student.getByTestId("messages").getByText("votre paiement est bien reçu.")).toBeVisible();
  await expect(admin.getByText("Vu", { exact: true })).toBeVisible();

  // The learner leaves. (Whether the pane then says « Hors ligne » is not asserted here: the demo
  // student is shared with the specs of the other worker, whose pages keep them online.)
  await student.context().close();

  // Without JavaScript: the list, the conversation and a form post.
  const plain = await personIn(browser, "student", { javaScript: false });
  await plain.goto("/dashboard/messages");
  await plain
    .getByTestId("conversations")
    .getByRole("link", { name: /Fatoumata Coulibaly/ })
    .click();
  await expect(plain.getByTestId("messages").getByText("votre paiement est bien reçu.")).toBeVisible();
  await plain.getByLabel("Votre message").fill("Merci beaucoup !");
  await plain.getByRole("button", { name: "Envoyer" }).click();
  await expect(plain.getByTestId("messages").getByText("Merci beaucoup !")).toBeVisible();
  await expect(plain.getByTestId("messages").getByText("Merci beaucoup !")).toHaveCount(1);
  // And it reaches the administrator live.
  await expect(admin.getByTestId("messages").getByText("Merci beaucoup !")).toBeVisible();
  await plain.context().close();
  await admin.context().close();
});

test("a learner cannot open someone else's conversation nor write to another learner", async ({ browser }) => {
  const student = await personIn(browser, "student", { wide: true });
  const missing = await student.goto("/dashboard/messages/999999");
  expect(missing?.status()).toBe(404);
  await student.goto("/dashboard/messages/nouveau");
  // The teacher of a followed course and the administration are contacts; other learners never.
  await expect(student.getByTestId("contacts").getByText("Seydou Traoré")).toHaveCount(1);
  for (const learner of ["Moussa Diallo", "Kadiatou Sangaré", "Oumar Touré", "Mariam Koné"]) {
    await expect(student.getByTestId("contacts").getByText(learner)).toHaveCount(0);
  }
  await student.context().close();
});
