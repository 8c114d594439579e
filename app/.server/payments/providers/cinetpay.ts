/**
 * CinetPay hosted checkout, API v2 (https://docs.cinetpay.com/api/1.0-fr/checkout/initialisation).
 * The learner pays on CinetPay's page; CinetPay then posts a notification signed with an HMAC
 * (x-token), and the payment's state is only ever taken from the server-to-server check.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../../errors";
import { type CheckoutRequest, type CheckoutSession, type PaymentChannel, type PaymentProvider, type ProviderStatus } from "./provider";

export interface CinetPayConfig {
  apiKey: string;
  siteId: string;
  /** The merchant's secret key, which signs the notifications (x-token). */
  secretKey: string;
  /** Defaults to https://api-checkout.cinetpay.com/v2 */
  apiUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const DEFAULT_API_URL = "https://api-checkout.cinetpay.com/v2";
const DEFAULT_TIMEOUT_MS = 15_000;

const UNREACHABLE = "Le service de paiement ne répond pas. Réessayez dans un instant.";
const NOT_OPENED = "Le paiement en ligne n'a pas pu être ouvert. Réessayez dans un instant, ou payez en espèces à l'institut.";

const CHANNELS: Record<PaymentChannel, string> = { mobile_money: "MOBILE_MONEY", card: "CREDIT_CARD" };

// The card form needs a full billing address, which the campus does not ask for: the institute's
// city stands in. customer_country/customer_state are ISO codes, customer_zip_code 5 characters.
const MALI_ADDRESS = {
  customer_address: "Bamako",
  customer_city: "Bamako",
  customer_country: "ML",
  customer_state: "ML",
  customer_zip_code: "00223",
} as const;

// The x-token is the HMAC-SHA256 (hex) of these form fields concatenated in this order,
// absent fields counting as empty (https://docs.cinetpay.com/api/1.0-en/checkout/hmac).
const SIGNED_FIELDS = [
  "cpm_site_id",
  "cpm_trans_id",
  "cpm_trans_date",
  "cpm_amount",
  "cpm_currency",
  "signature",
  "payment_method",
  "cel_phone_num",
  "cpm_phone_prefixe",
  "cpm_language",
  "cpm_version",
  "cpm_payment_config",
  "cpm_page_action",
  "cpm_custom",
  "cpm_designation",
  "cpm_error_message",
] as const;

