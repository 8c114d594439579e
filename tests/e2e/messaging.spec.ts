import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";

const phone = { viewport: { width: 360, height: 740 } };

test("a learner and the administration talk live, on phones, and the learner again without JavaScript", async ({ createUser, pageOf }) => {
  test.setTimeout(150_000);
  const hello = `Bonjour, une question sur mon inscription ${Date.now()}`;
  const [learner, administrator] = await Promise.all([createUser("user"), createUser("admin")]);
  const admin = await pageOf(administrator, phone);
  await admin.goto("/dashboard/messages");
  await expect(admin.getByRole("heading", { level: 1, name: "Messagerie" })).toBeVisible();

  // The learner starts a conversation with the administration (the people they may write to).
  const student = await pageOf(learner, phone);
  await student.goto("/dashboard/messages");
  await student.getByRole("link", { name: "Nouveau" }).click();
  await student.getByRole("link", { name: administrator.name }).click();
  await expect(student.getByText(`Votre premier message ouvrira la conversation avec ${administrator.name}.`)).toBeVisible();
  const studentText = student.getByLabel("Votre message");
  await studentText.fill(hello);
  await studentText.press("Enter");
  await expect(student).toHaveURL(/\/dashboard\/messages\/\d+$/);
  await expect(student.getByTestId("messages").getByText(hello)).toBeVisible();
  await expectNoSeriousA11yViolations(student);
  // A long thread scrolls with the keyboard too: the thread takes the focus, links inside or not.
  const thread = student.getByRole("region", { name: "Fil de la conversation" });
  await thread.focus();
  await expect(thread).toBeFocused();

  // Without reloading, the administrator's list shows it, unread, with the learner online.
  const row = admin.getByTestId("conversations").getByRole("link", { name: learner.name });
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

  // The learner leaves: the administrator's pane says so without reloading.
  await student.context().close();
  await expect(admin.getByTestId("statut-presence")).toHaveText("Hors ligne", { timeout: 20_000 });

  // Without JavaScript: the list, the conversation and a form post.
  const plain = await pageOf(learner, { ...phone, javaScriptEnabled: false });
  await plain.goto("/dashboard/messages");
  await plain.getByTestId("conversations").getByRole("link", { name: administrator.name }).click();
  await expect(plain.getByTestId("messages").getByText("votre paiement est bien reçu.")).toBeVisible();
  await plain.getByLabel("Votre message").fill("Merci beaucoup !");
  await plain.getByRole("button", { name: "Envoyer" }).click();
  await expect(plain.getByTestId("messages").getByText("Merci beaucoup !")).toBeVisible();
  await expect(plain.getByTestId("messages").getByText("Merci beaucoup !")).toHaveCount(1);
  // And it reaches the administrator live.
  await expect(admin.getByTestId("messages").getByText("Merci beaucoup !")).toBeVisible();
});

test("a learner cannot open someone else's conversation nor write to another learner", async ({ page: student, user, enrol }) => {
  await enrol(user, "Intelligence Artificielle");
  const missing = await student.goto("/dashboard/messages/999999");
  expect(missing?.status()).toBe(404);
  await student.goto("/dashboard/messages/nouveau");
  // The teacher of a followed course and the administration are contacts; other learners never.
  await expect(student.getByTestId("contacts").getByText("Seydou Traoré")).toHaveCount(1);
  for (const learner of ["Moussa Diallo", "Kadiatou Sangaré", "Oumar Touré", "Mariam Koné"]) {
    await expect(student.getByTestId("contacts").getByText(learner)).toHaveCount(0);
  }
});
