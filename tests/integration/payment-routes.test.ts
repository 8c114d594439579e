/**
 * The payment screens through their route modules: the checkout for visitors and learners, the
 * provider's return and notification addresses, the test gateway's page, and the admin's counter,
 * each for the right and the wrong people.
 */
import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/.server/auth/actor";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, enrolments, lessons, payments, sandboxTransactions } from "~/.server/db/schema";
import { createPayments, paymentsContext, type Payments } from "~/.server/payments/setup";
import { loadEnv } from "~/.server/env";
import { action as financialAction, loader as financialLoader } from "~/routes/admin/financial";
import { action as reconcileAction, loader as reconcileLoader } from "~/routes/admin/financial-reconciliation";
import { action as positionAction } from "~/routes/dashboard/lecon-position";
import { loader as paymentLoader } from "~/routes/dashboard/paiement";
import { action as notificationAction, loader as notificationLoader } from "~/routes/payments/notification";
import { action as returnAction, loader as returnLoader } from "~/routes/payments/return";
import { action as gatewayAction, loader as gatewayLoader } from "~/routes/payments/sandbox-gateway";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/public/formation-inscription";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createSignedInUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let services: Payments;
const who: Record<"admin" | "learner" | "other", { actor: Actor; cookie: string }> = {} as never;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: "silent" });
  services = createPayments({ db: handle.db, env, secret: "route-test-secret", mailEnv: { LOG_LEVEL: "silent" } });
  for (const [key, role] of [
    ["admin", "admin"],
    ["learner", "user"],
    ["other", "user"],
  ] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { email: `${key}-paiement@exemple.ml`, role });
    who[key] = { actor: user, cookie };
  }
});
afterAll(async () => handle?.close());

type Args = { request: Request; params: Record<string, string>; context: RouterContextProvider; url: URL; pattern: string };

function args(
  path: string,
  options: {
    cookie?: string;
    form?: Record<string, string>;
    params?: Record<string, string>;
    method?: string;
    headers?: Record<string, string>;
    payments?: Payments;
  } = {},
): Args {
  const headers = new Headers({ ...options.headers, ...(options.cookie ? { cookie: options.cookie } : {}) });
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const context = routerContext(handle.db, campus);
  context.set(paymentsContext, options.payments ?? services);
  return { request, params: options.params ?? {}, context, url: new URL(request.url), pattern: path };
}

const checkoutPath = "/formations/cybersecurite/inscription";
const slugParams = { slug: "cybersecurite" };

