import { createContext } from "react-router";
import type { Env } from "../env";
import { createCinetPayTransferProvider } from "./payouts/cinetpay-transfer";
import { createFakeCinetPayTransfer } from "./payouts/fake-cinetpay";
import type { PayoutProvider } from "./payouts/provider";

/** What the finance capability needs besides the database: built once per process. */
export interface Finance {
  /** Mobile-money payouts: CinetPay's transfer API when configured, else the local fake (outside production), else none (by hand only). */
  payouts: PayoutProvider | null;
  publicUrl: string;
}

export function createFinance(
  env: Pick<
    Env,
    "CINETPAY_TRANSFER_API_KEY" | "CINETPAY_TRANSFER_PASSWORD" | "CINETPAY_TRANSFER_API_URL" | "PAYMENT_SANDBOX" | "PUBLIC_URL"
  >,
): Finance {
  if (env.CINETPAY_TRANSFER_API_KEY && env.CINETPAY_TRANSFER_PASSWORD) {
    return {
      payouts: createCinetPayTransferProvider({
        apiKey: env.CINETPAY_TRANSFER_API_KEY,
        password: env.CINETPAY_TRANSFER_PASSWORD,
        apiUrl: env.CINETPAY_TRANSFER_API_URL,
      }),
      publicUrl: env.PUBLIC_URL,
    };
  }
  if (!env.PAYMENT_SANDBOX) return { payouts: null, publicUrl: env.PUBLIC_URL };
  // The sandbox: the same client, talking to a local fake of CinetPay that validates every transfer.
  const fake = createFakeCinetPayTransfer({ apiKey: "sandbox", password: "sandbox" });
  return {
    payouts: createCinetPayTransferProvider({
      id: "sandbox",
      label: "Mobile money (bac à sable, aucun argent réel)",
      apiKey: "sandbox",
      password: "sandbox",
      apiUrl: "http://cinetpay.sandbox.invalid",
      fetch: fake.fetch,
    }),
    publicUrl: env.PUBLIC_URL,
  };
}

/** The finance services of this process, for loaders and actions. */
export const financeContext = createContext<Finance>();
