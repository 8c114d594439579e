import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";

const phone = { viewport: { width: 360, height: 740 } };

const bell = (page: Page) =>
  page
    .getByRole("banner")
    .getByRole("link", { name: /^Notifications/ })
    .or(page.getByRole("banner").getByRole("button", { name: /^Notifications/ }));

test.describe("forum", () => {
  test("a reply to a thread reaches its author's bell live, on a phone", async ({ createUser, pageOf }) => {
    test.setTimeout(120_000);
    const title = `Débuter en IA ${Date.now()}`;
    const [learner, teacherAccount] = await Promise.all([createUser("user"), createUser("teacher")]);
    const author = await pageOf(learner, phone);
    await author.goto("/dashboard/forum");
    await expect(author.getByRole("heading", { level: 1, name: "Forum" })).toBeVisible();
    // The category chips scroll on their own: the page keeps the phone's width.
    expect(await author.evaluate(() => document.documentElement.scrollWidth)).toBe(phone.viewport.width);
    await author.getByRole("link", { name: "Nouveau post" }).click();
    await author.getByRole("button", { name: "Publier" }).click();
    await expect(author.getByRole("alert")).toHaveText("Veuillez remplir tous les champs");
    await author.getByLabel("Titre").fill(title);
    // Someone else posts meanwhile: the list reloads live, and the form stays open with what was typed.
    const teacher = await pageOf(teacherAccount);
    const other = `Ressources solaires ${Date.now()}`;
    const posted = await teacher.request.post("/dashboard/forum", {
      form: { intent: "create", title: other, body: "Voici mes fiches sur les batteries.", category: "questions-generales" },
      headers: { Origin: new URL(author.url()).origin },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(302);
    await expect(author.getByRole("article").filter({ hasText: other })).toBeVisible();
    await expect(author.getByLabel("Titre")).toHaveValue(title);
    await author.getByLabel("Contenu").fill("Par quel module commencer ? #IA #python");
    await author.getByLabel("Catégorie", { exact: true }).selectOption("intelligence-artificielle");
    // The new post's live event reaches this very page while the redirect still loads it, as on a
    // busy server: held back here (on the context, which sees the service worker's requests), that
    // load must still be the one shown, with its one-time toast.
    let heldBack = false;
    await author.context().route(
      (url) => url.pathname === "/dashboard/forum.data",
      async (route) => {
        if (heldBack || route.request().method() !== "GET") return route.fallback();
        heldBack = true;
        // The server answers at once that the toast is handed over (its cookie is spent), and the rest comes late.
        const headers = await route.request().allHeaders();
        await author.context().clearCookies({ name: "campus_toast" });
        const response = await route.fetch({ headers });
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.fulfill({ response });
      },
    );
    await author.getByRole("button", { name: "Publier" }).click();
    // The post, its redirect and the page may take more than 5 s on a busy machine: wait longer for the toast.
    await expect(author.getByText("Votre post a été publié avec succès")).toBeVisible({ timeout: 15_000 });
    const card = author.getByRole("article").filter({ hasText: title });
    await expect(card.getByRole("link", { name: "#ia" })).toBeVisible();
    await expectNoSeriousA11yViolations(author);

    await teacher.goto("/dashboard/forum?tag=python");
    await teacher.getByRole("link", { name: title }).click();
    await teacher.getByLabel("Votre réponse").fill("Commencez par Python & TensorFlow.");
    await teacher.getByRole("button", { name: "Publier la réponse" }).click();
    await expect(teacher.getByText("Commencez par Python & TensorFlow.")).toBeVisible();
    await expectNoSeriousA11yViolations(teacher);

    // A refused report stays open, with what was typed since, when the thread reloads live.
    await teacher.locator("summary", { hasText: "Signaler" }).first().click();
    await teacher.getByRole("button", { name: "Envoyer le signalement" }).click();
    await expect(teacher.getByText("La raison est obligatoire.")).toBeVisible();
    await teacher.getByLabel("Pourquoi signaler ce message ?").first().fill("Hors sujet");
    const replied = await author.request.post(teacher.url(), {
      form: { intent: "reply", body: "Merci, je commence par Python." },
      headers: { Origin: new URL(teacher.url()).origin },
      maxRedirects: 0,
    });
    expect(replied.status()).toBe(302);
    await expect(teacher.getByText("Merci, je commence par Python.")).toBeVisible();
    const reason = teacher.getByLabel("Pourquoi signaler ce message ?").first();
    await expect(reason).toBeVisible();
    await expect(reason).toHaveValue("Hors sujet");
    await teacher.keyboard.press("Escape");

    // Without reloading: the author's bell counts it, and its list says who answered.
    await expect(bell(author)).toHaveAccessibleName(/non lue/);
    await bell(author).click();
    const popover = author.getByRole("dialog", { name: "Notifications" });
    await expect(popover.getByText(`${teacherAccount.name} a répondu à « ${title} ».`)).toBeVisible();
    await popover
      .getByRole("button", { name: /Nouvelle réponse à votre sujet/ })
      .first()
      .click();
    await expect(author).toHaveURL(/\/dashboard\/forum\/\d+/);
    await expect(author.getByText("Commencez par Python & TensorFlow.")).toBeVisible();
  });

  test("without JavaScript: post, like and reply by plain forms", async ({ createUser, pageOf }) => {
    test.setTimeout(60_000);
    const page = await pageOf(await createUser("admin"), { ...phone, javaScriptEnabled: false });
    const title = `Sans JavaScript ${Date.now()}`;
    await page.goto("/dashboard/forum?nouveau=1");
    await page.getByLabel("Titre").fill(title);
    await page.getByLabel("Contenu").fill("Tout marche par formulaires.");
    await page.getByRole("button", { name: "Publier" }).click();
    const card = page.getByRole("article").filter({ hasText: title });
    await card.getByRole("button", { name: /J'aime/ }).click();
    await expect(
      page
        .getByRole("article")
        .filter({ hasText: title })
        .getByRole("button", { name: /1 J'aime/ }),
    ).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("article").filter({ hasText: title }).getByRole("link", { name: "Répondre" }).click();
    await page.getByLabel("Votre réponse").fill("Réponse sans script.");
    await page.getByRole("button", { name: "Publier la réponse" }).click();
    await expect(page.getByRole("heading", { name: "1 réponse" })).toBeVisible();
    await expect(page.getByText("Réponse sans script.")).toBeVisible();
  });
});
