import { createHash } from "node:crypto";
import { createContext } from "react-router";
import type { Database } from "../db/client";
import type { Env } from "../env";
import type { MailEnv } from "../mail";
import { createCinetPayProvider } from "./providers/cinetpay";
import type { PaymentProvider } from "./providers/provider";
import { createSandboxProvider, type SandboxProvider } from "./providers/sandbox";

/** What the payments capability needs besides the database: built once per process. */
export interface Payments {
  /** The provider for mobile money and cards: CinetPay when configured, else the test gateway (outside production), else none. */
  online: PaymentProvider | null;
  /** The test gateway, when enabled (its pages answer only then). */
  sandbox: SandboxProvider | null;
  publicUrl: string;
  mailEnv: MailEnv;
}

export function providerById(payments: Payments, id: string): PaymentProvider | null {
  if (payments.online?.id === id) return payments.online;
  if (payments.sandbox?.id === id) return payments.sandbox;
  return null;
}

export function createPayments(deps: {
  db: Database;
  env: Pick<
    Env,
    "CINETPAY_API_KEY" | "CINETPAY_SITE_ID" | "CINETPAY_SECRET_KEY" | "CINETPAY_API_URL" | "PAYMENT_SANDBOX" | "PUBLIC_URL" | "LOG_LEVEL"
  >;
  /** The app's signing secret; the test gateway signs its notifications with a key derived from it. */
  secret: string;
  mailEnv: MailEnv;
}): Payments {
  const { env } = deps;
  const sandbox = env.PAYMENT_SANDBOX
    ? createSandboxProvider({
        db: deps.db,
        secret: createHash("sha256").update(`campus-sandbox-gateway:${deps.secret}`).digest("hex"),
        onNotifyError: (error) => {
          if (env.LOG_LEVEL !== "silent") console.error("Passerelle de test : notification non remise (le retour la rattrapera) :", error);
        },
      })
    : null;
  const cinetpay =
    env.CINETPAY_API_KEY && env.CINETPAY_SITE_ID && env.CINETPAY_SECRET_KEY
      ? createCinetPayProvider({
          apiKey: env.CINETPAY_API_KEY,
          siteId: env.CINETPAY_SITE_ID,
          secretKey: env.CINETPAY_SECRET_KEY,
          apiUrl: env.CINETPAY_API_URL,
        })
      : null;
  return { online: cinetpay ?? sandbox, sandbox, publicUrl: env.PUBLIC_URL, mailEnv: deps.mailEnv };
}

/** The payments of this process, for loaders and actions. */
export const paymentsContext = createContext<Payments>();
