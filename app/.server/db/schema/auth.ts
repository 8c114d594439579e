/**
 * Owner: the auth capability (app/.server/auth), through Better Auth's adapter and its own
 * account operations (createAccount, profile, roles, sessions): others call it.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Better Auth's tables (user, session, account, verification, two-factor, rate limit), read and
 * written through its Drizzle adapter (app/.server/auth/auth.ts maps model names to these
 * tables). Property names are what Better Auth expects; SQL names are snake_case.
 */

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Display name kept for Better Auth ("Prénom Nom"); firstName and lastName are authoritative. */
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    phone: text("phone"),
    /** "admin" | "teacher" | "user" (see app/lib/roles.ts). Never set from user input. */
    role: text("role").notNull().default("user"),
    /** A deactivated account cannot sign in and its sessions end. */
    banned: boolean("banned").notNull().default(false),
    bannedAt: timestamp("banned_at", { withTimezone: true }),
    /**
     * Set when the person deleted their account: the row stays, anonymised, because payments and
     * certificates are kept (docs/decisions/0045-account-deletion.md); it can never sign in again.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** "Économie de données": videos in low quality and nothing loaded before play. */
    dataSaver: boolean("data_saver").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    // createAccount looks the address up case-insensitively before every sign-up.
    index("users_email_lower_idx").on(sql`lower(${table.email})`),
    // Sign-ups per period and month (admin dashboard, analytics), the users list newest first.
    index("users_created_idx").on(table.createdAt, table.id),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [index("two_factors_user_id_idx").on(table.userId), index("two_factors_secret_idx").on(table.secret)],
);

/** Better Auth's per-IP limiter (rateLimit.storage = "database"), shared by every process. */
export const authRateLimits = pgTable("auth_rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
