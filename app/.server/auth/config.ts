import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The accounts' settings read from the environment (added to app/.server/env.ts's variables):
 * BETTER_AUTH_SECRET, SMTP_URL, MAIL_FROM, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
 * SESSION_IDLE_MINUTES, SESSION_MAX_DAYS.
 */
export const authEnvShape = {
  BETTER_AUTH_SECRET: z.string().trim().min(32, "doit contenir au moins 32 caractères (ex. openssl rand -base64 32)").optional(),
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/\S+$/, "doit commencer par smtp:// ou smtps:// (ex. smtps://utilisateur:motdepasse@smtp.example.ml:465)")
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number({ error: "doit être un nombre de minutes" })
    .int("doit être un nombre entier de minutes")
    .min(5, "doit valoir au moins 5 minutes")
    .default(7 * 24 * 60),
  SESSION_MAX_DAYS: z.coerce
    .number({ error: "doit être un nombre de jours" })
    .int("doit être un nombre entier de jours")
    .min(1, "doit valoir au moins 1 jour")
    .max(365, "doit valoir au plus 365 jours")
    .default(30),
};

export const authEnvSchema = z.object(authEnvShape);
export type AuthEnv = z.output<typeof authEnvSchema>;

/** A configuration problem the server reports as one readable line (server.ts knows this name). */
class AuthConfigError extends Error {
  override name = "EnvError";
}

export interface AuthSettings {
  secret: string;
  publicUrl: string;
  production: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  google?: { clientId: string; clientSecret: string };
  sessionIdleMinutes: number;
  sessionMaxDays: number;
}

/** Reads the accounts' variables; throws a readable error on a bad value. */
export function loadAuthEnv(source: NodeJS.ProcessEnv = process.env): AuthEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = authEnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".")} : ${issue.message}.`);
    throw new AuthConfigError(`Configuration invalide : corrigez ces variables d'environnement puis relancez.\n${lines.join("\n")}`);
  }
  return result.data;
}

/**
 * The signing secret: BETTER_AUTH_SECRET in production (required); otherwise generated once and
 * kept in DATA_DIR/auth-secret so sessions survive restarts (in memory for "memory://" data dirs).
 */
export function resolveAuthSecret(options: { secret?: string; production: boolean; dataDir: string }): string {
  if (options.secret) return options.secret;
  if (options.production) {
    throw new AuthConfigError(
      "Configuration invalide : BETTER_AUTH_SECRET est obligatoire en production (au moins 32 caractères, ex. openssl rand -base64 32).",
    );
  }
  if (options.dataDir.startsWith("memory://")) return randomBytes(32).toString("base64url");
  const file = path.join(options.dataDir, "auth-secret");
  const stored = readStoredSecret(file);
  if (stored) return stored;
  // The processes of a first start (WORKERS) may all find no file: the first to link its secret
  // in whole wins and the others read it. Each keeping its own would refuse the others' cookies.
  const secret = randomBytes(32).toString("base64url");
  fs.mkdirSync(options.dataDir, { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(candidate, `${secret}\n`, { mode: 0o600 });
  try {
    fs.linkSync(candidate, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const first = readStoredSecret(file);
    if (first) return first;
    fs.renameSync(candidate, file); // a damaged file: replaced
    return secret;
  } finally {
    fs.rmSync(candidate, { force: true });
  }
}

function readStoredSecret(file: string): string | null {
  try {
    const stored = fs.readFileSync(file, "utf8").trim();
    return stored.length >= 32 ? stored : null;
  } catch {
    return null; // not created yet
  }
}

/** A deployment (CAMPUS_MODE=production) or a trial; absent, a trial. */
export interface InstanceEnv {
  CAMPUS_MODE?: "trial" | "production";
  DATA_DIR: string;
  PUBLIC_URL: string;
}

export function authSettingsFrom(env: InstanceEnv, authEnv: AuthEnv): AuthSettings {
  const production = env.CAMPUS_MODE === "production";
  const google =
    authEnv.GOOGLE_CLIENT_ID && authEnv.GOOGLE_CLIENT_SECRET
      ? { clientId: authEnv.GOOGLE_CLIENT_ID, clientSecret: authEnv.GOOGLE_CLIENT_SECRET }
      : undefined;
  return {
    secret: resolveAuthSecret({ secret: authEnv.BETTER_AUTH_SECRET, production, dataDir: env.DATA_DIR }),
    publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
    production,
    smtpUrl: authEnv.SMTP_URL,
    mailFrom: authEnv.MAIL_FROM,
    google,
    sessionIdleMinutes: authEnv.SESSION_IDLE_MINUTES,
    sessionMaxDays: authEnv.SESSION_MAX_DAYS,
  };
}
