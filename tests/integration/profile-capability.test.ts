import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listRecentActivity } from "~/.server/activity";
import type { DatabaseHandle } from "~/.server/db/client";
import { sessions, users } from "~/.server/db/schema";
import { deviceMessages, describeDevice, listUserSessions, revokeUserSession } from "~/.server/auth";
import { getProfile, listActivityEntries, updateProfile } from "~/.server/profile";
import { LIMITS, phoneMessages, textMessages } from "~/lib/schemas";
import { createTestDatabase } from "../setup/db";
import { refusalOf } from "../setup/refusal";

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
    expect(profile).toMatchObject({
      id: "alice",
      email: "alice@example.ml",
      firstName: "Alice",
      lastName: "Diarra",
      phone: null,
      role: "user",
    });
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
      {
        ipAddress: "203.0.113.9",
        userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      },
    );
    expect(result.changed).toEqual(["firstName", "lastName", "phone"]);
    const [row] = await handle.db.select().from(users).where(eq(users.id, "alice"));
    expect(row).toMatchObject({ firstName: "Alice Awa", lastName: "Coulibaly", phone: "+22376123456", name: "Alice Awa Coulibaly" });
    const events = await listRecentActivity(handle.db, "alice");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "profile_updated", ipAddress: "203.0.113.9" });
    expect(events[0]!.details).toEqual({ fields: ["firstName", "lastName", "phone"] });
    const [entry] = await listActivityEntries(handle.db, "alice");
    expect(entry).toMatchObject({ label: "Profil mis à jour", when: "à l'instant" });
    expect(entry!.detail).toContain("Champs modifiés : prénom, nom, téléphone");
    expect(entry!.detail).toContain("Chrome sur Android");
  });

  it("stores the phone in E.164 and clears it when left empty", async () => {
    await updateProfile(handle.db, { id: "bob" }, { firstName: "Bob", lastName: "Keïta", phone: "+223 7612 3456" });
    expect((await getProfile(handle.db, { id: "bob" }))?.phone).toBe("+22376123456");
    await updateProfile(handle.db, { id: "bob" }, { firstName: "Bob", lastName: "Keïta", phone: "   " });
    expect((await getProfile(handle.db, { id: "bob" }))?.phone).toBeNull();
  });

  // Defect 7.2 of issue 8: only "+223" numbers were accepted.
  it.each([
    ["76 12 34 56", "+22376123456"],
    ["+225 07 08 09 10 11", "+2250708091011"],
    ["+221 77 123 45 67", "+221771234567"],
    ["+226 70 12 34 56", "+22670123456"],
    ["+33 6 12 34 56 78", "+33612345678"],
  ])("accepts the West African or international number %j, stored as %j", async (typed, stored) => {
    await updateProfile(handle.db, { id: "alice" }, { firstName: "Alice", lastName: "Diarra", phone: typed });
    expect((await getProfile(handle.db, { id: "alice" }))?.phone).toBe(stored);
  });

  it("takes a number stored before E.164 as unchanged", async () => {
    const result = await updateProfile(handle.db, { id: "bob" }, { firstName: "Bob", lastName: "Keïta", phone: "+223 66 00 00 00" });
    expect(result.changed).toEqual([]);
  });

  it("refuses bad input with French messages and changes nothing", async () => {
    const tooLong = "x".repeat(LIMITS.name + 1);
    const refusal = await refusalOf(updateProfile(handle.db, { id: "alice" }, { firstName: "  ", lastName: tooLong, phone: "76 12" }));
    expect(refusal).toMatchObject({
      code: "invalid",
      fieldErrors: {
        firstName: textMessages.required("Le prénom"),
        lastName: textMessages.tooLong("Le nom", LIMITS.name),
        phone: phoneMessages.invalid,
      },
    });
    const [row] = await handle.db.select().from(users).where(eq(users.id, "alice"));
    expect(row).toMatchObject({ firstName: "Alice", lastName: "Diarra", phone: null });
    expect(await listRecentActivity(handle.db, "alice")).toHaveLength(0);
  });

  it("ignores a forged id, e-mail or role: only the acting user's own names and phone change", async () => {
    const result = await updateProfile(
      handle.db,
      { id: "alice" },
      {
        id: "bob",
        userId: "bob",
        email: "pirate@example.ml",
        role: "admin",
        firstName: "Pirate",
        lastName: "Forgé",
        phone: "",
      },
    );
    expect(result.changed).toEqual(["firstName", "lastName"]);
    const bob = await getProfile(handle.db, { id: "bob" });
    expect(bob).toMatchObject({ firstName: "Bob", lastName: "Keïta", phone: "+223 66 00 00 00", email: "bob@example.ml", role: "teacher" });
    const alice = await getProfile(handle.db, { id: "alice" });
    expect(alice).toMatchObject({ firstName: "Pirate", lastName: "Forgé", email: "alice@example.ml", role: "user" });
    expect(await listRecentActivity(handle.db, "bob")).toHaveLength(0);
  });

  it("answers not_found for an account deleted meanwhile", async () => {
    expect(await refusalOf(updateProfile(handle.db, { id: "ghost" }, { firstName: "A", lastName: "B", phone: "" }))).toMatchObject({
      code: "not_found",
    });
  });

  it("records an activity even when nothing changed (a save), with an empty field list", async () => {
    const result = await updateProfile(handle.db, { id: "alice" }, { firstName: "Alice", lastName: "Diarra", phone: "" });
    expect(result).toMatchObject({ changed: [] });
  });
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
    await addSession(
      "s1",
      "alice",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
      new Date(Date.now() - 60_000),
    );
    await addSession(
      "s2",
      "alice",
      "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
    );
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
    expect(await refusalOf(revokeUserSession(handle.db, actor, "s3"))).toMatchObject({
      code: "not_found",
      message: deviceMessages.sessionGone,
    });
    expect(await refusalOf(revokeUserSession(handle.db, actor, "s1"))).toMatchObject({
      code: "conflict",
      message: deviceMessages.currentSession,
    });
    await revokeUserSession(handle.db, actor, "s2");
    const left = await handle.db.select({ id: sessions.id }).from(sessions);
    expect(left.map((row) => row.id).sort()).toEqual(["s1", "s3"]);
    const events = await listRecentActivity(handle.db, "alice");
    expect(events.map((event) => event.type)).toEqual(["session_revoked"]);
  });

  it("describes common user agents in French", () => {
    expect(
      describeDevice(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari sur iOS");
    expect(describeDevice(null)).toBe("Appareil inconnu");
  });
});
