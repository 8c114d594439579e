import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCinetPayProvider } from "./cinetpay";
import { AppError } from "../../errors";
import type { CheckoutRequest } from "./provider";

const API_KEY = "12912847765bc0db748fdd44.40081707";
const SITE_ID = "445160";
const SECRET_KEY = "176118419568a9b10a66c829.71997677";

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/** A fake CinetPay: records what it receives and answers with whatever the test set. */
let received: Received[] = [];
let answer: (request: Received, res: ServerResponse) => void;
let server: Server;
let apiUrl: string;

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: Received = {
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>,
      };
      received.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  answer = (_request, res) => reply(res, 500, { message: "no answer set" });
});

function provider(overrides: { apiUrl?: string; timeoutMs?: number } = {}) {
  return createCinetPayProvider({ apiKey: API_KEY, siteId: SITE_ID, secretKey: SECRET_KEY, apiUrl, ...overrides });
}

const checkout: CheckoutRequest = {
  reference: "PAY-2025-00042",
  amount: 25_000,
  currency: "XOF",
  description: "Formation Intelligence Artificielle — ICEF",
  channel: "mobile_money",
  customer: { id: "user_42", firstName: "Awa", lastName: "Traoré", email: "awa@example.ml", phone: "+223 76 12 34 56" },
  returnUrl: "https://campus.example.ml/paiement/retour",
  notifyUrl: "https://campus.example.ml/api/paiements/notification/cinetpay",
};

const created = {
  code: "201",
  message: "CREATED",
  description: "Transaction created with success",
  data: {
    payment_token: "8a1b2c3d4e5f",
    payment_url: "https://checkout.cinetpay.com/payment/8a1b2c3d4e5f",
  },
  api_response_id: "1663323067.7677",
};

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error("expected an AppError");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: "unavailable" });
  return error as AppError;
}

describe("createCheckout", () => {
  it("opens a payment with the documented fields and returns CinetPay's page", async () => {
    answer = (_request, res) => reply(res, 200, created);

    const session = await provider().createCheckout(checkout);

    expect(session).toEqual({
      redirectUrl: "https://checkout.cinetpay.com/payment/8a1b2c3d4e5f",
      providerReference: "8a1b2c3d4e5f",
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: "POST", path: "/v2/payment", contentType: "application/json" });
    expect(request!.body).toEqual({
      apikey: API_KEY,
      site_id: SITE_ID,
      transaction_id: "PAY-2025-00042",
      amount: 25_000,
      currency: "XOF",
      description: "Formation Intelligence Artificielle — ICEF",
      notify_url: "https://campus.example.ml/api/paiements/notification/cinetpay",
      return_url: "https://campus.example.ml/paiement/retour",
      channels: "MOBILE_MONEY",
      lang: "fr",
      customer_id: "user_42",
      customer_name: "Awa",
      customer_surname: "Traoré",
      customer_email: "awa@example.ml",
      customer_phone_number: "+22376123456",
      customer_address: "Bamako",
      customer_city: "Bamako",
      customer_country: "ML",
      customer_state: "ML",
      customer_zip_code: "00223",
    });
  });

  it("asks for the card universe, without a phone when the learner gave none", async () => {
    answer = (_request, res) => reply(res, 200, created);

    await provider().createCheckout({
      ...checkout,
      channel: "card",
      description: "Cours #3 / Python & IA_débutant $",
      customer: { ...checkout.customer, phone: null },
    });

    const body = received[0]!.body;
    expect(body.channels).toBe("CREDIT_CARD");
    expect(body).not.toHaveProperty("customer_phone_number");
    expect(body.description).toBe("Cours 3 Python IA débutant");
  });

  it("turns a refused initialization into an error a learner can read, keeping CinetPay's code", async () => {
    answer = (_request, res) =>
      reply(res, 400, {
        code: "608",
        message: "MINIMUM_REQUIRED_FIELDS",
        description: "Le champ notify_url est requis",
        api_response_id: "1663323224.8402",
      });

    const error = await rejection(provider().createCheckout(checkout));
    expect(error.message).toBe("Le paiement en ligne n'a pas pu être ouvert. Réessayez dans un instant, ou payez en espèces à l'institut.");
    expect(String(error.cause)).toContain("HTTP 400, 608 MINIMUM_REQUIRED_FIELDS");
    expect(String(error.cause)).not.toContain(API_KEY);
  });

  it("refuses an error code with HTTP 200, a success without a payment page, a success with HTTP 500", async () => {
    answer = (_request, res) => reply(res, 200, { code: "609", message: "AUTH_NOT_FOUND" });
    expect(String((await rejection(provider().createCheckout(checkout))).cause)).toContain("609 AUTH_NOT_FOUND");

    answer = (_request, res) => reply(res, 201, { code: "201", message: "CREATED", data: { payment_token: "t" } });
    await rejection(provider().createCheckout(checkout));

    answer = (_request, res) => reply(res, 200, { ...created, data: { payment_url: "javascript:alert(1)" } });
    await rejection(provider().createCheckout(checkout));

    answer = (_request, res) => reply(res, 500, created);
    await rejection(provider().createCheckout(checkout));
  });

  it("does not send an amount CinetPay cannot take", async () => {
    await rejection(provider().createCheckout({ ...checkout, amount: 25_002 }));
    await rejection(provider().createCheckout({ ...checkout, amount: 0 }));
    await rejection(provider().createCheckout({ ...checkout, amount: 100.5 }));
    expect(received).toHaveLength(0);
  });

  it("reports an unreachable provider", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await rejection(provider({ apiUrl: `http://127.0.0.1:${port}/v2` }).createCheckout(checkout));
    expect(error.message).toBe("Le service de paiement ne répond pas. Réessayez dans un instant.");
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("gives up on a provider that does not answer in time", async () => {
    answer = () => {
      // Never answers.
    };
    const started = Date.now();
    const error = await rejection(provider({ timeoutMs: 150 }).createCheckout(checkout));
    expect(error.message).toBe("Le service de paiement ne répond pas. Réessayez dans un instant.");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports an answer that is not CinetPay's (a proxy's error page)", async () => {
    answer = (_request, res) => res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>");
    const error = await rejection(provider().createCheckout(checkout));
    expect(String(error.cause)).toContain("HTTP 502, not a JSON object");
  });
});