// Operators that confirm by a push on the phone report these while the learner has not yet
// approved; the notification docs warn against treating them as a definite failure.
// 623 WAITING_CUSTOMER_TO_VALIDATE, 662 WAITING_CUSTOMER_PAYMENT, 663 WAITING_CUSTOMER_OTP_CODE.
const PENDING_CODES = new Set(["623", "662", "663"]);
// 600 PAYMENT_FAILED, 602 INSUFFICIENT_BALANCE, 604 OTP_CODE_ERROR, 627 TRANSACTION_CANCEL.
const FAILED_CODES = new Set(["600", "602", "604", "627"]);
const FAILED_STATUSES = new Set(["REFUSED", "CANCELED", "CANCELLED"]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** The docs ask for a description without # / $ _ & ("for better operation"). */
function cleanDescription(description: string): string {
  return description
    .replace(/[#/$_&]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function sameToken(received: string, expected: string): boolean {
  const a = Buffer.from(received, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What CinetPay answered, for the logs: never the request (it carries the API key). */
function describe(path: string, status: number, body: unknown): string {
  if (!isObject(body)) return `CinetPay ${path}: HTTP ${status}, not a JSON object`;
  const parts = [body.code, body.message, body.description].map(text).filter((part) => part !== null);
  return `CinetPay ${path}: HTTP ${status}, ${parts.join(" ") || "no code"}`;
}

export function createCinetPayProvider(config: CinetPayConfig): PaymentProvider {
  const apiUrl = (config.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, "");
  const fetchImpl = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function post(path: string, payload: Json): Promise<{ status: number; ok: boolean; body: unknown }> {
    try {
      const response = await fetchImpl(`${apiUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ apikey: config.apiKey, site_id: config.siteId, ...payload }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is read under the same timeout: a stalled answer is no answer.
      const raw = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      return { status: response.status, ok: response.ok, body };
    } catch (cause) {
      throw AppError.unavailable(UNREACHABLE, cause);
    }
  }

  return {
    id: "cinetpay",
    label: "Mobile money ou carte (CinetPay)",
    channels: ["mobile_money", "card"],

    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      // XOF has no minor unit and CinetPay only takes multiples of 5: never round a price here.
      if (!Number.isInteger(request.amount) || request.amount <= 0 || request.amount % 5 !== 0) {
        throw AppError.unavailable(NOT_OPENED, new Error(`CinetPay needs a positive whole amount, multiple of 5; got ${request.amount}`));
      }
      const { customer } = request;
      const { status, ok, body } = await post("/payment", {
        transaction_id: request.reference,
        amount: request.amount,
        currency: request.currency,
        description: cleanDescription(request.description),
        notify_url: request.notifyUrl,
        return_url: request.returnUrl,
        channels: CHANNELS[request.channel],
        lang: "fr",
        customer_id: customer.id,
        customer_name: customer.firstName,
        customer_surname: customer.lastName,
        customer_email: customer.email,
        // Stored as "+223 76 12 34 56"; CinetPay gets it without spaces.
        ...(customer.phone ? { customer_phone_number: customer.phone.replace(/\s+/g, "") } : {}),
        ...MALI_ADDRESS,
      });

      const data = isObject(body) ? body.data : undefined;
      const paymentUrl = isObject(data) ? text(data.payment_url) : null;
      if (!ok || !isObject(body) || text(body.code) !== "201" || !isObject(data) || !paymentUrl) {
        throw AppError.unavailable(NOT_OPENED, new Error(describe("/payment", status, body)));
      }
      let redirect: URL;
      try {
        redirect = new URL(paymentUrl);
      } catch (cause) {
        throw AppError.unavailable(NOT_OPENED, cause);
      }
      if (redirect.protocol !== "https:" && redirect.protocol !== "http:") {
        throw AppError.unavailable(NOT_OPENED, new Error(`CinetPay gave a ${redirect.protocol} payment URL`));
      }
      return { redirectUrl: redirect.href, providerReference: text(data.payment_token) };
    },

    async parseNotification(request: Request): Promise<{ reference: string } | null> {
      const token = request.headers.get("x-token");
      if (!token) return null;
      let form: FormData;
      try {
        // Handles both application/x-www-form-urlencoded and multipart/form-data.
        form = await request.formData();
      } catch {
        return null;
      }
      const field = (name: string) => {
        const value = form.get(name);
        return typeof value === "string" ? value : "";
      };
      const expected = createHmac("sha256", config.secretKey).update(SIGNED_FIELDS.map(field).join("")).digest("hex");
      if (!sameToken(token, expected)) return null;
      if (field("cpm_site_id") !== config.siteId) return null;
      const reference = field("cpm_trans_id");
      return reference ? { reference } : null;
    },

    async checkStatus(reference: string): Promise<ProviderStatus> {
      const { status, body } = await post("/payment/check", { transaction_id: reference });
      // A refusal is a well-formed answer whatever the HTTP status (the docs give none), so the
      // body decides; an answer without a transaction (bad key, unknown id) cannot be read as one.
      const data = isObject(body) ? body.data : undefined;
      const code = isObject(body) ? text(body.code) : null;
      const state = isObject(data) ? text(data.status) : null;
      const rawAmount = isObject(data) ? text(data.amount) : null;
      const amount = rawAmount === null ? Number.NaN : Number(rawAmount);
      const currency = isObject(data) ? text(data.currency) : null;
      if (!isObject(body) || !isObject(data) || !code || !state || !Number.isFinite(amount) || !currency) {
        throw AppError.unavailable(UNREACHABLE, new Error(describe("/payment/check", status, body)));
      }

      let outcome: ProviderStatus["status"];
      if (code === "00" && state === "ACCEPTED") outcome = "completed";
      else if (PENDING_CODES.has(code)) outcome = "pending";
      else if (FAILED_STATUSES.has(state) || FAILED_CODES.has(code)) outcome = "failed";
      // Anything else is neither granted nor given up: the next check will tell.
      else outcome = "pending";

      return {
        status: outcome,
        amount,
        currency,
        providerReference: text(data.operator_id),
        methodDetail: text(data.payment_method),
        message: text(body.message),
      };
    },
  };
}
