import { isAdmin, isSelf, type Actor } from "../auth/actor";

/**
 * Who may do what with certificates. The system issues them (never a person); a learner reads and
 * downloads their own; administrators list, revoke and re-issue any. Anyone may verify a code
 * (the public page shows nothing personal beyond the name). A leaf module.
 */

export function canDownloadCertificate(actor: Actor | null, certificate: { userId: string | null }): boolean {
  return isSelf(actor, certificate.userId) || isAdmin(actor);
}

export function canManageCertificates(actor: Actor | null): boolean {
  return isAdmin(actor);
}
