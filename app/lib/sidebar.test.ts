import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { isActivePath, mainNavigation, readSidebarCollapsed, sidebarCookieValue, teacherNavigation } from "./sidebar";

const labels = (groups: ReturnType<typeof mainNavigation>) =>
  groups.map((group) => [group.label ?? null, group.items.map((item) => item.label)]);

describe("mainNavigation", () => {
  it("shows the admin group only to admins and the teacher group only to teachers", () => {
    expect(labels(mainNavigation("user"))).toEqual([
      [null, ["Tableau de Bord", "Mon Profil", "Mes Formations", "Mes paiements", "Forum", "Messagerie", "Certificats", "Téléchargements"]],
    ]);
    expect(labels(mainNavigation("admin")).map(([label]) => label)).toEqual([null, "Administration"]);
    expect(labels(mainNavigation("teacher")).map(([label]) => label)).toEqual([null, "Enseignement"]);
    expect(mainNavigation(null)).toHaveLength(1);
  });

  it("gives every entry of every shell a screen of app/routes.ts", () => {
    type Entry = { path?: string; index?: boolean; file: string; children?: Entry[] };
    const built = new Set<string>();
    const walk = (entries: Entry[], prefix: string) => {
      for (const entry of entries) {
        const path = entry.path ? `${prefix}/${entry.path}` : prefix;
        if (!entry.children?.length) built.add(path || "/");
        walk(entry.children ?? [], path);
      }
    };
    walk(routes as Entry[], "");
    const all = [...mainNavigation("admin"), ...mainNavigation("teacher"), ...teacherNavigation()].flatMap((group) => group.items);
    for (const item of all) {
      expect(built.has(item.to), item.to).toBe(true);
    }
  });
});

describe("isActivePath", () => {
  it("matches index entries exactly and others by prefix", () => {
    expect(isActivePath("/dashboard", { to: "/dashboard", end: true })).toBe(true);
    expect(isActivePath("/dashboard/profile", { to: "/dashboard", end: true })).toBe(false);
    expect(isActivePath("/dashboard/profile/", { to: "/dashboard/profile" })).toBe(true);
    expect(isActivePath("/admin/users/export", { to: "/admin/users" })).toBe(true);
    expect(isActivePath("/admin/users-old", { to: "/admin/users" })).toBe(false);
  });
});

describe("sidebar cookie", () => {
  it("reads the collapse state, expanded by default", () => {
    expect(readSidebarCollapsed(null)).toBe(false);
    expect(readSidebarCollapsed("a=1; sidebar_state=collapsed; b=2")).toBe(true);
    expect(readSidebarCollapsed("sidebar_state=expanded")).toBe(false);
    expect(readSidebarCollapsed("my_sidebar_state=collapsed")).toBe(false);
  });

  it("keeps the state 7 days", () => {
    expect(sidebarCookieValue(true)).toBe("sidebar_state=collapsed; Path=/; Max-Age=604800; SameSite=Lax");
    expect(sidebarCookieValue(false, true)).toMatch(/sidebar_state=expanded;.*; Secure$/);
  });
});
