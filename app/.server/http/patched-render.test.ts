import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { createElement, Fragment, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";

/**
 * React Router's and React DOM's server render path, as patched in patches/react-router+*.patch
 * and patches/react-dom+*.patch (docs/decisions/0040-patched-render-path.md): the same results,
 * with less garbage per page. These read the production files that the server bundle is built from.
 */

const root = path.resolve(import.meta.dirname, "../../..");
const reactRouterFile = (file: string) =>
  import(pathToFileURL(path.join(root, "node_modules/react-router/dist/production/lib", file)).href);

interface Branch {
  path: string;
  pathMatcher?: RegExp;
}
interface Match {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: { id: string };
}
interface RouterUtils {
  flattenAndRankRoutes(routes: unknown[]): Branch[];
  matchRoutesImpl(routes: unknown[], location: string, basename: string, allowPartial: boolean, branches: Branch[]): Match[] | null;
}

interface RouteObject {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteObject[];
}

/** The app's route table (app/routes.ts) as the route objects React Router matches. */
function routeObjects(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map((entry) => ({
    id: entry.id ?? entry.file,
    path: entry.path,
    index: entry.index,
    caseSensitive: entry.caseSensitive,
    children: entry.children ? routeObjects(entry.children) : undefined,
  }));
}

/** Paths around each branch's pattern: filled in, cased, slashed, cut short, extended, encoded. */
function samplePaths(branches: Branch[]): string[] {
  const paths = new Set(["/", "", "//", "/%2F", "/x%2Fy", "/%C3%A9t%C3%A9", "/dashboard%2Fformations", "/a/b/c/d/e"]);
  for (const { path: pattern } of branches) {
    for (const value of ["12", "abc-def", "%C3%A9", "a.b", "%2F"]) {
      const filled = `/${pattern}`
        .replace(/\/+/g, "/")
        .replace(/:[\w-]+/g, value)
        .replace(/\*$/, "a/b");
      paths.add(filled);
      paths.add(`${filled}/`);
      paths.add(`${filled}//`);
      paths.add(filled.toUpperCase());
      paths.add(`${filled}/suite`);
      paths.add(filled.replace(/\/[^/]*$/, ""));
      paths.add(filled.replace("/", "//"));
      paths.add(filled.replace(/\/([^/]+)$/, "//$1"));
    }
  }
  return [...paths];
}

const summary = (matches: Match[] | null) =>
  matches?.map(({ route, params, pathname, pathnameBase }) => ({ id: route.id, params: { ...params }, pathname, pathnameBase })) ?? null;

describe("route matching (patched)", async () => {
  const utils = (await reactRouterFile("router/utils.js")) as RouterUtils;
  const routes = routeObjects(routeConfig);
  const branches = utils.flattenAndRankRoutes(routes);

  it("compiles each branch's whole path once", () => {
    expect(branches.length).toBeGreaterThan(100);
    expect(branches.every((branch) => branch.pathMatcher instanceof RegExp)).toBe(true);
  });

  it("matches every path exactly as trying every branch in turn does", () => {
    const unfiltered = branches.map(({ pathMatcher: _skipped, ...branch }) => branch);
    const paths = samplePaths(branches);
    expect(paths.length).toBeGreaterThan(1500);
    for (const url of paths) {
      for (const allowPartial of [false, true]) {
        const patched = summary(utils.matchRoutesImpl(routes, url, "/", allowPartial, branches));
        expect(patched, `${url}${allowPartial ? " (partial)" : ""}`).toEqual(
          summary(utils.matchRoutesImpl(routes, url, "/", allowPartial, unfiltered)),
        );
      }
    }
  });
});

describe("the server router's route tree (patched)", async () => {
  const { createStaticRouter } = (await reactRouterFile("dom/server.js")) as typeof import("react-router");
  const { createEntryRouteModules } = (await reactRouterFile("server-runtime/entry.js")) as {
    createEntryRouteModules(manifest: Record<string, { module: unknown }>): Record<string, unknown>;
  };

  const staticContext = (pathname: string) =>
    ({
      basename: "/",
      location: { pathname, search: "", hash: "", state: null, key: "default" },
      matches: [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      _match: () => null,
    }) as unknown as Parameters<typeof createStaticRouter>[1];

  it("converts a route tree to data routes once, and another tree afresh", () => {
    const routes = [{ id: "root", path: "/", children: [{ id: "page", path: "page" }] }];
    const first = createStaticRouter(routes, staticContext("/"));
    const second = createStaticRouter(routes, staticContext("/page"));
    expect(second.routes).toBe(first.routes);
    expect(second.state.location.pathname).toBe("/page");
    const other = createStaticRouter([{ id: "root", path: "/" }], staticContext("/"));
    expect(other.routes).not.toBe(first.routes);
    expect(other.routes[0]!.children).toBeUndefined();
  });

  it("builds the server routes once per build's manifest and route modules", async () => {
    const { ServerRouter } = (await reactRouterFile("dom/ssr/server.js")) as typeof import("react-router");
    const flags = { hasLoader: false, hasAction: false, hasClientLoader: false, hasClientAction: false, hasErrorBoundary: false };
    const manifest = {
      entry: { module: "/entry.js", imports: [] },
      url: "/manifest.js",
      version: "1",
      routes: {
        root: { id: "root", path: "", module: "/root.js", ...flags },
        page: { id: "page", parentId: "root", path: "page", module: "/page.js", ...flags },
      },
    };
    const handler = createStaticHandler([{ id: "root", path: "", children: [{ id: "page", path: "page" }] }]);
    // Building the routes reads every route's module; a render of "/" otherwise reads the root's only.
    const reads: string[] = [];
    const watched = (modules: Record<string, unknown>) =>
      new Proxy(modules, { get: (target, key: string) => (reads.push(key), target[key]) });
    const render = async (routeModules: Record<string, unknown>) => {
      const staticHandlerContext = await handler.query(new Request("http://campus.test/"));
      const context = {
        manifest,
        routeModules,
        staticHandlerContext,
        future: {},
        ssr: true,
        isSpaMode: false,
        routeDiscovery: { mode: "initial" },
        serverHandoffString: "{}",
        renderMeta: {},
      };
      return renderToString(createElement(ServerRouter, { context: context as never, url: "http://campus.test/" }));
    };
    const routeModules = watched({ root: { default: () => createElement("main", null, "Accueil") }, page: { default: () => null } });
    expect(await render(routeModules)).toBe("<main>Accueil</main>");
    expect(await render(routeModules)).toBe("<main>Accueil</main>");
    expect(reads.filter((key) => key === "page")).toHaveLength(1);
    const rebuilt = watched({ root: { default: () => createElement("main", null, "Accueil modifié") }, page: { default: () => null } });
    expect(await render(rebuilt)).toBe("<main>Accueil modifié</main>");
    expect(reads.filter((key) => key === "page")).toHaveLength(2);
  });

  it("gives one route modules object per build, and a new one for a new build", () => {
    const build = { root: { module: { default: "Root" } }, page: { module: { default: "Page" } } };
    const routeModules = createEntryRouteModules(build);
    expect(routeModules).toEqual({ root: build.root.module, page: build.page.module });
    expect(createEntryRouteModules(build)).toBe(routeModules);
    const rebuilt = { ...build, page: { module: { default: "Page, edited" } } };
    expect(createEntryRouteModules(rebuilt)).toEqual({ root: build.root.module, page: rebuilt.page.module });
  });
});

describe("React DOM's stream writer (patched)", () => {
  // React's production server builds: Node's stream, as the server bundle has it (patched), and
  // the web streams' (untouched), the same renderer writing through a writer of its own.
  const requireFromRoot = createRequire(path.join(root, "package.json"));
  const streaming = requireFromRoot(
    "./node_modules/react-dom/cjs/react-dom-server.node.production.js",
  ) as typeof import("react-dom/server");
  const webStreams = requireFromRoot(
    "./node_modules/react-dom/cjs/react-dom-server.edge.production.js",
  ) as typeof import("react-dom/server");

  /** Texts that cross the writer's 4 KB views at every offset: ASCII, accents, emoji, a lone surrogate. */
  function page(): ReactNode {
    const pieces = [
      "a",
      "é",
      "Bamako",
      "Ségou – Kayes",
      "😀",
      "\ud800",
      "x".repeat(1365),
      "é".repeat(1365),
      "é".repeat(1366),
      "y".repeat(4097),
    ];
    const children: ReactNode[] = [];
    for (let index = 0; index < 600; index++) {
      const text = pieces[index % pieces.length]!.repeat(1 + (index % 3));
      children.push(
        createElement("p", { key: index, title: text.slice(0, 50), "data-index": index }, text, createElement("b", null, index)),
      );
    }
    return createElement(Fragment, null, createElement("h1", null, "Formations"), ...children);
  }

  function renderStream(node: ReactNode) {
    return new Promise<{ html: string; chunks: unknown[] }>((resolve, reject) => {
      const chunks: unknown[] = [];
      const sink = new PassThrough();
      const written: Buffer[] = [];
      sink.on("data", (chunk: Buffer) => written.push(chunk));
      sink.on("end", () => resolve({ html: Buffer.concat(written).toString("utf8"), chunks }));
      const originalWrite = sink.write.bind(sink);
      sink.write = ((chunk: unknown, ...rest: never[]) => {
        chunks.push(chunk);
        return originalWrite(chunk as Buffer, ...rest);
      }) as typeof sink.write;
      const { pipe } = streaming.renderToPipeableStream(node, { onAllReady: () => pipe(sink), onShellError: reject, onError: reject });
    });
  }

  it("writes the bytes the web streams' writer writes", async () => {
    const { html } = await renderStream(page());
    expect(html.length).toBeGreaterThan(100_000);
    const expected = await new Response(await webStreams.renderToReadableStream(page())).text();
    // toBe would print both pages whole on a failure: compare, then show where they part.
    let same = 0;
    while (same < html.length && html[same] === expected[same]) same++;
    expect({ length: html.length, from: html.slice(same, same + 80) }).toEqual({
      length: expected.length,
      from: expected.slice(same, same + 80),
    });
  });

  it("hands Node Buffers to the stream, so no chunk is copied on its way", async () => {
    const { chunks } = await renderStream(page());
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.every((chunk) => typeof chunk === "string" || Buffer.isBuffer(chunk))).toBe(true);
  });
});
