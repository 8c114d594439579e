import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listRecentActivity } from "~/.server/activity";
import type { DatabaseHandle } from "~/.server/db/client";
import { sessions, users } from "~/.server/db/schema";
import { getProfile, normalizeMalianPhone, profileMessages, updateProfile } from "~/.server/profile";
import { listActivityEntries } from "~/.server/profile/activity";
import { describeDevice } from "~/.server/profile/format";
import { listUserSessions, revokeUserSession } from "~/.server/profile/sessions";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;

async function createUser(id: string, overrides: Partial<typeof users.$inferInsert> = {}) {
  await handle.db.insert(users).values({
    id,
    name: "Awa Traoré",
    email: `${id}@example.ml`,
    firstName: "Awa",
    lastName: "Traoré",
    emailVerified: true,
    ...overrides,
  });
}

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(users);
  await createUser("alice", { firstName: "Alice", lastName: "Diarra", name: "Alice Diarra" });
  await createUser("bob", { firstName: "Bob", lastName: "Keïta", name: "Bob Keïta", phone: "+223 66 00 00 00", role: "teacher" });
});

describe("getProfile", () => {
  it("reads the acting user's own row", async () => {
    const profile = await getProfile(handle.db, { id: "alice" });
    expect(profile).toMatchObject({ id: "alice", email: "alice@example.ml", firstName: "Alice", lastName: "Diarra", phone: null, role: "user" });
  });

  it("answers null for an account that no longer exists", async () => {
    expect(await getProfile(handle.db, { id: "ghost" })).toBeNull();
  });

  it("treats an unknown stored role as none", async () => {
    await handle.db.update(users).set({ role: "superuser" }).where(eq(users.id, "alice"));
    expect((await getProfile(handle.db, { id: "alice" }))?.role).toBeNull();
  });
});

describe("updateProfile", () => {
  it("updates first name, last name and phone, keeps the display name in step and records the activity", async () => {
    const result = await updateProfile(
      handle.db,
      { id: "alice" },
      { firstName: "  Alice  Awa ", lastName: "Coulibaly", phone: "+223 76 12 34 56" },
      { ipAddress: "203.0.113.9", userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36" },
    );
    expect(result.ok).toBe(true);
    const [row] = await handle.db.select().from(users).where(eq(users.id, "alice"));
    expect(row).toMatchObject({ firstName: "Alice Awa", lastName: "Coulibaly", phone: "+223 76 12 34 56", name: "Alice Awa Coulibaly" });
    const events = await listRecentActivity(handle.db, "alice");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "profile_updated", ipAddress: "203.0.113.9" });
    expect(events[0]!.details).toEqual({ fields: ["firstName", "lastName", "phone"] });
    const [entry] = await listActivityEntries(handle.db, "alice");
    expect(entry).toMatchObject({ label: "Profil mis à jour", when: "à l'instant" });
    expect(entry!.detail).toContain("Champs modifiés : prénom, nom, téléphone");
    expect(entry!.detail).toContain("Chrome sur Android");
  });

  it("normalizes the phone and clears it when left empty", async () => {
    await updateProfile(handle.db, { id: "bob" }, { firstName: "Bob", lastName: "Keïta", phone: "+22376123456" });
    expect((await getProfile(handle.db, { id: "bob" }))?.phone).toBe("+223 76 12 34 56");
    await updateProfile(handle.db, { id: "bob" }, { firstName: "Bob", lastName: "Keïta", phone: "   " });
    expect((await getProfile(handle.db, { id: "bob" }))?.phone).toBeNull();
  });

  it("refuses bad input with French messages, keeps what was typed, and changes nothing", async () => {
    const result = await updateProfile(handle.db, { id: "alice" }, { firstName: "  ", lastName: "x".repeat(81), phone: "76 12 34 56" });
    expect(result).toEqual({
      ok: false,
      reason: "invalid",
      errors: {
        firstName: profileMessages.firstNameRequired,
        lastName: profileMessages.lastNameTooLong,
        phone: profileMessages.phoneFormat,
      },
      values: { firstName: "  ", lastName: "x".repeat(81), phone: "76 12 34 56" },
    });
    const [row] = await handle.db.select().from(users).where(eq(users.id, "alice"));
    expect(row).toMatchObject({ firstName: "Alice", lastName: "Diarra", phone: null });
    expect(await listRecentActivity(handle.db, "alice")).toHaveLength(0);
  });

  it("ignores a forged id, e-mail or role: only the acting user's own names and phone change", async () => {
    const result = await updateProfile(handle.db, { id: "alice" }, {
      id: "bob",
      userId: "bob",
      email: "pirate@example.ml",
      role: "admin",
      firstName: "Pirate",
      lastName: "Forgé",
      phone: "",
    });
    expect(result.ok).toBe(true);
    const bob = await getProfile(handle.db, { id: "bob" });
    expect(bob).toMatchObject({ firstName: "Bob", lastName: "Keïta", phone: "+223 66 00 00 00", email: "bob@example.ml", role: "teacher" });
    const alice = await getProfile(handle.db, { id: "alice" });
    expect(alice).toMatchObject({ firstName: "Pirate", lastName: "Forgé", email: "alice@example.ml", role: "user" });
    expect(await listRecentActivity(handle.db, "bob")).toHaveLength(0);
  });

  it("answers not_found for an account deleted meanwhile", async () => {
    expect(await updateProfile(handle.db, { id: "ghost" }, { firstName: "A", lastName: "B", phone: "" })).toEqual({ ok: false, reason: "not_found" });
  });

  it("records an activity even when nothing changed (a save), with an empty field list", async () => {
    const result = await updateProfile(handle.db, { id: "alice" }, { firstName: "Alice", lastName: "Diarra", phone: "" });
    expect(result).toMatchObject({ ok: true, changed: [] });
  });
});