describe("the checkout", () => {
  it("sends a visitor to sign up first, coming back to the checkout", async () => {
    const visit = await routeOutcome(() => checkoutLoader(args(checkoutPath, { params: slugParams }) as never));
    expect(visit).toMatchObject({ status: 302, location: `/auth?onglet=inscription&redirectTo=${encodeURIComponent(checkoutPath)}` });
    const post = await routeOutcome(() => checkoutAction(args(checkoutPath, { params: slugParams, form: { method: "cash" } }) as never));
    expect(post.status).toBe(302);
    expect(await handle.db.select().from(payments)).toEqual([]);
  });

  it("offers the ways to pay, and answers 404 for a course that is not open", async () => {
    const page = await routeOutcome(() => checkoutLoader(args(checkoutPath, { cookie: who.learner.cookie, params: slugParams }) as never));
    expect(page.status).toBe(200);
    expect((page.data as { methods: Array<{ method: string }> }).methods.map((method) => method.method)).toEqual([
      "mobile_money",
      "card",
      "cash",
    ]);
    await handle.db.update(courses).set({ status: "draft" }).where(eq(courses.slug, "mecatronique"));
    const draft = await routeOutcome(() =>
      checkoutLoader(
        args("/formations/mecatronique/inscription", { cookie: who.learner.cookie, params: { slug: "mecatronique" } }) as never,
      ),
    );
    expect(draft.status).toBe(404);
    expect(
      (
        await routeOutcome(() =>
          checkoutLoader(args("/formations/x/inscription", { cookie: who.learner.cookie, params: { slug: "x" } }) as never),
        )
      ).status,
    ).toBe(404);
  });

  it("refuses an unknown method with a French message, and sends an online payment to the gateway", async () => {
    const bad = await routeOutcome(() =>
      checkoutAction(args(checkoutPath, { cookie: who.learner.cookie, params: slugParams, form: { method: "bitcoin" } }) as never),
    );
    expect(bad).toMatchObject({ status: 400, data: { ok: false, message: "Choisissez un moyen de paiement de la liste." } });
    const online = await routeOutcome(() =>
      checkoutAction(args(checkoutPath, { cookie: who.learner.cookie, params: slugParams, form: { method: "mobile_money" } }) as never),
    );
    expect(online.status).toBe(303);
    expect(online.location).toMatch(/^\/paiement\/bac-a-sable\/ICEF-/);
    const reference = online.location!.split("/").pop()!;

    // The gateway page shows the transaction to its payer, without any name; another reference is a 404.
    const gatewayPath = `/paiement/bac-a-sable/${reference}`;
    const gateway = await routeOutcome(() =>
      gatewayLoader(args(gatewayPath, { cookie: who.learner.cookie, params: { reference } }) as never),
    );
    expect(gateway).toMatchObject({ status: 200, data: { amount: 110000, status: "pending" } });
    expect(JSON.stringify(gateway.data)).not.toMatch(new RegExp(`${who.learner.actor.id}|Test|Diallo|customer`, "i"));
    expect(
      (
        await routeOutcome(() =>
          gatewayLoader(
            args("/paiement/bac-a-sable/ICEF-AAAA-AAAA", { cookie: who.learner.cookie, params: { reference: "ICEF-AAAA-AAAA" } }) as never,
          ),
        )
      ).status,
    ).toBe(404);
    // Anyone else who knows the reference neither sees nor approves it (issue 9: only the payer's session).
    expect(
      (await routeOutcome(() => gatewayLoader(args(gatewayPath, { cookie: who.other.cookie, params: { reference } }) as never))).status,
    ).toBe(404);
    expect(await routeOutcome(() => gatewayLoader(args(gatewayPath, { params: { reference } }) as never))).toMatchObject({
      status: 302,
      location: `/auth?redirectTo=${encodeURIComponent(gatewayPath)}`,
    });
    for (const cookie of [who.other.cookie, who.admin.cookie, undefined]) {
      const stranger = await routeOutcome(() =>
        gatewayAction(args(gatewayPath, { cookie, params: { reference }, form: { decision: "approve" } }) as never),
      );
      expect([302, 404]).toContain(stranger.status);
    }
    const [untouched] = await handle.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.reference, reference));
    expect(untouched?.status).toBe("pending");
    // Without the test gateway (production), its pages do not exist.
    const off = { ...services, sandbox: null };
    expect(
      (
        await routeOutcome(() =>
          gatewayLoader(args(gatewayPath, { cookie: who.learner.cookie, params: { reference }, payments: off }) as never),
        )
      ).status,
    ).toBe(404);

    // Approving sends the learner back through the return address, which checks with the gateway.
    const approved = await routeOutcome(() =>
      gatewayAction(args(gatewayPath, { cookie: who.learner.cookie, params: { reference }, form: { decision: "approve" } }) as never),
    );
    expect(approved).toMatchObject({ status: 303, location: `/paiement/retour?reference=${reference}` });
    // The return page tells nothing to anyone but the payer: the same answer as for an unknown reference.
    for (const cookie of [who.other.cookie, who.admin.cookie, undefined]) {
      const stranger = await routeOutcome(() => returnLoader(args(`/paiement/retour?reference=${reference}`, { cookie }) as never));
      expect(stranger).toEqual({ status: 303, location: "/dashboard/paiements", body: "" });
    }
    const back = await routeOutcome(() =>
      returnLoader(args(`/paiement/retour?reference=${reference}`, { cookie: who.learner.cookie }) as never),
    );
    expect(back).toMatchObject({ status: 303, location: "/dashboard/formations/cybersecurite" });
    // CinetPay posts the learner back from its site (no session cookie): sent on by GET, which carries it.
    const posted = await routeOutcome(() => returnAction(args("/paiement/retour", { form: { transaction_id: reference } }) as never));
    expect(posted).toMatchObject({ status: 303, location: `/paiement/retour?reference=${reference}` });
    const [row] = await handle.db.select().from(payments).where(eq(payments.reference, reference));
    expect(row?.status).toBe("completed");

    // Enrolled: the checkout sends the learner to the course.
    expect(
      await routeOutcome(() => checkoutLoader(args(checkoutPath, { cookie: who.learner.cookie, params: slugParams }) as never)),
    ).toMatchObject({ status: 302, location: "/dashboard/formations/cybersecurite" });

    // The payment's page offers the course to its learner: to start it, then to go on with it.
    const paymentPath = `/dashboard/paiements/${reference}`;
    const courseLink = async (cookie: string) => {
      const page = await routeOutcome(() => asServer(paymentLoader, args(paymentPath, { cookie, params: { reference } }) as never));
      return page.status === 200 ? (page.data as { payment: { courseLink: string | null } }).payment.courseLink : page.status;
    };
    expect(await courseLink(who.learner.cookie)).toBe("Commencer la formation");
    await handle.db.update(enrolments).set({ progress: 40 }).where(eq(enrolments.userId, who.learner.actor.id));
    expect(await courseLink(who.learner.cookie)).toBe("Continuer la formation");
    // An administrator reads it without being offered someone else's course; anyone else gets a 404.
    expect(await courseLink(who.admin.cookie)).toBeNull();
    expect(await courseLink(who.other.cookie)).toBe(404);
  });

  it("answers a forged or unknown notification without changing anything, and a provider's ping with 200", async () => {
    expect((await routeOutcome(() => notificationLoader() as never)).status).toBe(200);
    const forged = await routeOutcome(() =>
      notificationAction(
        args("/api/paiements/notification/sandbox", {
          params: { provider: "sandbox" },
          form: { reference: "ICEF-AAAA-AAAA", status: "approved", amount: "1", currency: "XOF" },
          headers: { "x-sandbox-signature": "0".repeat(64) },
        }) as never,
      ),
    );
    expect(forged.status).toBe(401);
    const unknown = await routeOutcome(() =>
      notificationAction(args("/api/paiements/notification/paypal", { params: { provider: "paypal" }, form: { a: "b" } }) as never),
    );
    expect(unknown.status).toBe(401);
    const nowhere = await routeOutcome(() => returnLoader(args("/paiement/retour?reference=ICEF-ZZZZ-ZZZZ") as never));
    expect(nowhere).toEqual({ status: 303, location: "/dashboard/paiements", body: "" });
  });
});

