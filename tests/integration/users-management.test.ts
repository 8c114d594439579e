import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { accounts, activityEvents, auditLog, mailOutbox, sessions, users, verifications } from "~/.server/db/schema";
import {
  changeUserRole,
  createUser,
  deactivateUser,
  exportUsersCsv,
  getUserStats,
  listAuditLog,
  listUsers,
  reactivateUser,
  resendInvitation,
  usersMessages,
  type Actor,
} from "~/.server/users";
import type { Role } from "~/lib/roles";
import { refusalOf } from "../setup/refusal";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
const env = { PUBLIC_URL: "http://campus.test", NODE_ENV: "test" as const, LOG_LEVEL: "silent" as const };

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

type Made = { id: string; email: string; role: Role };

async function makeUser(values: {
  firstName: string;
  lastName: string;
  email?: string;
  role?: Role;
  createdAt?: Date;
  phone?: string | null;
  password?: boolean;
}): Promise<Made> {
  const id = randomUUID();
  const email = values.email ?? `${values.firstName}.${id.slice(0, 6)}@exemple.ml`.toLowerCase();
  await handle.db.insert(users).values({
    id,
    name: `${values.firstName} ${values.lastName}`,
    email,
    emailVerified: true,
    firstName: values.firstName,
    lastName: values.lastName,
    phone: values.phone ?? null,
    role: values.role ?? "user",
    createdAt: values.createdAt ?? new Date(),
  });
  if (values.password ?? true) {
    await handle.db.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: "x" });
  }
  return { id, email, role: values.role ?? "user" };
}

async function addSession(userId: string) {
  await handle.db.insert(sessions).values({ id: randomUUID(), token: randomUUID(), userId, expiresAt: new Date(Date.now() + 86_400_000) });
}

const asActor = (user: Made): Actor => ({ id: user.id, role: user.role });

let admin: Made;
let teacher: Made;
let student: Made;
const nobodies: Actor[] = [];

beforeEach(async () => {
  await handle.db.delete(auditLog);
  await handle.db.delete(mailOutbox);
  await handle.db.delete(users);
  admin = await makeUser({
    firstName: "Moussa",
    lastName: "Keïta",
    email: "admin@exemple.ml",
    role: "admin",
    createdAt: new Date("2024-01-10T10:00:00Z"),
  });
  teacher = await makeUser({
    firstName: "Fatoumata",
    lastName: "Diarra",
    email: "enseignant@exemple.ml",
    role: "teacher",
    createdAt: new Date("2024-02-10T10:00:00Z"),
  });
  student = await makeUser({
    firstName: "Awa",
    lastName: "Traoré",
    email: "awa@exemple.ml",
    role: "user",
    createdAt: new Date("2024-03-10T10:00:00Z"),
  });
  nobodies.length = 0;
  nobodies.push(asActor(teacher), asActor(student), { id: admin.id, role: null });
});

describe("authorization inside the capability", () => {
  it("refuses every function to non-admins, even with an admin's id", async () => {
    for (const actor of nobodies) {
      await expect(getUserStats(handle.db, actor)).rejects.toMatchObject({ code: "forbidden" });
      await expect(listUsers(handle.db, actor)).rejects.toMatchObject({ code: "forbidden" });
      await expect(changeUserRole(handle.db, actor, student.id, "admin")).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        createUser(handle.db, actor, { firstName: "A", lastName: "B", email: "a@b.ml", role: "admin" }, env),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(deactivateUser(handle.db, actor, admin.id)).rejects.toMatchObject({ code: "forbidden" });
      await expect(reactivateUser(handle.db, actor, admin.id)).rejects.toMatchObject({ code: "forbidden" });
      await expect(exportUsersCsv(handle.db, actor)).rejects.toMatchObject({ code: "forbidden" });
      await expect(listAuditLog(handle.db, actor)).rejects.toMatchObject({ code: "forbidden" });
    }
    const [row] = await handle.db.select().from(users).where(eq(users.id, student.id));
    expect(row?.role).toBe("user");
    expect(await handle.db.select().from(users).where(eq(users.email, "a@b.ml"))).toHaveLength(0);
    expect(await handle.db.select().from(auditLog)).toHaveLength(0);
  });
});