describe("normalizeMalianPhone", () => {
  it.each([
    ["+223 76 12 34 56", "+223 76 12 34 56"],
    ["+22376123456", "+223 76 12 34 56"],
    ["  +223  7612 3456 ", "+223 76 12 34 56"],
    ["", null],
  ])("accepts %j", (input, expected) => {
    expect(normalizeMalianPhone(input)).toBe(expected);
  });

  it.each(["76123456", "+223 7612345", "+223 761234567", "+33 6 12 34 56 78", "+223-76-12-34-56", "00223 76 12 34 56", "+223 76 12 34 5a"])(
    "refuses %j",
    (input) => {
      expect(normalizeMalianPhone(input)).toBeUndefined();
    },
  );
});

describe("sessions", () => {
  async function addSession(id: string, userId: string, userAgent: string | null, updatedAt = new Date()) {
    await handle.db.insert(sessions).values({
      id,
      token: `token-${id}`,
      userId,
      userAgent,
      ipAddress: "198.51.100.4",
      expiresAt: new Date(Date.now() + 3600_000),
      updatedAt,
    });
  }

  it("lists the user's own live sessions, current first, with a readable device", async () => {
    await addSession("s1", "alice", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0", new Date(Date.now() - 60_000));
    await addSession("s2", "alice", "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36");
    await addSession("s3", "bob", null);
    await handle.db.insert(sessions).values({ id: "old", token: "t-old", userId: "alice", expiresAt: new Date(Date.now() - 1000) });
    const list = await listUserSessions(handle.db, { id: "alice", sessionId: "s1" });
    expect(list.map((session) => [session.id, session.device, session.kind, session.current])).toEqual([
      ["s1", "Firefox sur Windows", "desktop", true],
      ["s2", "Chrome sur Android", "mobile", false],
    ]);
  });

  it("revokes only the user's own other sessions", async () => {
    await addSession("s1", "alice", null);
    await addSession("s2", "alice", null);
    await addSession("s3", "bob", null);
    const actor = { id: "alice", sessionId: "s1" };
    expect(await revokeUserSession(handle.db, actor, "s3")).toEqual({ ok: false, reason: "not_found" });
    expect(await revokeUserSession(handle.db, actor, "s1")).toEqual({ ok: false, reason: "current" });
    expect(await revokeUserSession(handle.db, actor, "s2")).toEqual({ ok: true });
    const left = await handle.db.select({ id: sessions.id }).from(sessions);
    expect(left.map((row) => row.id).sort()).toEqual(["s1", "s3"]);
    const events = await listRecentActivity(handle.db, "alice");
    expect(events.map((event) => event.type)).toEqual(["session_revoked"]);
  });

  it("describes common user agents in French", () => {
    expect(describeDevice("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")).toBe(
      "Safari sur iOS",
    );
    expect(describeDevice(null)).toBe("Appareil inconnu");
  });
});
