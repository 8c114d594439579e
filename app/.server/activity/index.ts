import { desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { activityEvents } from "../db/schema";
import { notifyUser } from "../notifications";

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
  email_verified: "Adresse e-mail confirmée",
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

/**
 * The account changes the person is told of (the bell, and always an e-mail): if it was not them,
 * they learn it at once.
 */
const accountNotices: Partial<Record<ActivityType, { title: string; body: string }>> = {
  password_changed: { title: "Mot de passe modifié", body: "Le mot de passe de votre compte vient d'être modifié." },
  password_reset: { title: "Mot de passe réinitialisé", body: "Le mot de passe de votre compte vient d'être réinitialisé." },
  two_factor_enabled: { title: "Double authentification activée", body: "La double authentification protège désormais votre compte." },
  two_factor_disabled: {
    title: "Double authentification désactivée",
    body: "La double authentification de votre compte vient d'être désactivée.",
  },
  role_changed: { title: "Rôle modifié", body: "Un administrateur a modifié le rôle de votre compte." },
  account_reactivated: { title: "Compte réactivé", body: "Un administrateur a réactivé votre compte." },
};

const IF_NOT_YOU = " Si vous n'êtes pas à l'origine de ce changement, contactez l'institut et changez votre mot de passe.";

/** Records one event in the user's activity log; an account change also notifies them (in the same transaction when given one). */
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
  const notice = accountNotices[input.type];
  if (notice) {
    const byAdmin = input.type === "role_changed" || input.type === "account_reactivated";
    await notifyUser(db, {
      userId: input.userId,
      kind: "account_changed",
      title: notice.title,
      body: byAdmin ? notice.body : `${notice.body}${IF_NOT_YOU}`,
      link: "/dashboard/profile?onglet=activite",
      key: `activity:${row!.id}`,
      now: input.createdAt,
    });
  }
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

/** A deleted account's log goes with it: addresses and devices are personal data kept for no one. */
export async function forgetActivityOf(tx: Database, userId: string): Promise<void> {
  await tx.delete(activityEvents).where(eq(activityEvents.userId, userId));
}