/** The fields CinetPay posts to notify_url, in the documented order. */
const notification: Record<string, string> = {
  cpm_site_id: SITE_ID,
  cpm_trans_id: "PAY-2025-00042",
  cpm_trans_date: "2025-03-14 10:21:07",
  cpm_amount: "25000",
  cpm_currency: "XOF",
  signature: "95db7a68358e8cb8831db947d8abcfef002af755",
  payment_method: "OM",
  cel_phone_num: "76123456",
  cpm_phone_prefixe: "223",
  cpm_language: "fr",
  cpm_version: "V4",
  cpm_payment_config: "Single",
  cpm_page_action: "Payment",
  cpm_custom: "ref PAY-2025-00042",
  cpm_designation: "Formation Intelligence Artificielle",
  cpm_error_message: "SUCCES",
};

function xToken(fields: Record<string, string>, secret = SECRET_KEY): string {
  return createHmac("sha256", secret).update(Object.values(fields).join("")).digest("hex");
}

function notify(fields: Record<string, string>, token: string | null, as: "urlencoded" | "multipart" = "urlencoded") {
  const headers = new Headers(token === null ? {} : { "x-token": token });
  let body: URLSearchParams | FormData;
  if (as === "urlencoded") {
    body = new URLSearchParams(fields);
  } else {
    body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
  }
  return new Request("https://campus.example.ml/api/paiements/notification/cinetpay", { method: "POST", headers, body });
}

describe("parseNotification", () => {
  it("returns the reference of a notification signed with the secret key", async () => {
    const result = await provider().parseNotification(notify(notification, xToken(notification)));
    expect(result).toEqual({ reference: "PAY-2025-00042" });
  });

  it("reads a multipart notification too", async () => {
    const result = await provider().parseNotification(notify(notification, xToken(notification), "multipart"));
    expect(result).toEqual({ reference: "PAY-2025-00042" });
  });

  it("counts absent fields as empty, as the documented concatenation does", async () => {
    const { cpm_custom: _custom, cpm_error_message: _message, ...partial } = notification;
    const token = xToken({ ...partial, cpm_custom: "", cpm_error_message: "" });
    expect(await provider().parseNotification(notify(partial, token))).toEqual({ reference: "PAY-2025-00042" });
  });

  it("rejects a missing, forged or truncated token", async () => {
    const cinetpay = provider();
    expect(await cinetpay.parseNotification(notify(notification, null))).toBeNull();
    expect(await cinetpay.parseNotification(notify(notification, xToken(notification, "not-the-secret")))).toBeNull();
    expect(await cinetpay.parseNotification(notify(notification, xToken(notification).slice(0, 40)))).toBeNull();
    expect(await cinetpay.parseNotification(notify(notification, `${xToken(notification)}00`))).toBeNull();
    expect(await cinetpay.parseNotification(notify(notification, "é".repeat(32)))).toBeNull();
  });

  it("rejects a notification whose fields were changed after signing", async () => {
    const token = xToken(notification);
    const result = await provider().parseNotification(notify({ ...notification, cpm_trans_id: "PAY-2025-00043" }, token));
    expect(result).toBeNull();
  });

  it("rejects a genuine signature for another site", async () => {
    const elsewhere = { ...notification, cpm_site_id: "999999" };
    expect(await provider().parseNotification(notify(elsewhere, xToken(elsewhere)))).toBeNull();
  });

  it("rejects a body that is not a form", async () => {
    const request = new Request("https://campus.example.ml/api/paiements/notification/cinetpay", {
      method: "POST",
      headers: { "x-token": xToken(notification), "content-type": "application/json" },
      body: JSON.stringify(notification),
    });
    expect(await provider().parseNotification(request)).toBeNull();
  });
});

