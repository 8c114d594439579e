import { forgetActivityOf } from "../activity";
import { recordAudit } from "../audit";
import { anonymiseAccount, confirmCurrentPassword, DELETED_ACCOUNT_NAME, expireSessionCookies, type Actor, type Auth } from "../auth";
import { anonymiseCertificateHolder } from "../certificates";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { closeEnrolmentsOf } from "../learning";
import { forgetNotificationsOf } from "../notifications";
import { canDeleteOwnAccount } from "./policy";

export const accountDeletionMessages = {
  staffRefused:
    "Un compte enseignant ou administrateur ne se supprime pas lui-même : un administrateur doit d'abord reprendre vos formations et vos responsabilités, puis désactiver le compte.",
} as const;

export type AccountDeletion = {
  /** False when the account was already deleted (a second submit): nothing was done again. */
  deleted: boolean;
  /** Set-Cookie headers that sign this browser out. */
  headers: Headers;
};

/**
 * « Supprimer mon compte » (docs/decisions/0045-account-deletion.md): the learner's password
 * checked again by Better Auth, then in one transaction the account is anonymised and can no
 * longer sign in (auth), its enrolments close (learning), its certificates stay valid without its
 * name (certificates), its notifications and activity log go (notifications, activity), and the
 * institute's audit log records the deletion. Payments stay as they are: they name nobody but the
 * account, which names nobody any more. Forum posts and sent messages stay, signed « Compte
 * supprimé ». A wrong password is an AppError "invalid" beside the "password" field.
 */
export async function deleteOwnAccount(
  auth: Auth,
  db: Database,
  actor: Actor,
  requestHeaders: Headers,
  input: unknown,
  now = new Date(),
): Promise<AccountDeletion> {
  if (!canDeleteOwnAccount(actor)) throw AppError.forbidden(accountDeletionMessages.staffRefused);
  await confirmCurrentPassword(auth, requestHeaders, input);
  const deleted = await db.transaction(async (tx) => {
    if (!(await anonymiseAccount(tx, actor.id, now))) return false;
    const enrolmentsClosed = await closeEnrolmentsOf(tx, actor.id, now);
    const certificatesKept = await anonymiseCertificateHolder(tx, actor.id, DELETED_ACCOUNT_NAME);
    await forgetNotificationsOf(tx, actor.id);
    await forgetActivityOf(tx, actor.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: "account_deleted",
      targetUserId: actor.id,
      details: { enrolmentsClosed, certificatesKept },
      createdAt: now,
    });
    return true;
  });
  return { deleted, headers: await expireSessionCookies(auth, requestHeaders) };
}
