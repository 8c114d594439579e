/**
 * The contract of a payout provider: it sends an instructor's commissions to their mobile-money
 * account, and says where a transfer stands when asked. CinetPay's transfer API in production; a
 * local fake speaking the same protocol in development and tests.
 */

export interface PayoutOrder {
  /** Our payout reference: the provider's client transaction id. */
  reference: string;
  /** Whole FCFA. */
  amount: number;
  recipient: { firstName: string; lastName: string; email: string; phone: string };
  /** Where the provider posts the transfer's outcome. */
  notifyUrl: string;
}

export interface PayoutOutcome {
  /** paid: the money arrived; failed: refused; processing: not final yet (ask again later). */
  status: "processing" | "paid" | "failed";
  providerReference: string | null;
  message: string | null;
}

export interface PayoutProvider {
  id: string;
  /** Shown beside the "Payer" choice ("Mobile money (CinetPay)"). */
  label: string;
  send(order: PayoutOrder): Promise<PayoutOutcome>;
  check(reference: string): Promise<PayoutOutcome>;
}
