import { eq } from "drizzle-orm";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { AppError, validate } from "../errors";
import { parsePhone } from "~/lib/phone";
import { isRole, type Role } from "~/lib/roles";
import { profileMessages, profileUpdateSchema, type ProfileField } from "./schema";

export { profileMessages, profileUpdateSchema } from "./schema";
export { listActivityEntries, type ActivityEntry } from "./activity";
export { accountDeletionMessages, deleteOwnAccount, type AccountDeletion } from "./account-deletion";
export { canDeleteOwnAccount } from "./policy";

/** Who is acting: only the id counts; a profile is always the acting user's own. */
export interface ProfileActor {
  id: string;
}

export interface Profile {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  /** null when the stored role is unknown (counts as none). */
  role: Role | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  /** "Économie de données": videos in low quality, nothing loaded before play. */
  dataSaver: boolean;
  createdAt: Date;
}

const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  role: users.role,
  emailVerified: users.emailVerified,
  twoFactorEnabled: users.twoFactorEnabled,
  dataSaver: users.dataSaver,
  createdAt: users.createdAt,
};

/**
 * Turns "Économie de données" on or off for the acting user only. Pages read it with the session:
 * the change of the users row tells every process's session cache to read it again (drizzle/0004).
 */
export async function setDataSaver(db: Database, actor: ProfileActor, on: boolean, now = new Date()): Promise<void> {
  await db.update(users).set({ dataSaver: on, updatedAt: now }).where(eq(users.id, actor.id));
}

/** The acting user's own profile, or null if the account no longer exists. */
export async function getProfile(db: Database, actor: ProfileActor): Promise<Profile | null> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, actor.id)).limit(1);
  if (!row) return null;
  return { ...row, role: isRole(row.role) ? row.role : null };
}

export type ProfileFormValues = { firstName: string; lastName: string; phone: string };

/** What was typed, as text, to send back beside the messages when the form is refused. */
export function profileFormValues(input: Record<string, unknown>): ProfileFormValues {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return { firstName: text(input.firstName), lastName: text(input.lastName), phone: text(input.phone) };
}

/**
 * Updates the acting user's first name, last name and phone (stored in E.164); nothing else can
 * be changed here (e-mail, role and any id in the input are ignored: the row updated is always
 * `actor.id`). Records a "profile_updated" activity naming the changed fields, in the same
 * transaction. Bad input is an AppError "invalid" with a French message per field.
 */
export async function updateProfile(
  db: Database,
  actor: ProfileActor,
  input: Record<string, unknown>,
  meta: { ipAddress?: string | null; userAgent?: string | null } = {},
): Promise<{ profile: Profile; changed: ProfileField[] }> {
  const next = validate(profileUpdateSchema, profileFormValues(input), profileMessages.updateFailed);

  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, phone: users.phone })
      .from(users)
      .where(eq(users.id, actor.id))
      .for("update");
    if (!current) throw AppError.notFound(profileMessages.loadFailed);
    // A number stored before E.164 ("+223 76 12 34 56") is the same number, not a change.
    const stored = { ...current, phone: current.phone && (parsePhone(current.phone)?.e164 ?? current.phone) };
    const changed = (Object.keys(next) as ProfileField[]).filter((field) => (stored[field] ?? null) !== next[field]);
    await tx
      .update(users)
      .set({
        firstName: next.firstName,
        lastName: next.lastName,
        phone: next.phone,
        name: `${next.firstName} ${next.lastName}`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, actor.id));
    await recordActivity(tx as unknown as Database, {
      userId: actor.id,
      type: "profile_updated",
      ipAddress: meta.ipAddress ?? null,
      userAgent: meta.userAgent ?? null,
      details: { fields: changed },
    });
    const profile = await getProfile(tx as unknown as Database, actor);
    return { profile: profile!, changed };
  });
}
