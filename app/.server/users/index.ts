import { and, count, desc, eq, ilike, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { formatNumericDate, isoDay, startOfMonth } from "~/lib/dates";
import { isRole, roleLabels, type Role } from "~/lib/roles";
import type { Database } from "../db/client";
import { readPage } from "../db/paging";
import { recordActivity, type ActivityType } from "../activity";
import { recordAudit } from "../audit";
import { containsText } from "../db/like";
import { accounts, auditLog, sessions, users, verifications } from "../db/schema";
import { toCsv } from "../http/csv";
import type { Actor } from "../auth/actor";
import { createAccount, newAccountId, randomAlphanumeric } from "../auth";
import { AppError, validate } from "../errors";
import { assertCanManageUsers, assertNotSelfDeactivation, assertNotSelfDemotion, removesAdmin, usersMessages } from "./policy";
import { sendInvitationMail, type InvitationEnv } from "./invitation";
import { newUserSchema, type NewUserInput, type UserFilters } from "./schemas";

export { canManageUsers, usersMessages } from "./policy";

export type { Actor } from "../auth/actor";

export type UserStatus = "active" | "invited" | "deactivated";

export const statusLabels: Record<UserStatus, string> = {
  active: "Actif",
  invited: "Invitation envoyée",
  deactivated: "Désactivé",
};

export const PAGE_SIZE = 50;
/** An invitation link stays valid for a week (a password reset link for an hour). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

export type UserStats = {
  total: number;
  students: number;
  teachers: number;
  admins: number;
  newThisMonth: number;
  deactivated: number;
};

/** The five stat cards, counted in one query (plus the deactivated accounts shown under the total). */
export async function getUserStats(db: Database, actor: Actor, now = new Date()): Promise<UserStats> {
  assertCanManageUsers(actor);
  const [row] = await db
    .select({
      total: count(),
      students: count(sql`case when ${users.role} = 'user' then 1 end`),
      teachers: count(sql`case when ${users.role} = 'teacher' then 1 end`),
      admins: count(sql`case when ${users.role} = 'admin' then 1 end`),
      newThisMonth: count(sql`case when ${users.createdAt} >= ${startOfMonth(now).toISOString()} then 1 end`),
      deactivated: count(sql`case when ${users.banned} then 1 end`),
    })
    .from(users);
  return {
    total: Number(row?.total ?? 0),
    students: Number(row?.students ?? 0),
    teachers: Number(row?.teachers ?? 0),
    admins: Number(row?.admins ?? 0),
    newThisMonth: Number(row?.newThisMonth ?? 0),
    deactivated: Number(row?.deactivated ?? 0),
  };
}

function filterConditions(filters: Partial<UserFilters>): SQL | undefined {
  const conditions: SQL[] = [];
  const q = filters.q?.trim();
  if (q) {
    // "Awa Traoré" finds Awa Traoré too.
    conditions.push(containsText(q, users.email, users.firstName, users.lastName, sql`${users.firstName} || ' ' || ${users.lastName}`));
  }
  if (isRole(filters.role)) conditions.push(eq(users.role, filters.role));
  return conditions.length ? and(...conditions) : undefined;
}

// Spelled out: in a one-table select Drizzle leaves column names unqualified, and "id" inside the
// subquery would then mean accounts.id.
const hasSignInMethod = sql<boolean>`exists (select 1 from "accounts" as "a" where "a"."user_id" = "users"."id")`;

const listColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phone: users.phone,
  role: users.role,
  banned: users.banned,
  emailVerified: users.emailVerified,
  createdAt: users.createdAt,
  hasSignInMethod,
};

type ListedRow = {
  [K in keyof typeof listColumns]: K extends "hasSignInMethod" ? boolean : (typeof users.$inferSelect)[K & keyof typeof users.$inferSelect];
};

export type ListedUser = Omit<ListedRow, "hasSignInMethod" | "role"> & { role: Role; status: UserStatus };

function toListedUser({ hasSignInMethod: hasMethod, ...row }: ListedRow): ListedUser {
  const status: UserStatus = row.banned ? "deactivated" : hasMethod ? "active" : "invited";
  return { ...row, role: row.role as Role, status };
}