describe("getUserStats", () => {
  it("counts roles, new accounts of the month and deactivated accounts", async () => {
    const now = new Date("2024-03-20T12:00:00Z");
    await makeUser({ firstName: "Ibrahim", lastName: "Coulibaly", createdAt: new Date("2024-03-01T00:00:00Z") });
    await makeUser({ firstName: "Old", lastName: "Timer", createdAt: new Date("2024-02-29T23:59:59Z") });
    const gone = await makeUser({ firstName: "Gone", lastName: "User", role: "teacher", createdAt: new Date("2023-12-01T00:00:00Z") });
    await deactivateUser(handle.db, asActor(admin), gone.id);
    expect(await getUserStats(handle.db, asActor(admin), now)).toEqual({
      total: 6,
      students: 3,
      teachers: 2,
      admins: 1,
      newThisMonth: 2, // Awa (10 March) and Ibrahim (1 March)
      deactivated: 1,
    });
  });
});

describe("listUsers", () => {
  it("lists newest first with a status", async () => {
    const invited = await makeUser({
      firstName: "Nouvelle",
      lastName: "Recrue",
      password: false,
      createdAt: new Date("2024-04-01T00:00:00Z"),
    });
    const result = await listUsers(handle.db, asActor(admin));
    expect(result.users.map((user) => user.id)).toEqual([invited.id, student.id, teacher.id, admin.id]);
    expect(result.users[0]?.status).toBe("invited");
    expect(result.users[1]?.status).toBe("active");
    expect(result.total).toBe(4);
  });

  it("searches e-mail, first and last name case-insensitively, and the full name", async () => {
    const ids = async (q: string, role?: "all" | Role) =>
      (await listUsers(handle.db, asActor(admin), { q, role })).users.map((user) => user.id);
    expect(await ids("TRAORÉ")).toEqual([student.id]);
    expect(await ids("fatou")).toEqual([teacher.id]);
    expect(await ids("ADMIN@")).toEqual([admin.id]);
    expect(await ids("awa traoré")).toEqual([student.id]);
    expect(await ids("exemple.ml", "teacher")).toEqual([teacher.id]);
    expect(await ids("", "admin")).toEqual([admin.id]);
    expect(await ids("personne")).toEqual([]);
    // LIKE wildcards typed by the admin are literal characters.
    expect(await ids("%")).toEqual([]);
    expect(await ids("_")).toEqual([]);
  });

  it("pages by 50", async () => {
    for (let index = 0; index < 52; index += 1) await makeUser({ firstName: `Élève${index}`, lastName: "Test", password: false });
    const first = await listUsers(handle.db, asActor(admin), { page: 1 });
    const second = await listUsers(handle.db, asActor(admin), { page: 2 });
    const beyond = await listUsers(handle.db, asActor(admin), { page: 99 });
    expect(first.users).toHaveLength(50);
    expect(second.users).toHaveLength(5);
    expect(first.pageCount).toBe(2);
    expect(beyond.page).toBe(2);
    expect(beyond.users.map((user) => user.id)).toEqual(second.users.map((user) => user.id));
    expect(new Set([...first.users, ...second.users].map((user) => user.id)).size).toBe(55);
  });
});

