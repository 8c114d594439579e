/**
 * A local stand-in for CinetPay's transfer API, speaking its protocol (login, contact, send,
 * check), as a `fetch`: the sandbox payout provider in development, and the tests' provider. Its
 * transfers are validated at once (VAL), unless told to reject numbers or to leave them in process.
 */
export interface FakeCinetPayTransfer {
  fetch: typeof fetch;
  transfers: Map<string, { amount: number; phone: string; status: string; transactionId: string }>;
  /** What the next transfers get: VAL (paid), REC (in process) or REJ (rejected). */
  outcome: "VAL" | "REC" | "REJ";
  /** The number of "send" calls received, for idempotence checks. */
  sends: number;
}

export function createFakeCinetPayTransfer(options: { apiKey: string; password: string }): FakeCinetPayTransfer {
  const tokens = new Set<string>();
  const fake: FakeCinetPayTransfer = {
    transfers: new Map(),
    outcome: "VAL",
    sends: 0,
    fetch: async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const form = new URLSearchParams(typeof init?.body === "string" ? init.body : "");
      const reply = (body: unknown) => Response.json(body);
      if (url.pathname === "/v1/auth/login") {
        if (form.get("apikey") !== options.apiKey || form.get("password") !== options.password)
          return reply({ code: "701", message: "INVALID_CREDENTIALS", description: "Identifiant de connexion incorrect", data: [] });
        const token = crypto.randomUUID();
        tokens.add(token);
        return reply({ code: 0, message: "OPERATION_SUCCES", data: { token } });
      }
      if (!tokens.has(url.searchParams.get("token") ?? ""))
        return reply({ code: "706", message: "INVALID_TOKEN", description: "Votre token est invalide", data: [] });
      if (url.pathname === "/v1/transfer/contact") {
        const contacts = JSON.parse(form.get("data") ?? "[]") as Array<{ prefix: string; phone: string }>;
        return reply({ code: 0, message: "OPERATION_SUCCES", data: [contacts.map((contact) => ({ status: "success", ...contact }))] });
      }
      if (url.pathname === "/v1/transfer/money/send/contact") {
        fake.sends += 1;
        const orders = JSON.parse(form.get("data") ?? "[]") as Array<{
          prefix: string;
          phone: string;
          amount: number;
          client_transaction_id: string;
        }>;
        const results = orders.map((order) => {
          const existing = fake.transfers.get(order.client_transaction_id);
          if (existing)
            return { status: "error", code: "804", message: "TRANSACTION_EXIST", client_transaction_id: order.client_transaction_id };
          const transfer = {
            amount: order.amount,
            phone: `+${order.prefix}${order.phone}`,
            status: fake.outcome,
            transactionId: `TR${fake.transfers.size + 1}`.padEnd(12, "0"),
          };
          fake.transfers.set(order.client_transaction_id, transfer);
          return {
            status: "success",
            lot: "LOT1",
            amount: order.amount,
            transaction_id: transfer.transactionId,
            client_transaction_id: order.client_transaction_id,
            receiver: transfer.phone,
            treatment_status: transfer.status,
          };
        });
        return reply({ code: 0, message: "OPERATION_SUCCES", data: [results] });
      }
      if (url.pathname === "/v1/transfer/check/money") {
        const transfer = fake.transfers.get(url.searchParams.get("client_transaction_id") ?? "");
        if (!transfer) return reply({ code: "723", message: "NOT_FOUND", data: [] });
        return reply({
          code: 0,
          message: "OPERATION_SUCCES",
          data: [
            {
              transaction_id: transfer.transactionId,
              amount: transfer.amount,
              receiver: transfer.phone,
              treatment_status: transfer.status,
            },
          ],
        });
      }
      return new Response("Not found", { status: 404 });
    },
  };
  return fake;
}
