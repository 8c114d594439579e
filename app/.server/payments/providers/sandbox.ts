import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, and } from "drizzle-orm";
import type { Database } from "../../db/client";
import { sandboxTransactions } from "../../db/schema";
import type { CheckoutRequest, PaymentProvider, ProviderStatus } from "./provider";

export const SANDBOX_SIGNATURE_HEADER = "x-sandbox-signature";

export type SandboxTransaction = typeof sandboxTransactions.$inferSelect;

export interface SandboxProvider extends PaymentProvider {
  /** The gateway's page: the transaction it shows, to its payer only (anyone else: null). */
  get(reference: string, payerId: string): Promise<SandboxTransaction | null>;
  /**
   * The payer's choice on the gateway's page: approve or refuse (once), then the signed
   * notification to the merchant, as a real provider would send it. Returns where to send the
   * learner back; null for an unknown transaction or one that is not `payerId`'s (as a real
   * provider asks the payer's own phone or card, only the payer's session decides).
   */
  decide(reference: string, approve: boolean, payerId: string): Promise<{ returnUrl: string } | null>;
}

function sign(secret: string, fields: { reference: string; status: string; amount: string; currency: string }): string {
  return createHmac("sha256", secret).update(`${fields.reference}|${fields.status}|${fields.amount}|${fields.currency}`).digest("hex");
}

/**
 * The local test gateway (development and tests): the same contract as CinetPay, its own
 * transactions, its own pages (/paiement/bac-a-sable/:reference) where a tester approves or
 * refuses, and a notification signed with HMAC-SHA256 like a real provider's. Never offered in
 * production unless PAYMENT_SANDBOX says so, and always labelled as a test.
 */
export function createSandboxProvider(deps: {
  db: Database;
  secret: string;
  fetch?: typeof fetch;
  onNotifyError?: (error: unknown) => void;
}): SandboxProvider {
  const { db, secret } = deps;
  const send = deps.fetch ?? fetch;

  const find = async (reference: string) => {
    const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.reference, reference));
    return row ?? null;
  };
  const get = async (reference: string, payerId: string) => {
    const row = await find(reference);
    return row && row.customerId === payerId ? row : null;
  };

  return {
    id: "sandbox",
    label: "Passerelle de test",
    channels: ["mobile_money", "card"],
    async createCheckout(request: CheckoutRequest) {
      await db.insert(sandboxTransactions).values({
        reference: request.reference,
        amount: request.amount,
        currency: request.currency,
        channel: request.channel,
        description: request.description,
        customerId: request.customer.id,
        returnUrl: request.returnUrl,
        notifyUrl: request.notifyUrl,
      });
      return {
        redirectUrl: `/paiement/bac-a-sable/${encodeURIComponent(request.reference)}`,
        providerReference: `SBX-${request.reference}`,
      };
    },
    async parseNotification(request: Request) {
      const form = await request.formData().catch(() => null);
      const field = (name: string) => {
        const value = form?.get(name);
        return typeof value === "string" ? value : "";
      };
      const fields = { reference: field("reference"), status: field("status"), amount: field("amount"), currency: field("currency") };
      const given = Buffer.from(request.headers.get(SANDBOX_SIGNATURE_HEADER) ?? "", "utf8");
      const expected = Buffer.from(sign(secret, fields), "utf8");
      if (!fields.reference || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { reference: fields.reference };
    },
    async checkStatus(reference: string): Promise<ProviderStatus> {
      const row = await find(reference);
      if (!row)
        return {
          status: "failed",
          amount: 0,
          currency: "XOF",
          providerReference: null,
          methodDetail: null,
          message: "Transaction inconnue de la passerelle de test.",
        };
      return {
        status: row.status === "approved" ? "completed" : row.status === "refused" ? "failed" : "pending",
        amount: row.amount,
        currency: row.currency,
        providerReference: `SBX-${row.reference}`,
        methodDetail: row.channel === "card" ? "Carte de test" : "Mobile money de test",
        message: row.status === "refused" ? "Paiement refusé sur la passerelle de test." : null,
      };
    },
    get,
    async decide(reference, approve, payerId) {
      const [row] = await db
        .update(sandboxTransactions)
        .set({ status: approve ? "approved" : "refused", decidedAt: new Date() })
        .where(
          and(
            eq(sandboxTransactions.reference, reference),
            eq(sandboxTransactions.customerId, payerId),
            eq(sandboxTransactions.status, "pending"),
          ),
        )
        .returning();
      const transaction = row ?? (await get(reference, payerId));
      if (!transaction) return null;
      if (row) {
        const fields = { reference: row.reference, status: row.status, amount: String(row.amount), currency: row.currency };
        try {
          await send(row.notifyUrl, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", [SANDBOX_SIGNATURE_HEADER]: sign(secret, fields) },
            body: new URLSearchParams(fields),
            signal: AbortSignal.timeout(5000),
          });
        } catch (error) {
          // As with a real provider, the return page's own check still settles the payment.
          deps.onNotifyError?.(error);
        }
      }
      return { returnUrl: transaction.returnUrl };
    },
  };
}

/** Signs a notification as the gateway does (tests use it to forge valid and invalid ones). */
export const signSandboxNotification = sign;