describe("changeUserRole", () => {
  it("applies at once, audits who/what/from/to and tells the target's activity", async () => {
    const result = await changeUserRole(handle.db, asActor(admin), student.id, "teacher");
    expect(result).toEqual({ changed: true, from: "user", to: "teacher" });
    const [row] = await handle.db.select().from(users).where(eq(users.id, student.id));
    expect(row?.role).toBe("teacher");
    const audit = await handle.db.select().from(auditLog);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: admin.id,
      action: "role_changed",
      targetUserId: student.id,
      details: { from: "user", to: "teacher" },
    });
    expect(audit[0]?.createdAt).toBeInstanceOf(Date);
    const events = await handle.db.select().from(activityEvents).where(eq(activityEvents.userId, student.id));
    expect(events.map((event) => event.type)).toContain("role_changed");
    const entries = await listAuditLog(handle.db, asActor(admin));
    expect(entries[0]).toMatchObject({ actorName: "Moussa Keïta", targetName: "Awa Traoré", action: "role_changed" });
  });

  it("does nothing (no audit row) when the role is already the one asked, e.g. a double submit", async () => {
    await changeUserRole(handle.db, asActor(admin), student.id, "admin");
    const again = await changeUserRole(handle.db, asActor(admin), student.id, "admin");
    expect(again.changed).toBe(false);
    expect(await handle.db.select().from(auditLog)).toHaveLength(1);
  });

  it("refuses to take an admin's own admin role away, in French", async () => {
    await expect(changeUserRole(handle.db, asActor(admin), admin.id, "user")).rejects.toThrow(usersMessages.selfDemotion);
    expect(usersMessages.selfDemotion).toBe("Vous ne pouvez pas retirer votre propre rôle d'administrateur.");
    const [row] = await handle.db.select().from(users).where(eq(users.id, admin.id));
    expect(row?.role).toBe("admin");
    expect(await handle.db.select().from(auditLog)).toHaveLength(0);
    // Another admin may.
    const other = await makeUser({ firstName: "Seydou", lastName: "Sangaré", role: "admin" });
    await changeUserRole(handle.db, asActor(other), admin.id, "teacher");
    expect((await handle.db.select().from(users).where(eq(users.id, admin.id)))[0]?.role).toBe("teacher");
  });

  it("answers not_found for an unknown user", async () => {
    await expect(changeUserRole(handle.db, asActor(admin), "nope", "teacher")).rejects.toMatchObject({
      code: "not_found",
      message: usersMessages.notFound,
    });
  });
});

describe("createUser", () => {
  it("validates in French and keeps nothing on bad input", async () => {
    const refusal = await refusalOf(
      createUser(handle.db, asActor(admin), { firstName: " ", lastName: "", email: "pas-un-email", role: "superadmin" }, env),
    );
    expect(refusal).toMatchObject({
      code: "invalid",
      fieldErrors: {
        firstName: "Le prénom est obligatoire.",
        lastName: "Le nom est obligatoire.",
        email: expect.stringContaining("adresse e-mail valide"),
        role: "Choisissez un rôle valide.",
      },
    });
    expect(await handle.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("refuses a registered address whatever its case", async () => {
    const refusal = await refusalOf(
      createUser(handle.db, asActor(admin), { firstName: "Awa", lastName: "Bis", email: "  AWA@Exemple.ML ", role: "user" }, env),
    );
    expect(refusal).toMatchObject({ code: "conflict", fieldErrors: { email: "Un compte existe déjà avec cette adresse e-mail." } });
    expect(await handle.db.select().from(users).where(eq(users.email, "awa@exemple.ml"))).toHaveLength(1);
  });

  it("creates a password-less account and e-mails an invitation with a reset-password link", async () => {
    const result = await createUser(
      handle.db,
      asActor(admin),
      { firstName: " Boubacar ", lastName: "Cissé", email: "Boubacar.Cisse@Exemple.ML", role: "teacher" },
      env,
    );
    const [row] = await handle.db.select().from(users).where(eq(users.id, result.user.id));
    expect(row).toMatchObject({
      email: "boubacar.cisse@exemple.ml",
      firstName: "Boubacar",
      lastName: "Cissé",
      role: "teacher",
      emailVerified: true,
      banned: false,
    });
    expect(await handle.db.select().from(accounts).where(eq(accounts.userId, result.user.id))).toHaveLength(0);

    const [mail] = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, "boubacar.cisse@exemple.ml"));
    expect(mail?.subject).toMatch(/Votre compte/);
    expect(mail?.text).toContain("Bonjour Boubacar");
    expect(mail?.text).toContain("Enseignant");
    const link = mail?.text.match(/http:\/\/campus\.test\/auth\?mode=recuperation&token=([A-Za-z0-9]+)/);
    expect(link).not.toBeNull();
    const [token] = await handle.db
      .select()
      .from(verifications)
      .where(eq(verifications.identifier, `reset-password:${link![1]}`));
    expect(token?.value).toBe(result.user.id);
    expect(token!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.targetUserId, result.user.id));
    expect(audit[0]).toMatchObject({ action: "user_created", actorId: admin.id, details: { role: "teacher" } });
    const listed = await listUsers(handle.db, asActor(admin), { q: "boubacar" });
    expect(listed.users[0]?.status).toBe("invited");
  });

  it("sends a fresh invitation on demand and invalidates the previous link", async () => {
    const result = await createUser(
      handle.db,
      asActor(admin),
      { firstName: "Kadi", lastName: "Sow", email: "kadi@exemple.ml", role: "user" },
      env,
    );
    expect(await resendInvitation(handle.db, asActor(admin), result.user.id, env)).toEqual({ sent: true });
    const tokens = await handle.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.value, result.user.id), like(verifications.identifier, "reset-password:%")));
    expect(tokens).toHaveLength(1);
    expect(await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, "kadi@exemple.ml"))).toHaveLength(2);
    // Someone who already has a password gets no invitation.
    expect(await resendInvitation(handle.db, asActor(admin), student.id, env)).toEqual({ sent: false });
  });
});

