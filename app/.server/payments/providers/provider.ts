/**
 * The contract every online payment provider meets (CinetPay, the local sandbox). The payments
 * capability never trusts what reaches it from the browser or a notification's body: a payment
 * is completed only after `checkStatus` has asked the provider itself, and the amount and
 * currency it reports match the payment's.
 */

/** How the learner pays online (cash at the office is not a provider's business). */
export type PaymentChannel = "mobile_money" | "card";

export interface CheckoutRequest {
  /** Our payment reference, unique, at most 30 characters of [A-Z0-9-]: the provider's transaction id. */
  reference: string;
  /** Whole FCFA (XOF has no minor unit). */
  amount: number;
  currency: "XOF";
  /** Shown on the provider's page ("Formation Intelligence Artificielle — ICEF"). */
  description: string;
  channel: PaymentChannel;
  customer: { id: string; firstName: string; lastName: string; email: string; phone: string | null };
  /** Where the provider sends the learner back (GET), whatever the outcome. */
  returnUrl: string;
  /** Where the provider posts its server-to-server notification. */
  notifyUrl: string;
}

export interface CheckoutSession {
  /** The provider's payment page, where the learner is sent. */
  redirectUrl: string;
  /** The provider's own id for this payment, when it gives one at creation (a payment token). */
  providerReference: string | null;
}

export interface ProviderStatus {
  status: "completed" | "failed" | "pending";
  /** As the provider reports them; compared with the payment's before anything is granted. */
  amount: number;
  currency: string;
  /** The provider's transaction id or operator reference, kept on the payment row. */
  providerReference: string | null;
  /** "OM", "MOOV", "VISA"... as the provider names the means used, when it says. */
  methodDetail: string | null;
  /** The provider's message for a refusal, kept for support. */
  message: string | null;
}

export interface PaymentProvider {
  readonly id: "cinetpay" | "sandbox";
  /** What the learner reads ("CinetPay", "Passerelle de test"). */
  readonly label: string;
  readonly channels: readonly PaymentChannel[];
  /** Opens a payment at the provider; an AppError "unavailable" (its message for the learner) when it refuses or cannot be reached. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Reads a notification the provider posted: checks its signature and returns the payment
   * reference it is about, or null when it is not authentic (then nothing else is read from it).
   */
  parseNotification(request: Request): Promise<{ reference: string } | null>;
  /** The provider's own word on a payment, asked server to server. */
  checkStatus(reference: string): Promise<ProviderStatus>;
}
