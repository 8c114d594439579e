import { roleLabels, type Role } from "~/lib/roles";
import type { Database } from "../db/client";
import { invitationMail, loadInstituteIdentity, sendMail, type MailEnv } from "../mail";

/**
 * The same link as authD's password-reset mail: /auth in recovery mode ("Nouveau mot de passe"),
 * whose form posts the token to Better Auth's reset endpoint.
 */
export function invitationUrl(publicUrl: string, token: string): string {
  const base = publicUrl.replace(/\/+$/, "");
  return `${base}/auth?mode=recuperation&token=${encodeURIComponent(token)}`;
}

export type InvitationEnv = MailEnv & { PUBLIC_URL: string };

/** The invitation mail (authD's template): who the person is, as what, and the link (7 days). */
export async function sendInvitationMail(
  db: Database,
  env: InvitationEnv,
  invitation: { to: string; firstName: string; role: Role; token: string },
) {
  const identity = await loadInstituteIdentity(db);
  const url = invitationUrl(env.PUBLIC_URL, invitation.token);
  await sendMail(
    db,
    env,
    invitationMail({ to: invitation.to, firstName: invitation.firstName, url, roleLabel: roleLabels[invitation.role], identity }),
  );
  return { url };
}
