import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { requestPasswordReset, resetPassword, signIn, signUp, verifyEmail } from "~/.server/auth/flows";
import { resolveSession } from "~/.server/auth/session";
import { mailOutbox } from "~/.server/db/schema";
import { invitationMail, loadInstituteIdentity, sendMail } from "~/.server/mail";
import { createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { browserHeaders, cookieFrom, createTestAuth } from "../setup/auth";
import { linkIn, startTestSmtpServer, type TestSmtpServer } from "../setup/smtp";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: TestSmtpServer;
let campus: CampusAuth;

beforeAll(async () => {
  handle = await createTestDatabase();
  smtp = await startTestSmtpServer();
  campus = createTestAuth(handle.db, { smtpUrl: smtp.url });
});
afterAll(async () => {
  await smtp?.close();
  await handle?.close();
});

test("sign-up → confirmation mail over SMTP → follow its link → signed in", async () => {
  const before = smtp.mails.length;
  const result = await signUp(campus.auth, handle.db, browserHeaders("203.0.113.30"), {
    firstName: "Aminata",
    lastName: "Diarra",
    email: "aminata@example.ml",
    password: "le fleuve Niger à Bamako",
  });
  expect(result.ok).toBe(true);
  const mail = await smtp.waitForMail("aminata@example.ml", { after: before });
  expect(mail.subject).toContain("Confirmez votre adresse e-mail");
  expect(mail.body).toContain("Bonjour Aminata,");
  expect(mail.body).toContain("Institut Consulaire d'Études et de Formation");
  // Sent over SMTP, so nothing in the outbox.
  expect(await handle.db.$count(mailOutbox, eq(mailOutbox.to, "aminata@example.ml"))).toBe(0);

  const link = linkIn(mail.body, /http:\/\/campus\.test\/auth\/verification\?token=[\w.-]+/);
  const verified = await verifyEmail(campus.auth, browserHeaders("203.0.113.30"), new URL(link).searchParams.get("token")!);
  expect(verified.ok).toBe(true);
  const cookie = cookieFrom(verified.ok ? verified.setCookies : []);
  expect((await resolveSession(campus.auth, new Headers({ cookie }))).user?.email).toBe("aminata@example.ml");
});

test("recovery mail over SMTP → its link resets the password once", async () => {
  const { password } = await createUser(handle.db, { email: "ibrahim@example.ml", firstName: "Ibrahim", password: true });
  const before = smtp.mails.length;
  expect((await requestPasswordReset(campus.auth, browserHeaders("203.0.113.31"), "ibrahim@example.ml")).ok).toBe(true);
  const mail = await smtp.waitForMail("ibrahim@example.ml", { after: before });
  expect(mail.subject).toContain("Réinitialisation de votre mot de passe");
  const link = linkIn(mail.body, /http:\/\/campus\.test\/auth\?mode=recuperation&(amp;)?token=[\w.-]+/);
  const token = new URL(link).searchParams.get("token")!;

  const reset = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.31"), {
    token,
    password: "une nouvelle phrase de passe",
  });
  expect(reset.ok).toBe(true);
  expect((await signIn(campus.auth, browserHeaders("203.0.113.31"), { email: "ibrahim@example.ml", password })).ok).toBe(false);
  expect(
    (await signIn(campus.auth, browserHeaders("203.0.113.31"), { email: "ibrahim@example.ml", password: "une nouvelle phrase de passe" }))
      .ok,
  ).toBe(true);
  const again = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.31"), { token, password: "encore une autre phrase" });
  expect(again).toMatchObject({ ok: false, kind: "token" });
});

test("sendMail carries HTML and text, from the institute", async () => {
  const before = smtp.mails.length;
  const identity = await loadInstituteIdentity(handle.db);
  const sent = await sendMail(
    handle.db,
    { SMTP_URL: smtp.url },
    invitationMail({
      to: "invite@example.ml",
      firstName: "Fanta",
      url: "http://campus.test/auth?mode=recuperation&token=abc",
      roleLabel: "Enseignant",
      identity,
    }),
  );
  expect(sent.via).toBe("smtp");
  const mail = await smtp.waitForMail("invite@example.ml", { after: before });
  expect(mail.raw).toMatch(/content-type: text\/plain/i);
  expect(mail.raw).toMatch(/content-type: text\/html/i);
  expect(mail.from).toBe("contact@icef.ml");
  expect(mail.body).toContain("Enseignant");
});
