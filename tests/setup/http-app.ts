import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DatabaseHandle } from "~/.server/db/client";
import { loadEnv, type Env } from "~/.server/env";
import { cookieFrom } from "./auth";
import { buildForTests } from "./server-build";

/** A route of the build, as its server manifest describes it. */
export type BuiltRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: Record<string, unknown> & { loader?: unknown; action?: unknown; default?: unknown; ErrorBoundary?: unknown };
};

export type BuiltApp = {
  /** "http://127.0.0.1:<port>", also the app's PUBLIC_URL. */
  base: string;
  /** The build's routes (server manifest), to walk the whole route table. */
  routes: Record<string, BuiltRoute>;
  /** Signs in through Better Auth's real endpoint; the Cookie header a browser would then send. */
  signIn(email: string, password: string): Promise<string>;
  close(): Promise<void>;
};

/**
 * The production build served over HTTP on a free port against `database`, as the real server
 * runs it (the Express app of app/.server/http/app.ts: the edge, Better Auth, React Router).
 * Builds once per file (TEST_BUILD_DIR reuses a build).
 */
export async function serveBuiltApp(database: DatabaseHandle, envOverrides: Partial<Record<keyof Env, string>> = {}): Promise<BuiltApp> {
  const { buildDir, remove } = await buildForTests();
  const bundle = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as typeof import("~/.server/http/app");
  // The port is known once listening: listen first, then build the app with the right PUBLIC_URL.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    ...envOverrides,
    PUBLIC_URL: base,
  } as NodeJS.ProcessEnv);
  const campus = await bundle.createCampusApp({ env, database });
  server.on("request", campus.handler);

  const serverBuildFile = fs.readdirSync(path.join(buildDir, "server/assets")).find((name) => name.startsWith("server-build-"));
  const serverBuild = (await import(pathToFileURL(path.join(buildDir, "server/assets", serverBuildFile!)).href)) as {
    routes: Record<string, BuiltRoute>;
  };

  return {
    base,
    routes: serverBuild.routes,
    async signIn(email, password) {
      const response = await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: base },
        body: JSON.stringify({ email, password }),
      });
      if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
      return cookieFrom(response.headers.getSetCookie());
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await campus.close();
      remove();
    },
  };
}

/** Full URL patterns of the build's pages and resource routes ("/dashboard/formations/:slug"), layouts left out. */
export function routePatterns(routes: Record<string, BuiltRoute>): Array<{ id: string; pattern: string; route: BuiltRoute }> {
  const fullPath = (id: string): string => {
    const route = routes[id]!;
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  const result: Array<{ id: string; pattern: string; route: BuiltRoute }> = [];
  for (const route of Object.values(routes)) {
    if (route.id === "root") continue;
    const hasChildren = Object.values(routes).some((other) => other.parentId === route.id);
    if (hasChildren && !route.index) continue;
    const pattern = `/${fullPath(route.id)}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
    result.push({ id: route.id, pattern, route });
  }
  return result.sort((a, b) => a.pattern.localeCompare(b.pattern));
}