describe("deactivateUser / reactivateUser", () => {
  it("bans the account and ends its sessions in one go", async () => {
    await addSession(student.id);
    await addSession(student.id);
    await addSession(teacher.id);
    const result = await deactivateUser(handle.db, asActor(admin), student.id);
    expect(result).toEqual({ changed: true, sessionsEnded: 2 });
    const [row] = await handle.db.select().from(users).where(eq(users.id, student.id));
    expect(row?.banned).toBe(true);
    expect(row?.bannedAt).toBeInstanceOf(Date);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, student.id))).toHaveLength(0);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, teacher.id))).toHaveLength(1);
    expect((await handle.db.select().from(auditLog))[0]).toMatchObject({ action: "user_deactivated", targetUserId: student.id });
    const listed = await listUsers(handle.db, asActor(admin), { q: "awa" });
    expect(listed.users[0]?.status).toBe("deactivated");

    expect(await reactivateUser(handle.db, asActor(admin), student.id)).toEqual({ changed: true });
    const [back] = await handle.db.select().from(users).where(eq(users.id, student.id));
    expect(back).toMatchObject({ banned: false, bannedAt: null });
    expect(await reactivateUser(handle.db, asActor(admin), student.id)).toEqual({ changed: false });
  });

  it("refuses to deactivate oneself", async () => {
    await addSession(admin.id);
    await expect(deactivateUser(handle.db, asActor(admin), admin.id)).rejects.toThrow("Vous ne pouvez pas désactiver votre propre compte.");
    expect((await handle.db.select().from(users).where(eq(users.id, admin.id)))[0]?.banned).toBe(false);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, admin.id))).toHaveLength(1);
  });
});

