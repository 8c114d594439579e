import type { Database } from "../db/client";
import { auditLog } from "../db/schema";

export interface AuditEntryInput {
  /** The administrator who acted. */
  actorId: string;
  /** snake_case: "role_changed", "contact_replied", "enrolment_paused"... (described in app/components/admin/audit-log.tsx). */
  action: string;
  /** The account the action concerns, if any. */
  targetUserId?: string | null;
  details?: Record<string, unknown>;
  createdAt?: Date;
}

/** One line of the administrators' audit log; pass the transaction of the change it records. */
export async function recordAudit(db: Database, entry: AuditEntryInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetUserId: entry.targetUserId ?? null,
    details: entry.details ?? {},
    ...(entry.createdAt ? { createdAt: entry.createdAt } : {}),
  });
}