describe("the admin's counter", () => {
  it("records cash only for admins, with the receipt number required beside the field", async () => {
    const cash = await routeOutcome(() =>
      checkoutAction(
        args("/formations/data-science/inscription", {
          cookie: who.other.cookie,
          params: { slug: "data-science" },
          form: { method: "cash" },
        }) as never,
      ),
    );
    expect(cash.status).toBe(303);
    const reference = cash.location!.split("/").pop()!;

    expect(
      await routeOutcome(() => asServer(financialLoader, args("/admin/financial", { cookie: who.learner.cookie }) as never)),
    ).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    const forged = await routeOutcome(() =>
      asServer(
        financialAction,
        args("/admin/financial", { cookie: who.learner.cookie, form: { intent: "record-cash", reference, receiptNumber: "R-1" } }) as never,
      ),
    );
    expect(forged).toMatchObject({ status: 302, location: "/dashboard" });

    const list = await routeOutcome(() =>
      asServer(financialLoader, args(`/admin/financial?q=${reference}`, { cookie: who.admin.cookie }) as never),
    );
    expect(
      (list.data as { panel: { pendingCash: Array<{ reference: string }> } }).panel.pendingCash.map((payment) => payment.reference),
    ).toEqual([reference]);
    const missing = await routeOutcome(() =>
      asServer(
        financialAction,
        args("/admin/financial", { cookie: who.admin.cookie, form: { intent: "record-cash", reference, receiptNumber: "" } }) as never,
      ),
    );
    expect(missing).toMatchObject({
      status: 400,
      data: { ok: false, values: { reference }, fieldErrors: { receiptNumber: expect.stringMatching(/numéro du reçu/) } },
    });
    const recorded = await routeOutcome(() =>
      asServer(
        financialAction,
        args("/admin/financial?q=abc", {
          cookie: who.admin.cookie,
          form: { intent: "record-cash", reference, receiptNumber: "R-77" },
        }) as never,
      ),
    );
    expect(recorded).toMatchObject({ status: 303, location: "/admin/financial?q=abc" });
    const [enrolment] = await handle.db.select().from(enrolments).where(eq(enrolments.userId, who.other.actor.id));
    expect(enrolment?.status).toBe("active");
  });
});