describe("the last active admin", () => {
  const activeAdmins = async () =>
    (await handle.db.select({ id: users.id, role: users.role, banned: users.banned }).from(users)).filter(
      (row) => row.role === "admin" && !row.banned,
    );

  it("two admins demoting each other at the same moment: one is refused in French, one admin remains", async () => {
    const other = await makeUser({ firstName: "Seydou", lastName: "Sangaré", role: "admin" });
    const results = await Promise.allSettled([
      changeUserRole(handle.db, asActor(admin), other.id, "user"),
      changeUserRole(handle.db, asActor(other), admin.id, "teacher"),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "conflict",
      reason: "last_admin",
      message: usersMessages.lastAdmin,
    });
    expect(usersMessages.lastAdmin).toBe("Il doit toujours rester au moins un administrateur actif.");
    expect(await activeAdmins()).toHaveLength(1);
    expect(await handle.db.select().from(auditLog)).toHaveLength(1);
  });

  it("two admins deactivating each other, or one demoting while the other deactivates: one is refused", async () => {
    const other = await makeUser({ firstName: "Seydou", lastName: "Sangaré", role: "admin" });
    const deactivations = await Promise.allSettled([
      deactivateUser(handle.db, asActor(admin), other.id),
      deactivateUser(handle.db, asActor(other), admin.id),
    ]);
    expect(deactivations.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await activeAdmins()).toHaveLength(1);

    await handle.db.update(users).set({ banned: false, bannedAt: null });
    const mixed = await Promise.allSettled([
      changeUserRole(handle.db, asActor(admin), other.id, "user"),
      deactivateUser(handle.db, asActor(other), admin.id),
    ]);
    expect(mixed.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(mixed.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "conflict", reason: "last_admin" } });
    expect(await activeAdmins()).toHaveLength(1);
  });

  it("refuses a demoted admin acting on an old session, and neither an invited nor a deactivated admin counts", async () => {
    const other = await makeUser({ firstName: "Seydou", lastName: "Sangaré", role: "admin" });
    await changeUserRole(handle.db, asActor(admin), other.id, "user");
    // `other` still carries role "admin" (a session read before the change).
    await expect(changeUserRole(handle.db, asActor(other), admin.id, "user")).rejects.toMatchObject({
      code: "conflict",
      reason: "last_admin",
    });
    await expect(deactivateUser(handle.db, asActor(other), admin.id)).rejects.toMatchObject({ code: "conflict", reason: "last_admin" });

    const invited = await makeUser({ firstName: "Kadiatou", lastName: "Coulibaly", role: "admin", password: false });
    const banned = await makeUser({ firstName: "Oumar", lastName: "Touré", role: "admin" });
    await deactivateUser(handle.db, asActor(admin), banned.id);
    await expect(changeUserRole(handle.db, asActor(invited), admin.id, "teacher")).rejects.toMatchObject({
      code: "conflict",
      reason: "last_admin",
    });
    const [row] = await handle.db.select().from(users).where(eq(users.id, admin.id));
    expect(row).toMatchObject({ role: "admin", banned: false });
    // With a second active admin, the same change goes through; demoting a non-active admin always does.
    await changeUserRole(handle.db, asActor(admin), invited.id, "teacher");
    await changeUserRole(handle.db, asActor(admin), other.id, "admin");
    await expect(changeUserRole(handle.db, asActor(other), admin.id, "teacher")).resolves.toMatchObject({ changed: true });
  });
});

describe("exportUsersCsv", () => {
  it("writes the spec's columns in French, quoted, BOM first, formulas neutralized", async () => {
    await makeUser({
      firstName: '=HYPERLINK("http://x")',
      lastName: "Dembélé, fils",
      email: "evil@exemple.ml",
      phone: "+223 70 12 34 56",
      createdAt: new Date("2024-03-15T09:00:00Z"),
    });
    const gone = await makeUser({ firstName: "Ancien", lastName: "Compte", role: "teacher", createdAt: new Date("2024-01-05T00:00:00Z") });
    await deactivateUser(handle.db, asActor(admin), gone.id);
    const now = new Date("2024-05-06T08:00:00Z");
    const result = await exportUsersCsv(handle.db, asActor(admin), {}, now);
    expect(result.filename).toBe("utilisateurs-2024-05-06.csv");
    expect(result.body.startsWith("\uFEFF")).toBe(true);
    const lines = result.body.slice(1).split("\r\n");
    expect(lines[0]).toBe("Prénom;Nom;E-mail;Téléphone;Rôle;Statut;Date d'inscription");
    expect(lines).toContain('"\'=HYPERLINK(""http://x"")";"Dembélé, fils";evil@exemple.ml;\'+223 70 12 34 56;Étudiant;Actif;15/03/2024');
    expect(lines).toContain("Ancien;Compte;" + gone.email + ";;Enseignant;Désactivé;05/01/2024");
    expect(lines).toContain("Moussa;Keïta;admin@exemple.ml;;Administrateur;Actif;10/01/2024");
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(1 + 5 + 1);

    const filtered = await exportUsersCsv(handle.db, asActor(admin), { role: "teacher" }, now);
    expect(filtered.count).toBe(2);
  });
});

