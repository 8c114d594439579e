import { randomInt } from "node:crypto";
import { expect, test as base, type APIRequestContext, type BrowserContextOptions, type Page } from "@playwright/test";
import type { Role } from "~/lib/roles";
import { linkIn } from "../setup/smtp";
import { waitForMail } from "./mailbox";
import { demoAccounts, signInThroughApi } from "./sign-in";

/**
 * Each test's own people, so that specs running side by side never see each other's changes
 * (notifications, posts, presence, enrolments...): a fresh account of the wanted role, created
 * through the app's own paths on the one e2e server (its PGlite cannot be opened by a second
 * process): the demo administrator invites it from /admin/users, the invitation mail is read from
 * the mailbox (mailbox.ts), its link's token sets a password through Better Auth, and the person
 * signs in through Better Auth's /api/auth/sign-in/email, the session cookie landing in the
 * browser context. The sign-in form itself is tested by auth.spec.ts.
 *
 *   test.use({ role: "teacher" });
 *   test("...", async ({ page, user }) => { ... });          // `page` is signed in as `user`
 *   test("...", async ({ createUser, pageOf }) => { ... });  // several people, each in their own context
 */

export interface Person {
  role: Role;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  /** As the app shows it: "first last". */
  name: string;
}

const firstNames: Record<Role, string> = { user: "Awa", teacher: "Bakary", admin: "Nana" };

/** A family name no other test of the run has (letters only: it is shown and searched for). */
function uniqueLastName(): string {
  const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join("");
  return `Diarra ${letters[0]!.toUpperCase()}${letters.slice(1)}`;
}

/** Posts a form of the app as a browser without JavaScript would, expecting the action's redirect. */
async function postForm(request: APIRequestContext, url: string, form: Record<string, string>) {
  const response = await request.post(url, { form, maxRedirects: 0 });
  expect(response.status(), `POST ${url}: ${await response.text()}`).toBe(303);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

interface Fixtures {
  /** The role of `user` (test.use({ role: "teacher" })); a learner by default. */
  role: Role;
  /** A fresh account of `role`, `page` signed in as it. */
  user: Person;
  /** A fresh account of a role, with a password, not signed in anywhere. */
  createUser: (role: Role) => Promise<Person>;
  /** A new browser context of its own (a phone, no JavaScript...), signed in as `person`; closed after the test. */
  pageOf: (person: Person, options?: BrowserContextOptions) => Promise<Page>;
  /** Enrols `person` in the course of that title, as an administrator does by hand (a free place). */
  enrol: (person: Person, courseTitle: string) => Promise<void>;
}

interface WorkerFixtures {
  /** The demo administrator, signed in through the API once per worker: it invites and enrols. */
  administration: APIRequestContext;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  administration: [
    async ({ playwright }, provide, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL!;
      const request = await playwright.request.newContext({ baseURL });
      await signInThroughApi(request, baseURL, demoAccounts.admin);
      await provide(request);
      await request.dispose();
    },
    { scope: "worker" },
  ],

  role: ["user", { option: true }],

  createUser: async ({ administration, playwright, baseURL }, provide) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    await provide(async (role) => {
      const firstName = firstNames[role];
      const lastName = uniqueLastName();
      const email = `${role}.${lastName.split(" ")[1]!.toLowerCase()}.${Date.now()}@exemple.ml`;
      const password = `Fleuve-Niger-${randomInt(1e9)}`;
      await postForm(administration, "/admin/users", { intent: "create", firstName, lastName, email, role });
      const mail = await waitForMail(email, /Votre compte sur la plateforme/);
      const token = new URL(linkIn(mail.body, /https?:\/\/\S+\/auth\?mode=recuperation&token=[A-Za-z0-9]+/)).searchParams.get("token");
      const reset = await anonymous.post("/api/auth/reset-password", {
        data: { token, newPassword: password },
        headers: { Origin: baseURL! },
      });
      expect(reset.status(), `password of ${email}: ${await reset.text()}`).toBe(200);
      return { role, email, password, firstName, lastName, name: `${firstName} ${lastName}` };
    });
    await anonymous.dispose();
  },

  user: async ({ role, createUser, page, baseURL }, provide) => {
    const person = await createUser(role);
    await signInThroughApi(page.request, baseURL!, person);
    await provide(person);
  },

  pageOf: async ({ browser, baseURL }, provide) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await provide(async (person, options = {}) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      await signInThroughApi(context.request, baseURL!, person);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },

  enrol: async ({ administration }, provide) => {
    await provide(async (person, courseTitle) => {
      const page = await (await administration.get("/admin/inscriptions")).text();
      const options = [...page.matchAll(/<option value="(\d+)"[^>]*>([^<]*)<\/option>/g)];
      const courseId = options.find(([, , title]) => decodeEntities(title!) === courseTitle)?.[1];
      expect(courseId, `a course titled « ${courseTitle} » in /admin/inscriptions`).toBeDefined();
      await postForm(administration, `/admin/inscriptions?cours=${courseId}`, {
        intent: "enrol",
        email: person.email,
        kind: "free_place",
        reason: "Test de bout en bout",
      });
    });
  },
});

export { expect };
