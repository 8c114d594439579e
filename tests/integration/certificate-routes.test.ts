/**
 * Certificates through their route modules: Mes Certificats (tiles, both tabs, LinkedIn link), the
 * dashboard's real count, the PDF and the signed badge for their learner only, the public
 * verification page (valid, expired, revoked; the code form; rate-limited) and the issuer's
 * published profile and key, with which the downloaded badge verifies.
 */
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { issueCertificateIfComplete, revokeCertificate, VERIFICATION_LIMIT } from "~/.server/certificates";
import type { DatabaseHandle } from "~/.server/db/client";
import { certificates, users } from "~/.server/db/schema";
import { createRouterContext } from "~/.server/http/router-context";
import { setLessonDone } from "~/.server/learning";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/certificates";
import { loader as badgeLoader } from "~/routes/dashboard/certificat-badge";
import { loader as badgePngLoader } from "~/routes/dashboard/certificat-badge-png";
import { loader as pdfLoader } from "~/routes/dashboard/certificat-pdf";
import MyCertificatesPage, { loader as certificatesLoader } from "~/routes/dashboard/certificates";
import { loader as dashboardLoader } from "~/routes/dashboard/index";
import { loader as myCoursesLoader } from "~/routes/dashboard/formations";
import { loader as publicPageLoader } from "~/routes/public/certificat";
import { loader as formLoader } from "~/routes/public/certificats";
import { loader as publishedLoader } from "~/routes/public/certificats-publics";
import { createCourse, createQuiz, createUser, enrol, rightAnswers, takeQuiz, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL, testCertificates, testEnv } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { decodeEntities } from "../setup/html";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Traoré" });
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => handle?.close());