describe("with Better Auth", () => {
  const headers = new Headers({ "x-campus-client-ip": "10.9.9.9" });
  const authFor = async () => {
    const { createCampusAuth } = await import("~/.server/auth/express");
    return createCampusAuth({ db: handle.db, env: { DATA_DIR: "memory://", PUBLIC_URL: env.PUBLIC_URL } }).auth;
  };

  it("lets an invited person choose a password through the link, once, then sign in", async () => {
    const auth = await authFor();
    const created = await createUser(
      handle.db,
      asActor(admin),
      { firstName: "Mariam", lastName: "Konaté", email: "mariam@exemple.ml", role: "teacher" },
      env,
    );
    const [mail] = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, "mariam@exemple.ml"));
    const token = decodeURIComponent(mail!.text.match(/token=([^\s&]+)/)![1]!);
    // No password yet: signing in is impossible.
    await expect(
      auth.api.signInEmail({ body: { email: "mariam@exemple.ml", password: "n'importe-quoi-1" }, headers }),
    ).rejects.toBeTruthy();
    await auth.api.resetPassword({ body: { token, newPassword: "Baobab-du-fleuve-Niger" }, headers });
    const signedIn = await auth.api.signInEmail({ body: { email: "mariam@exemple.ml", password: "Baobab-du-fleuve-Niger" }, headers });
    expect(signedIn.user.id).toBe(created.user.id);
    // The link works once.
    await expect(auth.api.resetPassword({ body: { token, newPassword: "Autre-mot-de-passe-99" }, headers })).rejects.toBeTruthy();
    const listed = await listUsers(handle.db, asActor(admin), { q: "mariam" });
    expect(listed.users[0]?.status).toBe("active");
  });

  it("refuses sign-in to a deactivated account, and lets it back in once reactivated", async () => {
    const auth = await authFor();
    const created = await createUser(
      handle.db,
      asActor(admin),
      { firstName: "Oumar", lastName: "Sidibé", email: "oumar@exemple.ml", role: "user" },
      env,
    );
    const [mail] = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, "oumar@exemple.ml"));
    const token = decodeURIComponent(mail!.text.match(/token=([^\s&]+)/)![1]!);
    await auth.api.resetPassword({ body: { token, newPassword: "Baobab-du-fleuve-Niger" }, headers });
    await auth.api.signInEmail({ body: { email: "oumar@exemple.ml", password: "Baobab-du-fleuve-Niger" }, headers });
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, created.user.id))).toHaveLength(1);

    await deactivateUser(handle.db, asActor(admin), created.user.id);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, created.user.id))).toHaveLength(0);
    await expect(
      auth.api.signInEmail({ body: { email: "oumar@exemple.ml", password: "Baobab-du-fleuve-Niger" }, headers }),
    ).rejects.toMatchObject({
      status: "FORBIDDEN",
    });
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, created.user.id))).toHaveLength(0);

    await reactivateUser(handle.db, asActor(admin), created.user.id);
    const back = await auth.api.signInEmail({ body: { email: "oumar@exemple.ml", password: "Baobab-du-fleuve-Niger" }, headers });
    expect(back.user.id).toBe(created.user.id);
  });
});