function checkAnswer(code: string, message: string, data: Record<string, unknown>) {
  return {
    code,
    message,
    data: {
      amount: "25000",
      currency: "XOF",
      description: "Formation Intelligence Artificielle",
      metadata: null,
      operator_id: null,
      payment_date: " ",
      fund_availability_date: "2025-03-16 00:00:00",
      ...data,
    },
    api_response_id: "1663323067.7677",
  };
}

describe("checkStatus", () => {
  it("reads an accepted payment, asking with the API key, site and transaction id", async () => {
    answer = (_request, res) =>
      reply(
        res,
        200,
        checkAnswer("00", "SUCCES", {
          status: "ACCEPTED",
          payment_method: "OM",
          operator_id: "MP250314.1021.A76307",
          payment_date: "2025-03-14 10:21:07",
        }),
      );

    const status = await provider().checkStatus("PAY-2025-00042");

    expect(status).toEqual({
      status: "completed",
      amount: 25_000,
      currency: "XOF",
      providerReference: "MP250314.1021.A76307",
      methodDetail: "OM",
      message: "SUCCES",
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", path: "/v2/payment/check", contentType: "application/json" });
    expect(received[0]!.body).toEqual({ apikey: API_KEY, site_id: SITE_ID, transaction_id: "PAY-2025-00042" });
  });

  it("passes the amount and currency through as CinetPay reports them", async () => {
    answer = (_request, res) => reply(res, 200, checkAnswer("00", "SUCCES", { status: "ACCEPTED", amount: 24_995, currency: "XAF" }));
    expect(await provider().checkStatus("PAY-2025-00042")).toMatchObject({
      status: "completed",
      amount: 24_995,
      currency: "XAF",
    });
  });

  it("reads a cancelled or failed payment as failed, with CinetPay's message", async () => {
    answer = (_request, res) => reply(res, 200, checkAnswer("627", "TRANSACTION_CANCEL", { status: "REFUSED", payment_method: "MOMO" }));
    expect(await provider().checkStatus("PAY-2025-00042")).toEqual({
      status: "failed",
      amount: 25_000,
      currency: "XOF",
      providerReference: null,
      methodDetail: "MOMO",
      message: "TRANSACTION_CANCEL",
    });

    answer = (_request, res) => reply(res, 200, checkAnswer("600", "PAYMENT_FAILED", { status: "PENDING" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("failed");

    answer = (_request, res) => reply(res, 200, checkAnswer("00", "SUCCES", { status: "CANCELED" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("failed");
  });

  it("reads a refusal sent with a 4xx status as a refusal", async () => {
    answer = (_request, res) => reply(res, 400, checkAnswer("627", "TRANSACTION_CANCEL", { status: "REFUSED" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("failed");
  });

  it("keeps a payment awaiting the learner's approval pending", async () => {
    answer = (_request, res) =>
      reply(res, 200, checkAnswer("662", "WAITING_CUSTOMER_PAYMENT", { status: "REFUSED", payment_method: "OMML" }));
    expect(await provider().checkStatus("PAY-2025-00042")).toMatchObject({
      status: "pending",
      methodDetail: "OMML",
      message: "WAITING_CUSTOMER_PAYMENT",
    });

    answer = (_request, res) => reply(res, 200, checkAnswer("623", "WAITING_CUSTOMER_TO_VALIDATE", { status: "PENDING" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("pending");
  });

  it("never grants an unknown state, nor gives up on it", async () => {
    answer = (_request, res) => reply(res, 200, checkAnswer("00", "SUCCES", { status: "PENDING" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("pending");

    answer = (_request, res) => reply(res, 200, checkAnswer("201", "CREATED", { status: "ACCEPTED" }));
    expect((await provider().checkStatus("PAY-2025-00042")).status).toBe("pending");
  });

  it("reports an answer that says nothing about the transaction", async () => {
    answer = (_request, res) => reply(res, 403, { code: "609", message: "AUTH_NOT_FOUND", api_response_id: "1" });
    const error = await rejection(provider().checkStatus("PAY-2025-00042"));
    expect(error.message).toBe("Le service de paiement ne répond pas. Réessayez dans un instant.");
    expect(String(error.cause)).toContain("HTTP 403, 609 AUTH_NOT_FOUND");

    answer = (_request, res) => reply(res, 200, checkAnswer("00", "SUCCES", { status: "ACCEPTED", amount: null }));
    await rejection(provider().checkStatus("PAY-2025-00042"));
  });

  it("uses the injected fetch", async () => {
    const calls: string[] = [];
    const cinetpay = createCinetPayProvider({
      apiKey: API_KEY,
      siteId: SITE_ID,
      secretKey: SECRET_KEY,
      fetch: async (input) => {
        calls.push(String(input));
        throw new TypeError("fetch failed");
      },
    });
    await rejection(cinetpay.checkStatus("PAY-2025-00042"));
    expect(calls).toEqual(["https://api-checkout.cinetpay.com/v2/payment/check"]);
  });
});
