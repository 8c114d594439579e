/**
 * Owner: the audit service (app/.server/audit, `recordAudit`): what administrators did, written by
 * each capability in the transaction of the change; the users capability lists it.
 */
import { index, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * What administrators did to accounts (role changes, creations, deactivations): who, what, to
 * whom, when, with the details (for a role change: from and to). Rows outlive the accounts they
 * name: ids are kept as text and set to null when an account is deleted.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetUserId: text("target_user_id").references(() => users.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("audit_log_created_idx").on(table.createdAt), index("audit_log_target_idx").on(table.targetUserId, table.createdAt)],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
