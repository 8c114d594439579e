import { desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { activityEvents } from "../db/schema";

export const activityTypes = [
  "sign_in",
  "sign_out",
  "profile_updated",
  "password_changed",
  "password_reset",
  "email_verified",
  "two_factor_enabled",
  "two_factor_disabled",
  "session_revoked",
  "role_changed",
  "account_deactivated",
  "account_reactivated",
  "account_created",
] as const;
export type ActivityType = (typeof activityTypes)[number];

/** French wording of each event, for the profile's "Activité" tab. */
export const activityLabels: Record<ActivityType, string> = {
  sign_in: "Connexion",
  sign_out: "Déconnexion",
  profile_updated: "Profil mis à jour",
  password_changed: "Mot de passe modifié",
  password_reset: "Mot de passe réinitialisé",
  email_verified: "Adresse email confirmée",
  two_factor_enabled: "Double authentification activée",
  two_factor_disabled: "Double authentification désactivée",
  session_revoked: "Session révoquée",
  role_changed: "Rôle modifié",
  account_deactivated: "Compte désactivé",
  account_reactivated: "Compte réactivé",
  account_created: "Compte créé",
};

export interface ActivityInput {
  userId: string;
  type: ActivityType;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown> | null;
  createdAt?: Date;
}

/** Records one event in the user's activity log. */
export async function recordActivity(db: Database, input: ActivityInput) {
  const [row] = await db
    .insert(activityEvents)
    .values({
      userId: input.userId,
      type: input.type,
      ipAddress: input.ipAddress ?? null,
      userAgent: input.userAgent ? input.userAgent.slice(0, 512) : null,
      details: input.details ?? null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  return row!;
}

export type ActivityEvent = typeof activityEvents.$inferSelect;

/** The user's latest events, newest first. */
export async function listRecentActivity(db: Database, userId: string, limit = 20): Promise<ActivityEvent[]> {
  return db
    .select()
    .from(activityEvents)
    .where(eq(activityEvents.userId, userId))
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(Math.max(1, Math.min(limit, 200)));
}
