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
import { categories, courses, notifications, sessions, users } from "~/.server/db/schema";
import { createPageCache } from "~/.server/http/page-cache";
import { attachUnreadCounts, countUnreadNotifications, markAllNotificationsRead, notifyUser } from "~/.server/notifications";
import { createSignedInUser, createUser } from "../factories";
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
let unread: Awaited<ReturnType<typeof attachUnreadCounts>>;

beforeAll(async () => {
  handle = await createTestDatabase();
  if (handle.kind === "postgres") {
    const rows = (await handle.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    other = await openDatabase({ databaseUrl: serverDatabaseUrl(rows.rows[0]!.name), dataDir: "memory://" });
  } else {
    other = handle;
  }
  reference = await attachReferenceCache(handle);
  unread = await attachUnreadCounts(handle);
});

afterAll(async () => {
  await reference?.stop();
  await unread?.stop();
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

describe("unread notification counts in memory", () => {
  const notice = (userId: string, title: string) => notifyUser(other.db, { userId, kind: "forum_reply", title });

  it("keeps each person's own count, and follows any change to their notifications made by another process", async () => {
    const [ada, bintou] = [await createUser(handle.db), await createUser(handle.db)];
    await notice(ada.id, "Première annonce");
    await notice(ada.id, "Deuxième annonce");
    // The other process's notices reach this one asynchronously: one arriving after a count was
    // read drops that count again (read afresh next time), so wait until both are kept.
    await vi.waitFor(async () => {
      expect(await countUnreadNotifications(handle.db, ada)).toBe(2);
      expect(await countUnreadNotifications(handle.db, bintou)).toBe(0);
      expect(unread.counts.size).toBeGreaterThanOrEqual(2);
    });

    // Whoever writes: the capability, or a statement of its own (an operator, a script).
    await notice(ada.id, "Troisième annonce");
    await vi.waitFor(async () => expect(await countUnreadNotifications(handle.db, ada)).toBe(3));
    const [first] = await other.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, ada.id));
    await other.db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.id, first!.id));
    await vi.waitFor(async () => expect(await countUnreadNotifications(handle.db, ada)).toBe(2));
    await other.db.delete(notifications).where(eq(notifications.userId, ada.id));
    await vi.waitFor(async () => expect(await countUnreadNotifications(handle.db, ada)).toBe(0));
    // Someone else's notifications never move this count, nor this one theirs.
    await notice(bintou.id, "Pour Bintou");
    await vi.waitFor(async () => expect(await countUnreadNotifications(handle.db, bintou)).toBe(1));
    expect(await countUnreadNotifications(handle.db, ada)).toBe(0);
  });

  it("is read once while nothing changes, and a rolled-back notification changes nothing", async () => {
    const ada = await createUser(handle.db);
    await notice(ada.id, "Annonce");
    expect(await countUnreadNotifications(handle.db, ada)).toBe(1);
    await other.db
      .transaction(async (tx) => {
        await notifyUser(tx, { userId: ada.id, kind: "forum_reply", title: "Annulée" });
        throw new Error("rollback");
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A notification slipped in without its trigger (replica mode): only a cached count misses it.
    await other.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.insert(notifications).values({ userId: ada.id, kind: "forum_reply", title: "Sans déclencheur" });
    });
    expect(await countUnreadNotifications(handle.db, ada)).toBe(1);
    unread.counts.invalidate(ada.id);
    expect(await countUnreadNotifications(handle.db, ada)).toBe(2);
  });

  it("shows the person's own « Tout marquer comme lu » on their very next page", async () => {
    const ada = await createUser(handle.db);
    await notice(ada.id, "Annonce");
    expect(await countUnreadNotifications(handle.db, ada)).toBe(1);
    await markAllNotificationsRead(handle.db, ada);
    expect(await countUnreadNotifications(handle.db, ada)).toBe(0);
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
