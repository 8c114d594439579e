import path from "node:path";
import { isRouteErrorResponse, matchRoutes, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { CampusAuth } from "~/.server/auth/express";
import type { SessionUser } from "~/.server/auth/session";
import type { Database } from "~/.server/db/client";
import type { TestUser } from "../factories/users";
import { routerContext, TEST_PUBLIC_URL } from "./auth";

/** What a loader or action amounts to: a redirect or Response, route data (and its status), or a thrown error response. */
export type RouteOutcome = { status: number; location?: string | null; data?: unknown; body?: string };

/** Runs a loader or action called directly and says what a browser would get. */
export async function routeOutcome(run: () => Promise<unknown>): Promise<RouteOutcome> {
  try {
    const value = await run();
    if (value instanceof Response) return { status: value.status, location: value.headers.get("location"), body: await value.text() };
    // data(value, { status }) returns its init alongside the value.
    if (value && typeof value === "object" && "init" in value && "data" in value) {
      const wrapped = value as { data: unknown; init: { status?: number } | null };
      return { status: wrapped.init?.status ?? 200, data: wrapped.data };
    }
    return { status: 200, data: value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
    if (isRouteErrorResponse(thrown)) return { status: thrown.status };
    if (thrown && typeof thrown === "object" && "init" in thrown) return { status: (thrown as { init: { status: number } }).init.status };
    throw thrown;
  }
}

/** The session a factory user carries once signed in (as a signed-in layout's guard sets it). */
export const sessionOf = (user: TestUser): SessionUser => ({
  ...user,
  emailVerified: true,
  twoFactorEnabled: false,
  sessionId: "test",
  dataSaver: false,
});

export type RouteCallOptions = { form?: Record<string, string> | [string, string][]; params?: Record<string, string> };

/**
 * Calls a loader or action directly as `user` (null: a visitor), GET or POST with `form`, and says
 * what a browser would get. Test files bind it once: `const call = routeCaller(() => ({ db, campus }))`.
 */
export function routeCaller(services: () => { db: Database; campus: CampusAuth }) {
  return <T>(run: (args: never) => Promise<T> | T, user: TestUser | null, path: string, options: RouteCallOptions = {}) => {
    const { db, campus } = services();
    const request = new Request(
      `${TEST_PUBLIC_URL}${path}`,
      options.form ? { method: "POST", body: new URLSearchParams(options.form) } : {},
    );
    const context = routerContext(db, campus, user ? { user: sessionOf(user) } : {});
    return routeOutcome(async () =>
      run({ request, params: options.params ?? {}, context, url: new URL(request.url), pattern: path } as never),
    );
  };
}

type RouteEntry = { id?: string; file: string; path?: string; index?: boolean; children?: RouteEntry[] };
type MatchableRoute = { id: string; path?: string; index?: boolean; children?: MatchableRoute[]; handle: { file: string } };
type ServerArgs = { request: Request; context: Readonly<RouterContextProvider> };
type RouteModule = { middleware?: MiddlewareFunction<Response>[] };

const appDir = path.resolve(import.meta.dirname, "../../app");
let table: MatchableRoute[] | null = null;

function matchable(entries: RouteEntry[]): MatchableRoute[] {
  return entries.map((entry) => ({
    id: entry.id ?? entry.file.replace(/\.[^.]+$/, ""),
    ...(entry.path === undefined ? {} : { path: entry.path }),
    ...(entry.index ? { index: true } : {}),
    ...(entry.children ? { children: matchable(entry.children) } : {}),
    handle: { file: entry.file },
  })) as MatchableRoute[];
}

/**
 * Calls a route module's loader or action as the server does: first the middleware of every
 * route the URL matches in app/routes.ts (the signed-in layouts' guards, a route's own), in
 * order, then the function. A guard's redirect is thrown as it would be to the browser.
 *
 *   await routeOutcome(() => asServer(action, args("/admin/users", { cookie, form })));
 */
export async function asServer<Args extends ServerArgs, Result>(run: (args: Args) => Promise<Result>, args: Args): Promise<Result> {
  table ??= matchable((await import("~/routes")).default as RouteEntry[]);
  const matches = matchRoutes(table as never, new URL(args.request.url).pathname) as Array<{ route: MatchableRoute }> | null;
  if (!matches) throw new Error(`no route matches ${args.request.url}`);
  const modules = (await Promise.all(matches.map((match) => import(path.join(appDir, match.route.handle.file))))) as RouteModule[];
  const middleware = modules.flatMap((module) => module.middleware ?? []);
  let result: Result | undefined;
  const next = async (index: number): Promise<Response> => {
    const current = middleware[index];
    if (!current) {
      result = await run(args);
      return new Response(null);
    }
    let called: Promise<Response> | null = null;
    const answer = await current(args as never, () => (called ??= next(index + 1)));
    if (answer instanceof Response) return answer;
    return called ?? next(index + 1);
  };
  await next(0);
  return result as Result;
}
