import { isAdmin, isSelf, type Actor } from "../auth/actor";

/**
 * Who may do what with certificates. The system issues them (never a person); a learner reads
 * their own and downloads or shares it while it is not revoked; administrators list, download,
 * revoke and re-issue any. Anyone may verify a code (the public page shows nothing personal beyond
 * the name). A leaf module.
 */

export function canReadCertificate(actor: Actor | null, certificate: { userId: string | null }): boolean {
  return isSelf(actor, certificate.userId) || isAdmin(actor);
}

/** A revoked certificate attests nothing: its holder no longer gets its PDF or badge to pass on. */
export function canDownloadCertificate(actor: Actor | null, certificate: { userId: string | null; status: "valid" | "revoked" }): boolean {
  return isAdmin(actor) || (isSelf(actor, certificate.userId) && certificate.status !== "revoked");
}

export function canManageCertificates(actor: Actor | null): boolean {
  return isAdmin(actor);
}