/** Search (e-mail, first or last name, case-insensitive), role filter, newest first, by pages of 50. */
export async function listUsers(db: Database, actor: Actor, filters: Partial<UserFilters> = {}) {
  assertCanManageUsers(actor);
  const where = filterConditions(filters);
  const { rows, total, page, pageCount } = await readPage({
    asked: filters.page,
    size: PAGE_SIZE,
    count: () => db.select({ total: count() }).from(users).where(where),
    rows: (offset) =>
      db.select(listColumns).from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(PAGE_SIZE).offset(offset),
  });
  return { users: rows.map(toListedUser), total, page, pageCount };
}

async function lockTarget(tx: Database, userId: string) {
  const [target] = await tx
    .select({ id: users.id, role: users.role, banned: users.banned, email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!target) throw AppError.notFound(usersMessages.notFound);
  // Its holder deleted it: it stays only to hold payments and certificates (decision 0045).
  if (target.deletedAt) throw AppError.conflict(usersMessages.deletedAccount, "deleted_account");
  return target;
}

/**
 * Refuses to take away the last active administrator (not deactivated, with a way to sign in).
 * The active administrators' rows are locked first, in id order (so concurrent calls queue instead
 * of deadlocking), before the target: of two admins demoting or deactivating each other at the same
 * moment, the second finds the first's change once the lock is released (PostgreSQL re-reads a
 * row it waited for) and is refused.
 */
async function assertNotLastActiveAdmin(tx: Database, targetId: string) {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.banned, false), hasSignInMethod))
    .orderBy(users.id)
    .for("update");
  if (admins.length <= 1 && admins.some((row) => row.id === targetId)) throw AppError.conflict(usersMessages.lastAdmin, "last_admin");
}

async function recordTargetActivity(tx: Database, userId: string, type: ActivityType, details: Record<string, unknown>) {
  await recordActivity(tx, { userId, type, details });
}

/**
 * Applies a role at once, with an audit row (who, from, to, when) and an event in the target's
 * activity. An admin cannot take their own admin role away, nor the last active admin's; setting
 * the same role changes nothing.
 */
export async function changeUserRole(db: Database, actor: Actor, userId: string, role: Role) {
  assertCanManageUsers(actor);
  return db.transaction(async (tx) => {
    assertNotSelfDemotion(actor, userId, role);
    if (removesAdmin(role)) await assertNotLastActiveAdmin(tx, userId);
    const target = await lockTarget(tx, userId);
    const from = target.role as Role;
    if (from === role) return { changed: false as const, from, to: role };
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, { actorId: actor.id, action: "role_changed", targetUserId: userId, details: { from, to: role } });
    await recordTargetActivity(tx, userId, "role_changed", { from, to: role, byAdmin: true });
    return { changed: true as const, from, to: role };
  });
}

/**
 * Ends an account: it can no longer sign in, and every session it has ends in the same transaction.
 * Neither one's own account nor the last active admin's.
 */
