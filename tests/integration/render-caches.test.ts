import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mountAuth, sessionOf } from "~/.server/auth/express";
import { createSessionCache, followSessionChanges } from "~/.server/auth/session-cache";
import { attachReferenceCache } from "~/.server/cache";
import { getInstitute, listCategories, listPublishedCourses } from "~/.server/catalogue";
import { openDatabase, type DatabaseHandle } from "~/.server/db/client";
import { categories, courses, sessions, users } from "~/.server/db/schema";
import { createPageCache } from "~/.server/http/page-cache";
import { createSignedInUser } from "../factories";
import { createTestAuth } from "../setup/auth";
import { createTestDatabase, serverDatabaseUrl } from "../setup/db";

/**
 * The caches of the render path (app/.server/cache, app/.server/auth/session-cache.ts) follow the
 * database: a change committed by any process reaches them through the triggers of drizzle/0004
 * and NOTIFY. On PostgreSQL the change is written through a second pool, as another server process
 * would; on PGlite (one process) through the same database.
 */

let handle: DatabaseHandle;
/** Where "another process" writes. */
let other: DatabaseHandle;
let reference: Awaited<ReturnType<typeof attachReferenceCache>>;

beforeAll(async () => {
  handle = await createTestDatabase();
  if (handle.kind === "postgres") {
    const rows = (await handle.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    other = await openDatabase({ databaseUrl: serverDatabaseUrl(rows.rows[0]!.name), dataDir: "memory://" });
  } else {
    other = handle;
  }
  reference = await attachReferenceCache(handle);
});

afterAll(async () => {
  await reference?.stop();
  if (other && other !== handle) await other.close();
  await handle?.close();
});

async function listen(app: express.Express) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("reference data in memory", () => {
  it("is read once, then follows a change committed by another process", async () => {
    const before = reference.cache.stats();
    const first = await listCategories(handle.db);
    const institute = await getInstitute(handle.db);
    const after = reference.cache.stats();
    // The same objects, not the same rows read again.
    expect(await listCategories(handle.db)).toBe(first);
    expect(await getInstitute(handle.db)).toBe(institute);
    expect(reference.cache.stats().hits - after.hits).toBe(2);
    expect(after.misses - before.misses).toBeLessThanOrEqual(2);

    const renamed = `${first[0]!.name} (renommée)`;
    await other.db.update(categories).set({ name: renamed }).where(eq(categories.slug, first[0]!.slug));
    await vi.waitFor(async () => expect((await listCategories(handle.db))[0]!.name).toBe(renamed));
  });

  it("drops the catalogue when a course changes, and a rolled-back change drops nothing", async () => {
    const [course] = await listPublishedCourses(handle.db);
    await other.db
      .transaction(async (tx) => {
        await tx.update(courses).set({ title: "Titre annulé" }).where(eq(courses.id, course!.id));
        throw new Error("rollback");
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hits = reference.cache.stats().hits;
    expect((await listPublishedCourses(handle.db))[0]!.title).toBe(course!.title);
    expect(reference.cache.stats().hits).toBe(hits + 1);

    await other.db.update(courses).set({ title: "Intelligence Artificielle appliquée" }).where(eq(courses.id, course!.id));
    await vi.waitFor(async () => expect((await listPublishedCourses(handle.db))[0]!.title).toBe("Intelligence Artificielle appliquée"));
  });

  it("empties the anonymous page cache when the catalogue changes", async () => {
    const pageCache = createPageCache({ ttlSeconds: 3600 });
    reference.cache.onInvalidate(() => pageCache.clear());
    const app = express();
    app.use(pageCache.middleware);
    app.get("/formations", async (_req, res) => {
      res.type("html").send(`<h1>${(await listPublishedCourses(handle.db))[0]!.title}</h1>`);
    });
    const server = await listen(app);
    try {
      const page = async () => (await fetch(`${server.url}/formations`)).text();
      const [course] = await listPublishedCourses(handle.db);
      expect(await page()).toBe(`<h1>${course!.title}</h1>`);
      expect(pageCache.stats().entries).toBe(1);
      await other.db.update(courses).set({ title: "Cybersécurité avancée" }).where(eq(courses.id, course!.id));
      await vi.waitFor(async () => expect(await page()).toBe("<h1>Cybersécurité avancée</h1>"));
    } finally {
      await server.close();
    }
  });
});

describe("resolved sessions in memory", () => {
  async function appWithSessionCache() {
    const campus = createTestAuth(handle.db);
    const sessionCache = createSessionCache({ maxDays: 30 });
    const unfollow = await followSessionChanges(handle, sessionCache);
    const app = express();
    mountAuth(app, campus, { sessionCache });
    app.get("/moi", async (_req, res) => {
      const user = await sessionOf(res);
      res.json(user ? { id: user.id, role: user.role, firstName: user.firstName } : null);
    });
    const server = await listen(app);
    return { campus, sessionCache, server, close: async () => Promise.all([server.close(), unfollow()]) };
  }

  it("answers a known cookie from memory, never another person's, and follows role changes", async () => {
    const { campus, sessionCache, server, close } = await appWithSessionCache();
    try {
      const awa = await createSignedInUser(campus, handle.db, { firstName: "Awa" });
      const moussa = await createSignedInUser(campus, handle.db, { firstName: "Moussa" });
      const me = async (cookie: string) => (await fetch(`${server.url}/moi`, { headers: { cookie } })).json();
      expect(await me(awa.cookie)).toMatchObject({ id: awa.user.id, firstName: "Awa" });
      expect(await me(moussa.cookie)).toMatchObject({ id: moussa.user.id, firstName: "Moussa" });
      expect(sessionCache.size).toBe(2);
      // Served from memory: the same answers.
      expect(await me(awa.cookie)).toMatchObject({ id: awa.user.id });
      expect(await me(moussa.cookie)).toMatchObject({ id: moussa.user.id });
      // A forged cookie (the right name, another value) is not answered from memory.
      expect(await me(awa.cookie.replace(/=([^;]{4})/, "=xxxx"))).toBeNull();

      await other.db.update(users).set({ role: "teacher" }).where(eq(users.id, awa.user.id));
      await vi.waitFor(async () => expect(await me(awa.cookie)).toMatchObject({ role: "teacher" }));
    } finally {
      await close();
    }
  });

  it("looks a cookie up once for the requests that arrive with it together, and each person's apart", async () => {
    const { campus, sessionCache, server, close } = await appWithSessionCache();
    try {
      const awa = await createSignedInUser(campus, handle.db, { firstName: "Awa" });
      const moussa = await createSignedInUser(campus, handle.db, { firstName: "Moussa" });
      // A lookup slow enough for all the requests to arrive while it runs.
      const getSession = campus.auth.api.getSession;
      const lookups = vi.spyOn(campus.auth.api, "getSession").mockImplementation((async (...args: Parameters<typeof getSession>) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return getSession(...args);
      }) as typeof getSession);
      const me = async (cookie: string) => (await fetch(`${server.url}/moi`, { headers: { cookie } })).json();
      const answers = await Promise.all([...Array(6).fill(awa.cookie), ...Array(6).fill(moussa.cookie)].map(me));
      expect(answers.slice(0, 6)).toEqual(Array(6).fill(expect.objectContaining({ id: awa.user.id })));
      expect(answers.slice(6)).toEqual(Array(6).fill(expect.objectContaining({ id: moussa.user.id })));
      expect(lookups).toHaveBeenCalledTimes(2);
      // Once answered, the next requests are looked up again (here, from the cache emptied).
      sessionCache.clear();
      expect(await me(awa.cookie)).toMatchObject({ id: awa.user.id });
      expect(lookups).toHaveBeenCalledTimes(3);
    } finally {
      await close();
    }
  });

  it("forgets a session revoked or signed out elsewhere, and a deactivated account", async () => {
    const { campus, server, close } = await appWithSessionCache();
    try {
      const me = async (cookie: string) => (await fetch(`${server.url}/moi`, { headers: { cookie } })).json();
      const revoked = await createSignedInUser(campus, handle.db);
      expect(await me(revoked.cookie)).toMatchObject({ id: revoked.user.id });
      await other.db.delete(sessions).where(eq(sessions.userId, revoked.user.id));
      await vi.waitFor(async () => expect(await me(revoked.cookie)).toBeNull());

      // Its late answers leave the browser's cookies alone: they may already hold a new session.
      const late = await fetch(`${server.url}/moi`, { headers: { cookie: revoked.cookie } });
      expect(late.headers.getSetCookie()).toEqual([]);

      const banned = await createSignedInUser(campus, handle.db);
      expect(await me(banned.cookie)).toMatchObject({ id: banned.user.id });
      await other.db.update(users).set({ banned: true }).where(eq(users.id, banned.user.id));
      await vi.waitFor(async () => expect(await me(banned.cookie)).toBeNull());
    } finally {
      await close();
    }
  });
});
