import { activityLabels, listRecentActivity, type ActivityEvent, type ActivityType } from "../activity";
import type { Database } from "../db/client";
import { describeDevice } from "../auth";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { isRole, roleLabels } from "~/lib/roles";

export interface ActivityEntry {
  id: number;
  type: string;
  label: string;
  /** "il y a 5 minutes", then the date. */
  when: string;
  /** "12 mars 2026 à 14:05". */
  at: string;
  iso: string;
  detail: string | null;
}

const fieldLabels: Record<string, string> = { firstName: "prénom", lastName: "nom", phone: "téléphone" };
const signInMethods: Record<string, string> = {
  password: "par mot de passe",
  google: "avec Google",
  two_factor: "avec un code de vérification",
  email_verification: "par le lien de confirmation",
};

function detailOf(event: ActivityEvent): string | null {
  const details = (event.details ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  switch (event.type) {
    case "sign_in": {
      const method = typeof details.method === "string" ? signInMethods[details.method] : undefined;
      if (method) parts.push(`Connexion ${method}`);
      break;
    }
    case "profile_updated": {
      const fields = Array.isArray(details.fields) ? details.fields.map((field) => fieldLabels[String(field)] ?? String(field)) : [];
      parts.push(fields.length > 0 ? `Champs modifiés : ${fields.join(", ")}` : "Aucun changement");
      break;
    }
    case "role_changed": {
      const from = isRole(details.from) ? roleLabels[details.from] : null;
      const to = isRole(details.to) ? roleLabels[details.to] : null;
      if (from && to) parts.push(`${from} → ${to}`);
      break;
    }
    case "session_revoked": {
      if (typeof details.device === "string") parts.push(`Appareil : ${details.device}`);
      break;
    }
  }
  if (event.userAgent && event.type !== "session_revoked") parts.push(describeDevice(event.userAgent));
  if (event.ipAddress && event.ipAddress !== "unknown") parts.push(`IP ${event.ipAddress}`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The acting user's recent events, in French, ready to show. */
export async function listActivityEntries(db: Database, userId: string, limit = 30, now = new Date()): Promise<ActivityEntry[]> {
  const events = await listRecentActivity(db, userId, limit);
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    label: activityLabels[event.type as ActivityType] ?? event.type,
    when: formatRelative(event.createdAt, now),
    at: formatDateTime(event.createdAt),
    iso: event.createdAt.toISOString(),
    detail: detailOf(event),
  }));
}
