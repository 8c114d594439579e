/**
 * Error pages of the signed-in areas render inside the area's layout, with a way back: a GET on a
 * route made for POST (/admin/rapports) answers 405 with `Allow`, the admin sidebar and links to
 * the reports and the dashboard; a 404 of an admin page keeps the sidebar too. Real server, built app.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { loadEnv } from "~/.server/env";
import { createUser } from "../factories";
import { cookieFrom } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { buildForTests } from "../setup/server-build";

const PASSWORD = "Erreurs-dans-le-cadre-2024";
let removeBuild = () => {};
let handle: DatabaseHandle;
let server: http.Server;
let base = "";
let cookie = "";

beforeAll(async () => {
  const { buildDir, remove } = await buildForTests();
  removeBuild = remove;
  handle = await createTestDatabase();
  await createUser(handle.db, { role: "admin", email: "admin-erreurs@exemple.ml", password: PASSWORD });
  const bundle = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as typeof import("~/.server/http/app");
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: "memory://",
    PUBLIC_URL: "http://127.0.0.1:1",
    LOG_LEVEL: "silent",
  } as NodeJS.ProcessEnv);
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const campus = await bundle.createCampusApp({ env: { ...env, PUBLIC_URL: base }, database: handle });
  server.on("request", campus.handler);
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ email: "admin-erreurs@exemple.ml", password: PASSWORD }),
  });
  cookie = cookieFrom(signIn.headers.getSetCookie());
}, 180_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await handle?.close();
  removeBuild();
});

const get = (url: string, withCookie = true) =>
  fetch(`${base}${url}`, { headers: withCookie ? { Cookie: cookie } : {}, redirect: "manual" });

describe("error pages of the admin area", () => {
  it("answers a GET on /admin/rapports with a 405 inside the layout, with a way back", async () => {
    const response = await get("/admin/rapports");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    const html = await response.text();
    // The admin sidebar is there.
    expect(html).toContain(">Vue d&#x27;ensemble<");
    expect(html).toContain("Cette adresse n&#x27;est pas une page");
    expect(html).toContain('href="/admin?onglet=rapports"');
    expect(html).toContain('href="/admin"');
    expect(html).not.toMatch(/^Méthode non autorisée/);
  });

  it("still sends a visitor who is not signed in to the sign-in page first", async () => {
    const response = await get("/admin/rapports", false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/auth/);
  });

  it("sends a report form it cannot read back to its page with the reason", async () => {
    const response = await fetch(`${base}/admin/rapports`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ kind: "inconnu", format: "csv", back: "/admin/financial?onglet=rapports" }),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/financial?onglet=rapports");
  });

  it("draws a 404 of an admin page inside the layout, with the way to the dashboard", async () => {
    const response = await get("/admin/messages/999999");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain(">Vue d&#x27;ensemble<");
    expect(html).toContain("Retour au tableau de bord de l&#x27;administration");
  });
});
