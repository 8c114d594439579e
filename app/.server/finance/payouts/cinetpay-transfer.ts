import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { PayoutOrder, PayoutOutcome, PayoutProvider } from "./provider";

/**
 * CinetPay's transfer API (docs.cinetpay.com, "Transfert d'argent"): a token from /v1/auth/login
 * (5 minutes), the recipient added as a contact (/v1/transfer/contact), the money sent to it
 * (/v1/transfer/money/send/contact) under our client_transaction_id, and its treatment_status
 * asked with /v1/transfer/check/money: NEW, REC and NOS are on their way, VAL is paid, REJ refused.
 */
export function createCinetPayTransferProvider(options: {
  id?: string;
  label?: string;
  apiKey: string;
  password: string;
  apiUrl: string;
  fetch?: typeof fetch;
}): PayoutProvider {
  const send = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, "");

  async function call(path: string, init: { method: "GET" | "POST"; query?: Record<string, string>; form?: Record<string, string> }) {
    const url = new URL(`${base}${path}`);
    url.searchParams.set("lang", "fr");
    for (const [key, value] of Object.entries(init.query ?? {})) url.searchParams.set(key, value);
    const response = await send(url, {
      method: init.method,
      headers: init.form ? { "Content-Type": "application/x-www-form-urlencoded" } : undefined,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => null)) as {
      code?: number | string;
      message?: string;
      description?: string;
      data?: unknown;
    } | null;
    if (!body) throw new Error(`CinetPay ${path} : réponse illisible (HTTP ${response.status}).`);
    return body;
  }

  async function token(): Promise<string> {
    const body = await call("/v1/auth/login", { method: "POST", form: { apikey: options.apiKey, password: options.password } });
    const data = body.data as { token?: string } | undefined;
    if (Number(body.code) !== 0 || !data?.token) throw new Error(`CinetPay : connexion refusée (${body.message ?? body.code}).`);
    return data.token;
  }

  function outcomeOf(status: string | undefined, transactionId: string | null, message: string | null): PayoutOutcome {
    if (status === "VAL") return { status: "paid", providerReference: transactionId, message: null };
    if (status === "REJ")
      return { status: "failed", providerReference: transactionId, message: message ?? "Transfert rejeté par CinetPay." };
    return { status: "processing", providerReference: transactionId, message: null };
  }

  return {
    id: options.id ?? "cinetpay",
    label: options.label ?? "Mobile money (CinetPay)",
    async send(order: PayoutOrder) {
      const phone = parsePhoneNumberFromString(order.recipient.phone, "ML");
      if (!phone?.isValid())
        return { status: "failed", providerReference: null, message: "Numéro de mobile money de l'enseignant invalide." };
      const prefix = phone.countryCallingCode;
      const number = phone.nationalNumber;
      const auth = await token();
      const contact = await call("/v1/transfer/contact", {
        method: "POST",
        query: { token: auth },
        form: {
          data: JSON.stringify([
            { prefix, phone: number, name: order.recipient.firstName, surname: order.recipient.lastName, email: order.recipient.email },
          ]),
        },
      });
      if (Number(contact.code) !== 0)
        return { status: "failed", providerReference: null, message: `Contact refusé : ${contact.description ?? contact.message}` };
      const sent = await call("/v1/transfer/money/send/contact", {
        method: "POST",
        query: { token: auth },
        form: {
          data: JSON.stringify([
            { prefix, phone: number, amount: order.amount, client_transaction_id: order.reference, notify_url: order.notifyUrl },
          ]),
        },
      });
      if (Number(sent.code) !== 0)
        return { status: "failed", providerReference: null, message: `Transfert refusé : ${sent.description ?? sent.message}` };
      const first = (sent.data as Array<Array<{ transaction_id?: string; treatment_status?: string }>> | undefined)?.[0]?.[0];
      return outcomeOf(first?.treatment_status, first?.transaction_id ?? null, null);
    },
    async check(reference: string) {
      const auth = await token();
      const body = await call("/v1/transfer/check/money", { method: "GET", query: { token: auth, client_transaction_id: reference } });
      if (Number(body.code) !== 0) return { status: "processing", providerReference: null, message: body.message ?? null };
      const first = (body.data as Array<{ transaction_id?: string; treatment_status?: string; comment?: string }> | undefined)?.[0];
      return outcomeOf(first?.treatment_status, first?.transaction_id ?? null, first?.comment ?? null);
    },
  };
}