function call<T>(run: (args: never) => Promise<T>, user: TestUser | null, path: string, params: Record<string, string> = {}, ip?: string) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`);
  const context = user
    ? routerContext(handle.db, campus, { user: sessionOf(user) })
    : createRouterContext(
        { db: handle.db, env: testEnv(), auth: campus.auth, certificates: testCertificates },
        { clientIp: ip ?? "198.51.100.7", session: null },
      );
  return routeOutcome(() => run({ request, params, context, url: new URL(request.url), pattern: path } as never));
}

/** A learner who finished a course (two lessons, a required quiz passed): their certificate is issued. */
async function certified(names: { firstName?: string; lastName?: string } = {}) {
  const { course, lessons } = await createCourse(handle.db, {
    instructor: teacher,
    priceFcfa: 0,
    lessons: [{ durationMinutes: 120 }, { durationMinutes: 60 }],
  });
  const quiz = await createQuiz(handle.db, teacher, course, { required: true });
  const learner = await createUser(handle.db, names);
  await enrol(handle.db, learner, course);
  for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
  await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
  const certificate = await issueCertificateIfComplete(handle.db, testCertificates, { userId: learner.id, courseId: course.id });
  return { course, learner, certificate: certificate! };
}

describe("Mes Certificats", () => {
  it("shows the tiles, the earned certificate with its links, the courses in progress, and the dashboard's count", async () => {
    const { learner, certificate, course } = await certified({ firstName: "Aïssata", lastName: "Keïta" });
    const { course: other } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: [{}, {}] });
    await enrol(handle.db, learner, other);

    const page = (await call(certificatesLoader, learner, "/dashboard/certificates")).data as {
      tab: string;
      tiles: Record<string, number | null>;
      earned: Array<{
        code: string;
        courseTitle: string;
        gradeLabel: string;
        credits: number;
        linkedInUrl: string;
        verificationUrl: string;
      }>;
    };
    expect(page.tab).toBe("obtenus");
    expect(page.tiles).toEqual({ certificates: 1, credits: 3, averageScore: 100, completed: 1, inProgress: 1 });
    expect(page.earned).toEqual([
      expect.objectContaining({ code: certificate.code, courseTitle: course.title, gradeLabel: "Excellent", credits: 3 }),
    ]);
    const linkedIn = new URL(page.earned[0]!.linkedInUrl);
    expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(linkedIn.searchParams.get("certId")).toBe(certificate.code);
    expect(linkedIn.searchParams.get("certUrl")).toBe(`${TEST_PUBLIC_URL}/certificats/${certificate.code}`);

    const inProgress = (await call(certificatesLoader, learner, "/dashboard/certificates?onglet=en-cours")).data as {
      tab: string;
      inProgress: Array<{ slug: string; lessonsDone: number; lessonCount: number }>;
    };
    expect(inProgress.tab).toBe("en-cours");
    expect(inProgress.inProgress).toEqual([expect.objectContaining({ slug: other.slug, lessonsDone: 0, lessonCount: 2 })]);

    const dashboard = (await call(dashboardLoader, learner, "/dashboard")).data as { cards: { certificates: number } };
    expect(dashboard.cards.certificates).toBe(1);
  });

  it("lists a revoked certificate apart, with its reason, and nothing to download or share; tiles and tabs agree", async () => {
    const { learner, certificate } = await certified();
    const { course: waiting, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: [{}] });
    await createQuiz(handle.db, teacher, waiting, { required: true });
    await enrol(handle.db, learner, waiting);
    // Every lesson done, the quiz not yet passed: « en cours » in the list and in the tile alike.
    await setLessonDone(handle.db, learner, lessons[0]!.id, true);
    await revokeCertificate(handle.db, admin, certificate.id, "Fraude constatée à l'examen");

    const page = (await call(certificatesLoader, learner, "/dashboard/certificates")).data as {
      tiles: { certificates: number; inProgress: number };
      earned: unknown[];
      revoked: Array<Record<string, unknown>>;
      inProgress: unknown[];
    };
    expect(page.earned).toEqual([]);
    expect(page.revoked).toEqual([expect.objectContaining({ code: certificate.code, revokedReason: "Fraude constatée à l'examen" })]);
    expect(page.tiles).toMatchObject({ certificates: 0, inProgress: 1 });
    expect(page.inProgress).toHaveLength(1);

    const Stub = createRoutesStub([
      { path: "/dashboard/certificates", Component: () => createElement(MyCertificatesPage, { loaderData: page } as never) },
    ]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/dashboard/certificates"] })).replaceAll("<!-- -->", "");
    expect(html).toContain("Certificats obtenus (0)");
    expect(html).toContain("En cours (1)");
    expect(html).toContain("Certificats révoqués (1)");
    expect(decodeEntities(html)).toContain("Fraude constatée à l'examen");
    expect(html).not.toContain(`/dashboard/certificates/${certificate.code}/`);
    expect(html).not.toContain("linkedin.com");
    expect(html).not.toContain("Partager");

    // Its holder gets none of its files; an admin still gets the PDF (marked revoked).
    for (const [loader, file] of [
      [pdfLoader, "certificat.pdf"],
      [badgeLoader, "badge.jwt"],
      [badgePngLoader, "badge.png"],
    ] as const)
      expect((await call(loader, learner, `/dashboard/certificates/${certificate.code}/${file}`, { code: certificate.code })).status).toBe(
        403,
      );
    expect(
      (await call(pdfLoader, admin, `/dashboard/certificates/${certificate.code}/certificat.pdf`, { code: certificate.code })).status,
    ).toBe(200);
  });

  it("keeps on the dashboard a course whose lessons are all done while its certificate waits on the quiz", async () => {
    const { course, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: [{}, {}] });
    const quiz = await createQuiz(handle.db, teacher, course, { required: true });
    const learner = await createUser(handle.db);
    await enrol(handle.db, learner, course);
    for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
    type Dashboard = {
      inProgress: unknown[];
      awaitingCertificate: Array<{ slug: string; lessonCount: number }>;
      cards: { certificates: number };
    };
    const dashboard = async () => (await call(dashboardLoader, learner, "/dashboard")).data as Dashboard;
    // No longer « en cours » (every lesson done), yet not finished: it stays, with what is left.
    expect(await dashboard()).toMatchObject({ inProgress: [], awaitingCertificate: [{ slug: course.slug, lessonCount: 2 }] });
    const finished = async () =>
      (
        (await call(myCoursesLoader, learner, "/dashboard/formations?onglet=terminees")).data as {
          completed: Array<{ certified: boolean }>;
        }
      ).completed;
    expect(await finished()).toEqual([expect.objectContaining({ certified: false })]);

    await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
    await issueCertificateIfComplete(handle.db, testCertificates, { userId: learner.id, courseId: course.id });
    expect(await dashboard()).toMatchObject({ awaitingCertificate: [], cards: { certificates: 1 } });
    expect(await finished()).toEqual([expect.objectContaining({ certified: true })]);
  });

  it("gives the PDF (A4 landscape) and the signed badge to their learner only", async () => {
    const { learner, certificate } = await certified();
    const pdfPath = `/dashboard/certificates/${certificate.code}/certificat.pdf`;
    const request = new Request(`${TEST_PUBLIC_URL}${pdfPath}`);
    const response = (await pdfLoader({
      request,
      params: { code: certificate.code },
      context: routerContext(handle.db, campus, { user: sessionOf(learner) }),
    } as never)) as Response;
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(`certificat-${certificate.code}.pdf`);
    const pdf = Buffer.from(await response.arrayBuffer()).toString("latin1");
    expect(pdf.startsWith("%PDF-")).toBe(true);
    expect(pdf).toContain("/MediaBox [0 0 841.89 595.28]");

    const stranger = await createUser(handle.db);
    expect((await call(pdfLoader, stranger, pdfPath, { code: certificate.code })).status).toBe(404);
    expect(
      (await call(badgeLoader, stranger, `/dashboard/certificates/${certificate.code}/badge.jwt`, { code: certificate.code })).status,
    ).toBe(404);
    expect((await call(pdfLoader, admin, pdfPath, { code: certificate.code })).status).toBe(200);
  });

  it("hands out a badge that verifies with the published key alone, and fails when one byte changes", async () => {
    const { learner, certificate } = await certified();
    const badge = await call(badgeLoader, learner, `/dashboard/certificates/${certificate.code}/badge.jwt`, { code: certificate.code });
    const jws = badge.body!;
    const kidUrl = String(decodeProtectedHeader(jws).kid);
    expect(kidUrl.startsWith(`${TEST_PUBLIC_URL}/certificats/cles/`)).toBe(true);
    const kid = kidUrl.split("/").pop()!;
    const published = await call(publishedLoader, null, `/certificats/cles/${kid}`, { kid });
    const key = await importJWK(JSON.parse(published.body!), "EdDSA");
    const { payload } = await jwtVerify(jws, key);
    expect(payload).toMatchObject({
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      issuer: { id: `${TEST_PUBLIC_URL}/certificats/emetteur` },
    });

    const [head, body, signature] = jws.split(".");
    const tampered = Buffer.from(body!, "base64url");
    tampered[10] = tampered[10]! ^ 1;
    await expect(jwtVerify(`${head}.${tampered.toString("base64url")}.${signature}`, key)).rejects.toThrow();

    const keys = JSON.parse((await call(publishedLoader, null, "/certificats/cles")).body!) as { keys: Array<{ kid: string; d?: string }> };
    // A JWKS verifier picks the key whose kid is the header's: the very URL.
    expect(keys.keys.map((entry) => entry.kid)).toContain(kidUrl);
    expect(keys.keys.every((entry) => entry.d === undefined)).toBe(true);
    const profile = JSON.parse((await call(publishedLoader, null, "/certificats/emetteur")).body!) as { id: string; type: string[] };
    expect(profile).toMatchObject({ id: `${TEST_PUBLIC_URL}/certificats/emetteur`, type: ["Profile"] });
    expect((await call(publishedLoader, null, "/certificats/statut")).body!.split(".")).toHaveLength(3);
  });
});

describe("the public verification page", () => {
  it("says valid, expired, then revoked with the reason, and nothing else personal", async () => {
    const { certificate, learner } = await certified({ firstName: "Mariam", lastName: "Diarra" });
    const open = (path: string) => call(publicPageLoader, null, path, { code: path.split("/").pop()! });
    const valid = await open(`/certificats/${certificate.code}`);
    expect(valid.data).toMatchObject({ certificate: { state: "valid", learnerName: "Mariam Diarra", stateLabel: "Certificat valide" } });
    expect(JSON.stringify(valid.data)).not.toContain(learner.email);
    // « Ajouter à LinkedIn »: LinkedIn's add-certification form, prefilled with the name, organisation, dates, URL and number.
    const linkedIn = new URL((valid.data as { certificate: { linkedInUrl: string } }).certificate.linkedInUrl);
    expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(linkedIn.searchParams)).toMatchObject({
      startTask: "CERTIFICATION_NAME",
      name: certificate.courseTitle,
      issueYear: String(certificate.issuedAt.getUTCFullYear()),
      issueMonth: String(certificate.issuedAt.getUTCMonth() + 1),
      expirationYear: String(certificate.validUntil!.getUTCFullYear()),
      certId: certificate.code,
      certUrl: `${TEST_PUBLIC_URL}/certificats/${certificate.code}`,
    });
    expect(linkedIn.searchParams.get("organizationName")).toBeTruthy();

    await handle.db
      .update(certificates)
      .set({ validUntil: new Date(Date.now() - 1000) })
      .where(eq(certificates.id, certificate.id));
    expect((await open(`/certificats/${certificate.code}`)).data).toMatchObject({ certificate: { state: "expired" } });

    await revokeCertificate(handle.db, admin, certificate.id, "Fraude à l'examen constatée");
    expect((await open(`/certificats/${certificate.code}`)).data).toMatchObject({
      certificate: { state: "revoked", revokedReason: "Fraude à l'examen constatée", linkedInUrl: null },
    });
    expect(await open("/certificats/ICEF-2222-3333-4444")).toMatchObject({ status: 404 });
  });

  it("takes a code as typed in the form, and refuses a malformed one", async () => {
    const { certificate } = await certified();
    const typed = certificate.code.toLowerCase().replaceAll("-", " ");
    expect(await call(formLoader, null, `/certificats?code=${encodeURIComponent(typed)}`)).toMatchObject({
      status: 302,
      location: `/certificats/${certificate.code}`,
    });
    expect(await call(formLoader, null, "/certificats?code=12345")).toMatchObject({ status: 400 });
  });

  it("limits look-ups per address", async () => {
    const ip = "192.0.2.99";
    for (let index = 0; index < VERIFICATION_LIMIT.limit; index += 1) {
      expect((await call(publicPageLoader, null, "/certificats/ICEF-2222-3333-4444", { code: "ICEF-2222-3333-4444" }, ip)).status).toBe(
        404,
      );
    }
    const refused = await call(publicPageLoader, null, "/certificats/ICEF-2222-3333-4444", { code: "ICEF-2222-3333-4444" }, ip);
    expect(refused.status).toBe(429);
    // Another address is not affected.
    expect(
      (await call(publicPageLoader, null, "/certificats/ICEF-2222-3333-4444", { code: "ICEF-2222-3333-4444" }, "192.0.2.100")).status,
    ).toBe(404);
  });
});

describe("/admin/certificates", () => {
  function post(user: TestUser, form: Record<string, string>) {
    const request = new Request(`${TEST_PUBLIC_URL}/admin/certificates`, { method: "POST", body: new URLSearchParams(form) });
    const context = routerContext(handle.db, campus, { user: sessionOf(user) });
    return routeOutcome(() => adminAction({ request, params: {}, context, url: new URL(request.url), pattern: "" } as never));
  }

  it("finds a certificate, revokes it with a reason (required), and re-issues after a name correction", async () => {
    const { certificate, learner } = await certified({ firstName: "Fatoumata", lastName: "Sidibé" });
    const list = (await call(adminLoader, admin, `/admin/certificates?q=${certificate.code}`)).data as {
      certificates: Array<{ code: string; nameChanged: boolean }>;
    };
    expect(list.certificates).toEqual([expect.objectContaining({ code: certificate.code, nameChanged: false })]);

    const noReason = await post(admin, { intent: "revoke", id: certificate.id, reason: " " });
    expect(noReason).toMatchObject({ status: 400, data: { fieldErrors: { reason: "Indiquez la raison de la révocation." } } });

    // The learner's name was misspelt: corrected, then re-issued once.
    await handle.db.update(users).set({ lastName: "Sidibè" }).where(eq(users.id, learner.id));
    const flagged = (await call(adminLoader, admin, `/admin/certificates?q=${certificate.code}`)).data as {
      certificates: Array<{ nameChanged: boolean; currentName: string }>;
    };
    expect(flagged.certificates[0]).toMatchObject({ nameChanged: true, currentName: "Fatoumata Sidibè" });
    expect(await post(admin, { intent: "reissue", id: certificate.id })).toMatchObject({ status: 302 });
    expect(await post(admin, { intent: "reissue", id: certificate.id })).toMatchObject({ status: 409 });
    const [replacement] = await handle.db.select().from(certificates).where(eq(certificates.replacesId, certificate.id));
    expect(replacement).toMatchObject({ learnerName: "Fatoumata Sidibè", status: "valid" });
    const old = await call(publicPageLoader, null, `/certificats/${certificate.code}`, { code: certificate.code });
    expect(old.data).toMatchObject({ certificate: { state: "revoked", replacementCode: replacement!.code } });

    expect(await post(admin, { intent: "revoke", id: replacement!.id, reason: "Diplôme obtenu par fraude" })).toMatchObject({
      status: 302,
    });
    const revoked = await call(publicPageLoader, null, `/certificats/${replacement!.code}`, { code: replacement!.code });
    expect(revoked.data).toMatchObject({ certificate: { state: "revoked", revokedReason: "Diplôme obtenu par fraude" } });
  });

  it("is for admins only: a teacher's revocation is refused", async () => {
    const { certificate } = await certified();
    expect((await post(teacher, { intent: "revoke", id: certificate.id, reason: "Essai" })).status).toBe(404);
  });
});