export async function deactivateUser(db: Database, actor: Actor, userId: string) {
  assertCanManageUsers(actor);
  return db.transaction(async (tx) => {
    assertNotSelfDeactivation(actor, userId);
    await assertNotLastActiveAdmin(tx, userId);
    const target = await lockTarget(tx, userId);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    if (target.banned) return { changed: false as const, sessionsEnded: ended.length };
    await tx.update(users).set({ banned: true, bannedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, {
      actorId: actor.id,
      action: "user_deactivated",
      targetUserId: userId,
      details: { sessionsEnded: ended.length },
    });
    await recordTargetActivity(tx, userId, "account_deactivated", { byAdmin: true });
    return { changed: true as const, sessionsEnded: ended.length };
  });
}

export async function reactivateUser(db: Database, actor: Actor, userId: string) {
  assertCanManageUsers(actor);
  return db.transaction(async (tx) => {
    const target = await lockTarget(tx, userId);
    if (!target.banned) return { changed: false as const };
    await tx.update(users).set({ banned: false, bannedAt: null, updatedAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, { actorId: actor.id, action: "user_reactivated", targetUserId: userId });
    await recordTargetActivity(tx, userId, "account_reactivated", { byAdmin: true });
    return { changed: true as const };
  });
}

/**
 * A password-setting token in Better Auth's reset-password format (identifier
 * "reset-password:<token>", value = user id): the link opens /auth in recovery mode, whose form
 * posts it to Better Auth's own reset endpoint, which creates the credential account.
 */
async function createInvitationToken(tx: Database, userId: string, now: Date) {
  const token = randomAlphanumeric(24);
  await tx.insert(verifications).values({
    id: newAccountId(),
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
    createdAt: now,
    updatedAt: now,
  });
  return token;
}

/**
 * The "Nouvel utilisateur" dialog: an account without a password (created the one way accounts
 * are, auth's `createAccount`), its e-mail marked verified (the invitation is sent to that address
 * and is the only way in), and an invitation mail whose link lets the person choose a password.
 * Bad input is an AppError "invalid"; an address already taken, a conflict on the e-mail field.
 */
export async function createUser(db: Database, actor: Actor, input: unknown, env: InvitationEnv) {
  assertCanManageUsers(actor);
  const data: NewUserInput = validate(newUserSchema, input);
  const now = new Date();
  const created = await db.transaction(async (tx) => {
    const { id } = await createAccount(tx as unknown as Database, { ...data, emailVerified: true }, now);
    const token = await createInvitationToken(tx as unknown as Database, id, now);
    await recordAudit(tx, { actorId: actor.id, action: "user_created", targetUserId: id, details: { email: data.email, role: data.role } });
    await recordTargetActivity(tx, id, "account_created", { role: data.role, byAdmin: true });
    return { id, token };
  });
  await sendInvitationMail(db, env, { to: data.email, firstName: data.firstName, role: data.role, token: created.token });
  return { user: { id: created.id, email: data.email, firstName: data.firstName, lastName: data.lastName, role: data.role } };
}

/** A new invitation for an account that has not set a password yet (the old link stops working). */
export async function resendInvitation(db: Database, actor: Actor, userId: string, env: InvitationEnv) {
  assertCanManageUsers(actor);
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const target = await lockTarget(tx, userId);
    const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, userId)).limit(1);
    if (account || target.banned) return null;
    const [profile] = await tx.select({ firstName: users.firstName, role: users.role }).from(users).where(eq(users.id, userId));
    await tx.delete(verifications).where(and(eq(verifications.value, userId), ilike(verifications.identifier, "reset-password:%")));
    const token = await createInvitationToken(tx, userId, now);
    await recordAudit(tx, { actorId: actor.id, action: "invitation_resent", targetUserId: userId });
    return { email: target.email, firstName: profile?.firstName ?? "", role: (profile?.role ?? "user") as Role, token };
  });
  if (!result) return { sent: false as const };
  await sendInvitationMail(db, env, { to: result.email, firstName: result.firstName, role: result.role, token: result.token });
  return { sent: true as const };
}

export const CSV_HEADER = ["Prénom", "Nom", "E-mail", "Téléphone", "Rôle", "Statut", "Date d'inscription"] as const;

/** The users CSV (same filters as the list, every page), named utilisateurs-YYYY-MM-DD.csv. */
export async function exportUsersCsv(db: Database, actor: Actor, filters: Partial<UserFilters> = {}, now = new Date()) {
  assertCanManageUsers(actor);
  const rows = await db.select(listColumns).from(users).where(filterConditions(filters)).orderBy(desc(users.createdAt), desc(users.id));
  const body = toCsv(
    CSV_HEADER,
    rows.map((raw) => {
      const row = toListedUser(raw as ListedRow);
      return [
        row.firstName,
        row.lastName,
        row.email,
        row.phone,
        roleLabels[row.role] ?? row.role,
        statusLabels[row.status],
        formatNumericDate(row.createdAt),
      ];
    }),
  );
  await recordAudit(db, {
    actorId: actor.id,
    action: "users_exported",
    details: { count: rows.length, q: filters.q ?? "", role: filters.role ?? "all" },
  });
  return { filename: `utilisateurs-${isoDay(now)}.csv`, body, count: rows.length };
}

export type AuditEntry = Awaited<ReturnType<typeof listAuditLog>>[number];

/** The latest admin actions, with the names of who did them and to whom. */
export async function listAuditLog(db: Database, actor: Actor, limit = 20) {
  assertCanManageUsers(actor);
  const actorUser = alias(users, "actor_user");
  const targetUser = alias(users, "target_user");
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      actorId: auditLog.actorId,
      targetUserId: auditLog.targetUserId,
      actorName: sql<string | null>`${actorUser.firstName} || ' ' || ${actorUser.lastName}`,
      targetName: sql<string | null>`${targetUser.firstName} || ' ' || ${targetUser.lastName}`,
      targetEmail: targetUser.email,
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(Math.max(1, Math.min(limit, 200)));
}