describe("the payments to reconcile", () => {
  it("are settled by admins only, once, with a reason to refund", async () => {
    const cash = await routeOutcome(() =>
      checkoutAction(
        args("/formations/energie-solaire/inscription", {
          cookie: who.learner.cookie,
          params: { slug: "energie-solaire" },
          form: { method: "cash" },
        }) as never,
      ),
    );
    const reference = cash.location!.split("/").pop()!;
    // As the provider's late word leaves it (tests/integration/payment-reconciliation.test.ts covers how).
    await handle.db
      .update(payments)
      .set({ status: "to_reconcile", reconcileReason: "Payé auprès de l'opérateur après l'échec du paiement." })
      .where(eq(payments.reference, reference));
    const page = "/admin/financial/rapprochement";
    for (const intent of ["reinstate", "refund"]) {
      const forged = await routeOutcome(() =>
        asServer(reconcileAction, args(page, { cookie: who.learner.cookie, form: { intent, reference, note: "x" } }) as never),
      );
      expect(forged, intent).toMatchObject({ status: 302, location: "/dashboard" });
    }
    expect(await routeOutcome(() => asServer(reconcileLoader, args(page, { cookie: who.learner.cookie }) as never))).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    const list = await routeOutcome(() => asServer(reconcileLoader, args(page, { cookie: who.admin.cookie }) as never));
    expect((list.data as { payments: Array<{ reference: string; canReinstate: boolean }> }).payments).toEqual([
      expect.objectContaining({ reference, canReinstate: true }),
    ]);
    const financial = await routeOutcome(() => asServer(financialLoader, args("/admin/financial", { cookie: who.admin.cookie }) as never));
    expect(financial.data).toMatchObject({ toReconcile: 1 });

    const noReason = await routeOutcome(() =>
      asServer(reconcileAction, args(page, { cookie: who.admin.cookie, form: { intent: "refund", reference, note: " " } }) as never),
    );
    expect(noReason).toMatchObject({ status: 400, data: { ok: false, intent: "refund", fieldErrors: { note: expect.any(String) } } });
    const refunded = await routeOutcome(() =>
      asServer(
        reconcileAction,
        args(page, { cookie: who.admin.cookie, form: { intent: "refund", reference, note: "Payé deux fois" } }) as never,
      ),
    );
    expect(refunded).toMatchObject({ status: 303, location: page });
    const replay = await routeOutcome(() =>
      asServer(reconcileAction, args(page, { cookie: who.admin.cookie, form: { intent: "reinstate", reference, note: "" } }) as never),
    );
    expect(replay).toMatchObject({ status: 409, data: { ok: false, message: expect.stringMatching(/déjà réglé/) } });
    const [row] = await handle.db.select().from(payments).where(eq(payments.reference, reference));
    expect(row).toMatchObject({ status: "refunded", refundReason: "Payé deux fois", refundedBy: who.admin.actor.id });
  });
});

describe("the player's position", () => {
  it("is saved only for a lesson the learner follows", async () => {
    const [course] = await handle.db.select().from(courses).where(eq(courses.slug, "data-science"));
    const [lesson] = await handle.db.select().from(lessons).where(eq(lessons.courseId, course!.id));
    const path = `/dashboard/formations/data-science/lecons/${lesson!.id}/position`;
    const params = { slug: "data-science", lessonId: String(lesson!.id) };
    expect(
      (
        await routeOutcome(() =>
          asServer(positionAction, args(path, { cookie: who.other.cookie, params, form: { seconds: "42.5" } }) as never),
        )
      ).status,
    ).toBe(204);
    expect(
      (
        await routeOutcome(() =>
          asServer(positionAction, args(path, { cookie: who.learner.cookie, params, form: { seconds: "42" } }) as never),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await routeOutcome(() =>
          asServer(positionAction, args(path, { cookie: who.other.cookie, params, form: { seconds: "-5" } }) as never),
        )
      ).status,
    ).toBe(400);
    expect((await routeOutcome(() => asServer(positionAction, args(path, { params, form: { seconds: "5" } }) as never))).status).toBe(302);
  });
});
