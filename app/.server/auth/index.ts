/**
 * Accounts: Better Auth (sign-up, sign-in, sessions, two-factor) and the account operations the
 * app adds; who acts (actor.ts) and the guards of the signed-in areas (middleware.ts). Owns the
 * users, sessions, accounts, verifications and two-factor tables.
 */
export {
  accountSecurityMessages,
  changePassword,
  confirmCurrentPassword,
  confirmTwoFactor,
  disableTwoFactor,
  startTwoFactor,
  twoFactorSetupOf,
  type TwoFactorSetup,
} from "./account-security";
export { anonymiseAccount, DELETED_ACCOUNT_NAME, expireSessionCookies } from "./account-deletion";
export { deviceMessages, describeDevice, listUserSessions, revokeUserSession, type UserSession } from "./devices";
export { createAccount, duplicateEmailMessage, newAccountId, randomAlphanumeric, type NewAccount } from "./accounts";
export * from "./actor";
export type { Auth } from "./auth";
export { createCampusAuth, mountAuth, sessionOf, type CampusAuth } from "./express";
export { getOptionalUser, signInUrlFor } from "./guards";
export { signedIn, signedInAdmin, signedInTeacher, signedInUser } from "./middleware";
export { resolveSession, type SessionUser } from "./session";
