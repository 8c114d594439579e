import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth";
import type { DatabaseHandle } from "~/.server/db/client";
import { EnrolBox } from "~/components/public/enrol-box";
import { SiteHeader } from "~/components/public/site-header";
import { UsersTable } from "~/components/admin/users-table";
import { seatsLeftText } from "~/lib/format";
import { ofName } from "~/lib/text";
import { loader as courseLoader } from "~/routes/public/formation";
import { loader as layoutLoader } from "~/routes/public/layout";
import { createCourse, createSignedInUser, createUser, enrol } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

/** Defects 7.3, 7.4 and 7.6 of issue 8, each as the page shows it. */

let handle: DatabaseHandle;
let campus: CampusAuth;
beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
});
afterAll(async () => handle?.close());

function loaderArgs(path: string, cookie?: string, params: Record<string, string> = {}) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { headers: cookie ? { cookie } : {} });
  return { request, params, context: routerContext(handle.db, campus), url: new URL(request.url), pattern: path } as never;
}

function html(element: ReactElement): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => element }]);
  return renderToString(createElement(Stub, { initialEntries: ["/"] }));
}

const institute = { name: "Institut", shortName: "ICEF", tagline: "", phones: [], email: "contact@icef.ml", openingHours: [] };

describe("a signed-in visitor on the public site", () => {
  it("is led to their space: the header says « Mon espace », not « Connexion / S'inscrire »", async () => {
    const anonymous = await layoutLoader(loaderArgs("/"));
    expect(anonymous.account).toBeNull();
    const { cookie } = await createSignedInUser(campus, handle.db);
    const signedIn = await layoutLoader(loaderArgs("/", cookie));
    expect(signedIn.account).toMatchObject({ href: "/dashboard" });
    const { cookie: teacherCookie } = await createSignedInUser(campus, handle.db, { role: "teacher" });
    expect((await layoutLoader(loaderArgs("/", teacherCookie))).account).toMatchObject({ href: "/teacher" });

    const anonymousHeader = html(createElement(SiteHeader, { institute, account: anonymous.account }));
    expect(anonymousHeader).toContain("Connexion");
    expect(anonymousHeader).not.toContain("Mon espace");
    const header = html(createElement(SiteHeader, { institute, account: signedIn.account }));
    expect(header).toContain("Mon espace");
    expect(header).toContain('href="/dashboard"');
    expect(header).not.toContain("Connexion");
    expect(header).not.toContain("S&#x27;inscrire");
  });

  it("sees « Continuer » on a course they follow, « S'inscrire » on the others", async () => {
    const { course } = await createCourse(handle.db);
    const { user, cookie } = await createSignedInUser(campus, handle.db);
    const before = await courseLoader(loaderArgs(`/formations/${course.slug}`, cookie, { slug: course.slug }));
    expect(before).toMatchObject({ following: false, full: false });
    await enrol(handle.db, user, course, { paid: true });
    const after = await courseLoader(loaderArgs(`/formations/${course.slug}`, cookie, { slug: course.slug }));
    expect(after.following).toBe(true);
    const box = html(createElement(EnrolBox, { slug: course.slug, priceFcfa: course.priceFcfa, following: true, full: false }));
    expect(box).toContain("Continuer");
    expect(box).toContain(`href="/dashboard/formations/${course.slug}"`);
    expect(box).not.toContain("S&#x27;inscrire");
  });
});

describe("a free or full course page", () => {
  it("says « Gratuit » and lists no way to pay for a free course", () => {
    const box = html(createElement(EnrolBox, { slug: "libre", priceFcfa: 0, following: false, full: false }));
    expect(box).toContain("Gratuit");
    expect(box).not.toContain("Mobile money");
    expect(box).toContain("S&#x27;inscrire");
  });

  it("says « Complet » with no active « S'inscrire » once every seat is taken", async () => {
    const { course } = await createCourse(handle.db, { maxStudents: 1 });
    const anonymous = await courseLoader(loaderArgs(`/formations/${course.slug}`, undefined, { slug: course.slug }));
    expect(anonymous.full).toBe(false);
    await enrol(handle.db, await createUser(handle.db), course, { paid: true });
    const full = await courseLoader(loaderArgs(`/formations/${course.slug}`, undefined, { slug: course.slug }));
    expect(full.full).toBe(true);
    const box = html(createElement(EnrolBox, { slug: course.slug, priceFcfa: course.priceFcfa, following: false, full: true }));
    expect(box).toContain("Complet");
    expect(box).not.toContain("Mobile money");
    expect(box).not.toContain("/inscription");
  });
});

describe("French", () => {
  it("elides « de » before a vowel or an h", () => {
    expect(ofName("Ibrahima Diallo")).toBe("d'Ibrahima Diallo");
    expect(ofName("Élise")).toBe("d'Élise");
    expect(ofName("Hawa")).toBe("d'Hawa");
    expect(ofName("Moussa")).toBe("de Moussa");
    const table = html(
      createElement(UsersTable, {
        users: [
          {
            id: "u1",
            firstName: "Ibrahima",
            lastName: "Diallo",
            email: "ibrahima@exemple.ml",
            phone: null,
            role: "user",
            status: "active",
            createdAt: new Date("2026-01-01T00:00:00Z"),
          },
        ],
        currentUserId: "admin",
        hydrated: false,
        confirmHref: (userId: string) => `/admin/users?confirmer=${userId}`,
      }),
    );
    expect(table).toContain("Rôle d&#x27;Ibrahima Diallo");
    expect(table).not.toContain("Rôle de Ibrahima");
  });

  it("says « Plus qu'une place », not « Plus que 1 place »", () => {
    expect(seatsLeftText(1)).toBe("Plus qu'une place disponible.");
    expect(seatsLeftText(3)).toBe("Plus que 3 places disponibles.");
  });
});
