import { randomBytes } from "node:crypto";
import type { Auth } from "./auth";

/**
 * A one-time link to choose a password (invitation, first admin): a token in Better Auth's
 * reset-password format, opening /auth in recovery mode ("Nouveau mot de passe").
 */
export async function createPasswordSetupUrl(
  auth: Auth,
  publicUrl: string,
  userId: string,
  expiresInSeconds = 7 * 24 * 60 * 60,
): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const context = await auth.$context;
  await context.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
  });
  return `${publicUrl.replace(/\/+$/, "")}/auth?mode=recuperation&token=${encodeURIComponent(token)}`;
}
