import { z } from "zod";
import { authEnvShape } from "./auth/config";

/**
 * Every environment variable the server reads, checked once at start-up by one schema. A bad value
 * stops the start with the variable's name, what was received and what is expected (in French:
 * the people who deploy Campus read French). Add new variables here, with a French message, and
 * to the configuration table of README.md.
 */

/**
 * Express's "trust proxy": false (nobody), a number of proxy hops, or addresses/subnets
 * ("loopback", "10.0.0.0/8, 172.16.0.0/12"). "true" means one proxy in front (not "trust every
 * X-Forwarded-For hop", which would let a client choose its own address and dodge rate limits).
 */
const trustProxy = z
  .string()
  .trim()
  .refine(
    (value) =>
      /^(true|false|\d{1,2})$/.test(value) ||
      value.split(",").every((part) => /^(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)$/i.test(part.trim())),
    "doit valoir false, true, un nombre de proxys (1, 2…) ou des adresses (loopback, 10.0.0.0/8…)",
  )
  .transform((value): false | number | string => {
    if (value === "false" || value === "0") return false;
    if (value === "true") return 1;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

const megabytes = (name: string) =>
  z.coerce
    .number({ error: `${name} doit être un nombre entier de mégaoctets` })
    .int(`${name} doit être un nombre entier de mégaoctets`)
    .min(1, "doit valoir au moins 1 Mo")
    .max(10_240, "doit valoir au plus 10240 Mo (10 Go)");

const envSchema = z
  .object({
    NODE_ENV: z
      .enum(["development", "production", "test"], { error: "doit valoir production, development ou test" })
      .default("development"),
    /**
     * A trial (generated secrets, demo accounts, test payment gateway) or a deployment. server.ts
     * sets it from the operator's NODE_ENV when unset, then always runs React's production build
     * (docs/decisions/0004-npm-start-builds-then-serves.md).
     */
    CAMPUS_MODE: z.enum(["trial", "production"], { error: "doit valoir trial (essai) ou production" }).optional(),
    PORT: z.coerce
      .number({ error: "doit être un nombre entier entre 1 et 65535" })
      .int("doit être un nombre entier entre 1 et 65535")
      .min(1, "doit être un nombre entier entre 1 et 65535")
      .max(65535, "doit être un nombre entier entre 1 et 65535")
      .default(3000),
    HOST: z.string().trim().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().trim().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .trim()
      .regex(
        /^postgres(ql)?:\/\/\S+$/,
        "doit commencer par postgres:// ou postgresql:// (ex. postgres://campus:secret@127.0.0.1:5432/campus)",
      )
      .optional(),
    /** The address visitors use (canonical links, e-mails). Defaults to http://localhost:PORT. */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "doit être une adresse http:// ou https:// complète (ex. https://campus.example.ml)" })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    TRUST_PROXY: trustProxy.default(false),
    /** Seconds an anonymous visitor's page is served from memory (0 turns the cache off). */
    PAGE_CACHE_SECONDS: z.coerce
      .number({ error: "doit être un nombre entier de secondes (0 pour désactiver)" })
      .int("doit être un nombre entier de secondes (0 pour désactiver)")
      .min(0, "doit être un nombre entier de secondes (0 pour désactiver)")
      .max(3600, "doit valoir au plus 3600 secondes")
      .default(5),
    /**
     * Server processes: "auto" (one per core), or a number; 1 = one process (PGlite inside it).
     * Unset: one per core on PostgreSQL, one on PGlite (server.ts, docs/decisions/0042-one-process-on-pglite.md).
     */
    WORKERS: z
      .string()
      .trim()
      .regex(/^(auto|[1-9]\d?)$/, "doit valoir auto ou un nombre de processus entre 1 et 99")
      .transform((value) => (value === "auto" ? ("auto" as const) : Number(value)))
      .optional(),
    LOG_LEVEL: z.enum(["silent", "error", "info"], { error: "doit valoir silent, error ou info" }).default("info"),
    // Files (app/.server/storage, app/.server/files): upload limits in megabytes, and S3-compatible
    // storage instead of DATA_DIR/files when S3_BUCKET is set.
    UPLOAD_MAX_IMAGE_MB: megabytes("UPLOAD_MAX_IMAGE_MB").default(5),
    UPLOAD_MAX_ATTACHMENT_MB: megabytes("UPLOAD_MAX_ATTACHMENT_MB").default(50),
    UPLOAD_MAX_VIDEO_MB: megabytes("UPLOAD_MAX_VIDEO_MB").default(2048),
    S3_BUCKET: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "doit être un nom de compartiment S3 (minuscules, chiffres, points, tirets)")
      .optional(),
    S3_ENDPOINT: z
      .url({ protocol: /^https?$/, error: "doit être une adresse http:// ou https:// (ex. https://s3.fr-par.scw.cloud)" })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    S3_REGION: z.string().trim().min(1, "ne doit pas être vide").default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().trim().min(1, "ne doit pas être vide").optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().min(1, "ne doit pas être vide").optional(),
    // Payments (app/.server/payments): CinetPay for mobile money and cards when its three keys are
    // set; the local test gateway outside production (PAYMENT_SANDBOX forces it on or off).
    CINETPAY_API_KEY: z.string().trim().min(1, "ne doit pas être vide").optional(),
    CINETPAY_SITE_ID: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, "doit être l'identifiant numérique du site (SITEID de CinetPay)")
      .optional(),
    CINETPAY_SECRET_KEY: z.string().trim().min(1, "ne doit pas être vide").optional(),
    CINETPAY_API_URL: z
      .url({ protocol: /^https?$/, error: "doit être une adresse http:// ou https://" })
      .transform((value) => value.replace(/\/+$/, ""))
      .default("https://api-checkout.cinetpay.com/v2"),
    PAYMENT_SANDBOX: z
      .enum(["true", "false", "1", "0"], { error: "doit valoir true, false, 1 ou 0" })
      .transform((value) => value === "true" || value === "1")
      .optional(),
    // Live sessions (app/.server/live-sessions): BigBlueButton meetings created by the platform when
    // both are set (BBB_URL: the server's address ending in /bigbluebutton/); pasted links otherwise.
    BBB_URL: z
      .url({ protocol: /^https?$/, error: "doit être l'adresse du serveur BigBlueButton (ex. https://bbb.example.ml/bigbluebutton/)" })
      .transform((value) => value.replace(/\/*$/, "/"))
      .optional(),
    BBB_SECRET: z.string().trim().min(8, "doit être le secret partagé du serveur (bbb-conf --secret)").optional(),
    // Commission payouts (app/.server/finance): CinetPay's transfer API when both are set; the local
    // fake with PAYMENT_SANDBOX; by hand otherwise.
    CINETPAY_TRANSFER_API_KEY: z.string().trim().min(1, "ne doit pas être vide").optional(),
    CINETPAY_TRANSFER_PASSWORD: z.string().trim().min(1, "ne doit pas être vide").optional(),
    CINETPAY_TRANSFER_API_URL: z
      .url({ protocol: /^https?$/, error: "doit être une adresse http:// ou https://" })
      .transform((value) => value.replace(/\/+$/, ""))
      .default("https://client.cinetpay.com"),
    // Accounts: BETTER_AUTH_SECRET, SMTP_URL, MAIL_FROM, GOOGLE_CLIENT_ID/SECRET, SESSION_IDLE_MINUTES, SESSION_MAX_DAYS.
    ...authEnvShape,
  })
  .superRefine((env, ctx) => {
    if (env.S3_BUCKET) {
      for (const name of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "est obligatoire quand S3_BUCKET est défini" });
      }
    }
    if (Boolean(env.BBB_URL) !== Boolean(env.BBB_SECRET)) {
      const missing = env.BBB_URL ? "BBB_SECRET" : "BBB_URL";
      ctx.addIssue({ code: "custom", path: [missing], message: "est obligatoire avec l'autre variable BBB_*" });
    }
    const cinetpay = ["CINETPAY_API_KEY", "CINETPAY_SITE_ID", "CINETPAY_SECRET_KEY"] as const;
    if (cinetpay.some((name) => env[name])) {
      for (const name of cinetpay) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "est obligatoire avec les autres variables CINETPAY_*" });
      }
    }
  })
  .transform((env) => {
    const mode = env.CAMPUS_MODE ?? (env.NODE_ENV === "production" ? "production" : "trial");
    return {
      ...env,
      CAMPUS_MODE: mode,
      PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
      PAYMENT_SANDBOX: env.PAYMENT_SANDBOX ?? mode !== "production",
    };
  });

export type Env = z.output<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

const SECRET_NAME = /SECRET|PASSWORD|TOKEN|KEY/i;

/** What the start-up message may repeat of a received value: never a secret or a password. */
function shown(name: string, value: unknown) {
  if (value === undefined) return "absente";
  if (SECRET_NAME.test(name)) return "(valeur masquée)";
  let text = String(value);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = text.replace(/\/\/([^/@:]*):[^/@]*@/, "//$1:***@");
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** Reads and checks the environment once; a bad value throws an EnvError that names it. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable (`PORT=`) counts as unset, as shells and .env files often leave them.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join(".");
      return `  - ${name} = ${shown(name, cleaned[name])} : ${issue.message}.`;
    });
    throw new EnvError(`Configuration invalide : corrigez ces variables d'environnement puis relancez.\n${lines.join("\n")}`);
  }
  return result.data;
}
