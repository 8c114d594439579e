/**
 * The certificates capability, by verb: issue (the completion rule and the signed credential),
 * read (a learner's list, the PDF, the badge), verify (the public look-up, the revocation list,
 * the issuer) and manage (the admins' list, revocation, re-issue).
 */
export { certificatesContext, type Certificate, type Certificates } from "./services";
export { completionOf, issueCertificateIfComplete } from "./issue";
export {
  certificatesFor,
  getCertificateBadgePng,
  getCertificateCredential,
  getCertificatePdf,
  getOwnCertificate,
  listMyCertificates,
  myCertificateSummary,
  type CertificateView,
} from "./read";
export {
  publishedIssuerProfile,
  publishedKey,
  publishedKeySet,
  revocationList,
  VERIFICATION_LIMIT,
  verifyCertificateCode,
  verifyForVisitor,
} from "./verify";
export { listAllCertificates, reissueCertificate, revokeCertificate } from "./manage";
export { issuerUrls } from "./credential";
export { anonymiseCertificateHolder } from "./holder";
export { getPublicKey, listPublicKeys } from "./keys";
