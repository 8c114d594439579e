import { eq } from "drizzle-orm";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { isRole, type Role } from "~/lib/roles";
import { profileUpdateSchema, type ProfileField } from "./schema";

export { normalizeMalianPhone, profileMessages, profileUpdateSchema } from "./schema";

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
  createdAt: users.createdAt,
};

/** The acting user's own profile, or null if the account no longer exists. */
export async function getProfile(db: Database, actor: ProfileActor): Promise<Profile | null> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, actor.id)).limit(1);
  if (!row) return null;
  return { ...row, role: isRole(row.role) ? row.role : null };
}

export type ProfileFormValues = { firstName: string; lastName: string; phone: string };

export type UpdateProfileResult =
  | { ok: true; profile: Profile; changed: ProfileField[] }
  | { ok: false; reason: "invalid"; errors: Partial<Record<ProfileField, string>>; values: ProfileFormValues }
  | { ok: false; reason: "not_found" };

function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Updates the acting user's first name, last name and phone; nothing else can be changed here
 * (e-mail, role and any id in the input are ignored: the row updated is always `actor.id`).
 * Records a "profile_updated" activity naming the changed fields, in the same transaction.
 */
export async function updateProfile(
  db: Database,
  actor: ProfileActor,
  input: Record<string, unknown>,
  meta: { ipAddress?: string | null; userAgent?: string | null } = {},
): Promise<UpdateProfileResult> {
  const values: ProfileFormValues = {
    firstName: asText(input.firstName),
    lastName: asText(input.lastName),
    phone: asText(input.phone),
  };
  const parsed = profileUpdateSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<ProfileField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ProfileField | undefined;
      if (field && !errors[field]) errors[field] = issue.message;
    }
    return { ok: false, reason: "invalid", errors, values };
  }
  const next = parsed.data;

  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, phone: users.phone })
      .from(users)
      .where(eq(users.id, actor.id))
      .for("update");
    if (!current) return { ok: false as const, reason: "not_found" as const };
    const changed = (Object.keys(next) as ProfileField[]).filter((field) => (current[field] ?? null) !== next[field]);
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
    return { ok: true as const, profile: profile!, changed };
  });
}
