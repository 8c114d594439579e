/**
 * What feeds the bell besides the forum and messaging: payments (confirmed once, refunded with an
 * e-mail), account changes (a role changed by an administrator, a password changed), and each
 * person's e-mail preferences saved from the profile's "Notifications" tab.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordActivity } from "~/.server/activity";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, notifications } from "~/.server/db/schema";
import { getEmailPreferences, NOTIFICATION_EMAIL_QUEUE } from "~/.server/notifications";
import { recordCashPayment, refundPayment } from "~/.server/payments";
import { changeUserRole } from "~/.server/users";
import { formatFcfa } from "~/lib/format";
import { action as profileAction, loader as profileLoader } from "~/routes/dashboard/profile";
import { cashOnlyPayments, createCourse, createPayment, createUser, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => handle?.close());

async function notificationsOf(user: TestUser, kind: string) {
  return handle.db
    .select({ id: notifications.id, title: notifications.title, body: notifications.body, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.kind, kind)));
}

async function emailJobsFor(ids: number[]) {
  const rows = await handle.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE));
  return rows.filter((row) => ids.includes((row.payload as { notificationId: number }).notificationId));
}

describe("payments", () => {
  it("tells the learner their payment is confirmed, once, and refunded, by e-mail too", async () => {
    const learner = await createUser(handle.db);
    const { course } = await createCourse(handle.db, { title: "Énergie solaire", priceFcfa: 75_000 });
    const { reference } = await createPayment(handle.db, learner, course, { completed: true, admin });
    // Recorded again (a double click at the counter): nothing twice.
    await recordCashPayment(handle.db, cashOnlyPayments(), admin, reference, `R-${reference}`);
    const confirmed = await notificationsOf(learner, "payment_confirmed");
    expect(confirmed).toEqual([
      expect.objectContaining({
        title: "Paiement confirmé",
        body: expect.stringMatching(new RegExp(`^Votre paiement de ${formatFcfa(75000)} pour « Énergie solaire » est confirmé`)),
        link: `/dashboard/formations/${course.slug}`,
      }),
    ]);
    // The receipt mail says it already: no notification e-mail.
    expect(await emailJobsFor(confirmed.map((row) => row.id))).toEqual([]);

    await refundPayment(handle.db, admin, reference, "Formation annulée");
    const refunded = await notificationsOf(learner, "payment_refunded");
    expect(refunded).toEqual([expect.objectContaining({ title: "Paiement remboursé", link: `/dashboard/paiements/${reference}` })]);
    expect(await emailJobsFor(refunded.map((row) => row.id))).toHaveLength(1);
  });
});

describe("account changes", () => {
  it("tells a person their role was changed, and their password, always by e-mail", async () => {
    const person = await createUser(handle.db);
    await changeUserRole(handle.db, admin, person.id, "teacher");
    await recordActivity(handle.db, { userId: person.id, type: "password_changed" });
    // Signing in is not an account change.
    await recordActivity(handle.db, { userId: person.id, type: "sign_in" });
    const changes = await notificationsOf(person, "account_changed");
    expect(changes.map((row) => row.title)).toEqual(["Rôle modifié", "Mot de passe modifié"]);
    expect(changes[1]!.body).toMatch(/Si vous n'êtes pas à l'origine de ce changement/);
    expect(await emailJobsFor(changes.map((row) => row.id))).toHaveLength(2);
  });

  it("writes nothing when the change is refused and its transaction rolls back", async () => {
    const person = await createUser(handle.db);
    // An admin may not demote themselves: the role change is refused, and so is its notification.
    await expect(changeUserRole(handle.db, admin, admin.id, "user")).rejects.toThrow();
    expect(await notificationsOf(admin, "account_changed")).toEqual([]);
    await handle.db
      .transaction(async (tx) => {
        await recordActivity(tx, { userId: person.id, type: "two_factor_disabled" });
        throw new Error("rollback");
      })
      .catch(() => {});
    expect(await notificationsOf(person, "account_changed")).toEqual([]);
  });
});

describe("e-mail preferences in the profile", () => {
  it("shows each optional kind with its default, and saves the boxes ticked", async () => {
    const person = await createUser(handle.db);
    const context = routerContext(handle.db, campus, { user: sessionOf(person) });
    const url = `${TEST_PUBLIC_URL}/dashboard/profile?onglet=notifications`;
    const page = await routeOutcome(() => profileLoader({ request: new Request(url), params: {}, context } as never));
    expect((page.data as { emailPreferences: Record<string, boolean> }).emailPreferences).toMatchObject({
      message_received: true,
      forum_reply: false,
    });
    const saved = await routeOutcome(() =>
      profileAction({
        request: new Request(url, { method: "POST", body: new URLSearchParams({ intent: "notifications", forum_reply: "on" }) }),
        params: {},
        context,
      } as never),
    );
    expect(saved).toMatchObject({ status: 302, location: "/dashboard/profile?onglet=notifications" });
    expect(await getEmailPreferences(handle.db, person)).toMatchObject({
      forum_reply: true,
      message_received: false,
      certificate_issued: false,
      // Not a choice: always by e-mail.
      payment_refunded: true,
    });
  });
});
