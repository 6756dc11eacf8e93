import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FAULT_IDS,
  type FakePayments,
  renderInvoiceV2,
  type SampleInvoice,
  sampleInvoices,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { PaymentsClient, type PaymentsClientOptions } from "../../src/payments/client.js";
import {
  BusyError,
  ServiceError,
  UnexpectedResponseError,
  UnreachableError,
} from "../../src/payments/errors.js";
import type { PaymentsAccount, ServiceTime } from "../../src/payments/model.js";
import { closedPort } from "../support/ports.js";

const LOGIN = "shop_register";
const SECRET = "Sekr3t-9d41f0c7-do-not-leak";
const WRONG_SECRET = "Wr0ng-Sekr3t-5b2e8a11-do-not-leak";
const ACCOUNT: PaymentsAccount = { login: LOGIN, secret: SECRET };

/** Fixed clock for the sample invoices, so their times are known exactly. */
const NOW = new Date("2025-03-10T09:30:00Z");
/** created_at = NOW - 2 h and expired_at = NOW + 22 h, written in Moscow time (UTC+3). */
const CREATED_AT: ServiceTime = {
  text: "2025-03-10 10:30:00",
  zone: "Europe/Moscow",
  epochSeconds: Date.UTC(2025, 2, 10, 7, 30, 0) / 1000,
};
const EXPIRED_AT: ServiceTime = {
  text: "2025-03-11 10:30:00",
  zone: "Europe/Moscow",
  epochSeconds: Date.UTC(2025, 2, 11, 7, 30, 0) / 1000,
};

const BTC_ID = "715308959_ProcessingBtc";
const PAID_ID = "715308962_PaidInFull";

let fake: FakePayments;

function client(overrides: Partial<PaymentsClientOptions> = {}): PaymentsClient {
  return new PaymentsClient({
    baseUrl: fake.url,
    defaultVersion: "v2",
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
    retryDelayMs: 10,
    ...overrides,
  });
}

function requestsFor(id: string) {
  return fake.requests.filter((request) => request.body?.id === id);
}

/** Every own property (enumerable or not), the cause chain included, as text. */
function everythingIn(error: Error, depth = 0): string {
  const own = Object.fromEntries(
    Object.getOwnPropertyNames(error).map((name) => [name, String(Reflect.get(error, name))]),
  );
  const cause = error.cause instanceof Error && depth < 5 ? everythingIn(error.cause, depth + 1) : "";
  return `${JSON.stringify(own)}${cause}`;
}

function expectNoSecret(error: Error): void {
  for (const secret of [SECRET, WRONG_SECRET]) {
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(String(error)).not.toContain(secret);
    expect(everythingIn(error)).not.toContain(secret);
  }
}

/** Awaits a call that must fail, checks the error's class and that it carries no secret. */
async function expectFailure<T extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => T,
): Promise<T> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  const error = caught as T;
  expectNoSecret(error);
  return error;
}

type Captured = {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
};

/** A local server answering every request with `reply`, recording what it was sent. */
async function startCapture(reply: { status: number; body: string; headers?: Record<string, string> }) {
  const captured: Captured[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      captured.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    captured,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeEach(async () => {
  fake = await startFakePayments({
    accounts: { [LOGIN]: SECRET },
    invoices: sampleInvoices(NOW),
    slowMs: 1000,
  });
});

afterEach(async () => {
  await fake.close();
});

describe("PaymentsClient.getInvoice: successful answers", () => {
  it("reads a v2 invoice with exact decimals and Moscow times", async () => {
    const invoice = await client().getInvoice(ACCOUNT, PAID_ID);
    expect(invoice).toEqual({
      id: PAID_ID,
      url: `https://pay.crystalpay.io/?i=${PAID_ID}`,
      state: "payed",
      type: "purchase",
      method: "CRYSTALPAY",
      requiredMethod: null,
      currency: "RUB",
      currencyConflict: null,
      amounts: {
        // v2 converts every invoice to RUB: `amount` is roubles whether or not a method is chosen.
        amount: { value: "12345678.9", currency: "RUB" },
        payAmount: { value: "12345678.9", currency: "RUB" },
        remainingAmount: { value: "0", currency: "RUB" },
        balanceAmount: { value: "12098765.32", currency: "RUB" },
      },
      commissions: {
        serviceCommission: { value: "246913.58", currency: "RUB" },
        extraCommission: { value: "0", currency: "RUB" },
      },
      subtractFrom: null,
      description: "Annual plan <!channel> & *bold* <https://evil.example|click>",
      extra: "crm:42",
      redirectUrl: "https://shop.example/thanks",
      callbackUrl: null,
      createdAt: CREATED_AT,
      expiredAt: EXPIRED_AT,
      finalAt: null,
      apiVersion: "v2",
    });
  });

  it("reads the v2 crypto sample in BTC, tiny amounts and 4.0e-6 as plain decimals", async () => {
    const invoice = await client().getInvoice(ACCOUNT, BTC_ID);
    expect(invoice.id).toBe(BTC_ID);
    expect(invoice.state).toBe("processing");
    expect(invoice.method).toBe("BITCOIN");
    expect(invoice.currency).toBe("BTC");
    expect(invoice.apiVersion).toBe("v2");
    // `amount` is the invoice amount in RUB (v2 converts it), never "1500 BTC".
    expect(invoice.amounts.amount).toEqual({ value: "1500", currency: "RUB" });
    expect(invoice.amounts.payAmount).toEqual({ value: "0.00017384", currency: "BTC" });
    expect(invoice.amounts.remainingAmount).toEqual({ value: "0.00017384", currency: "BTC" });
    expect(invoice.amounts.balanceAmount).toEqual({ value: "0.00016863", currency: "BTC" });
    expect(invoice.commissions).toEqual({
      serviceCommission: { value: "0.00000521", currency: "BTC" },
      extraCommission: { value: "0.000004", currency: "BTC" },
    });
    expect(invoice.createdAt).toEqual(CREATED_AT);
    expect(invoice.expiredAt).toEqual(EXPIRED_AT);
  });

  it("keeps the v2 currency on the amount while no method is chosen", async () => {
    const invoice = await client().getInvoice(ACCOUNT, "715308958_rPwTzvsvCm");
    expect(invoice.method).toBeNull();
    expect(invoice.state).toBe("notpayed");
    expect(invoice.description).toBe("Order #1042");
    expect(invoice.amounts).toEqual({
      amount: { value: "1500", currency: "RUB" },
      payAmount: { value: "1500", currency: "RUB" },
      remainingAmount: { value: "1500", currency: "RUB" },
      balanceAmount: { value: "1500", currency: "RUB" },
    });
  });

  it("reads a v3 invoice that names its currency only as `currency`", async () => {
    const id = "715308967_UsdCurrencyOnly";
    const invoice = await client({ defaultVersion: "v3" }).getInvoice(ACCOUNT, id);
    expect(invoice).toEqual({
      id,
      url: `https://pay.crystalpay.io/?i=${id}`,
      state: "notpayed",
      type: "purchase",
      method: null,
      requiredMethod: null,
      currency: "USD",
      currencyConflict: null,
      amounts: {
        amount: { value: "100", currency: "USD" },
        rubAmount: { value: "8146", currency: "RUB" },
        remainingAmount: { value: "100", currency: "USD" },
        balanceAmount: { value: "100", currency: "USD" },
      },
      commissions: { commissionAmount: { value: "0", currency: "USD" } },
      subtractFrom: "balance",
      description: null,
      extra: null,
      redirectUrl: null,
      callbackUrl: null,
      createdAt: CREATED_AT,
      expiredAt: EXPIRED_AT,
      finalAt: null,
      apiVersion: "v3",
    });
  });

  it("uses the account's own API version over the client's default", async () => {
    const invoice = await client({ defaultVersion: "v2" }).getInvoice(
      { ...ACCOUNT, apiVersion: "v3" },
      PAID_ID,
    );
    expect(invoice.apiVersion).toBe("v3");
    expect(invoice.amounts.amount).toEqual({ value: "12345678.9", currency: "RUB" });
    expect(fake.requests.map((request) => request.path)).toEqual(["/v3/invoice/info/"]);
  });
});

describe("PaymentsClient.getInvoice: the request", () => {
  it("POSTs login, secret and id to {baseUrl}v2/invoice/info/", async () => {
    await client().getInvoice(ACCOUNT, PAID_ID);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.path).toBe("/v2/invoice/info/");
    expect(fake.requests[0]?.body).toEqual({ auth_login: LOGIN, auth_secret: SECRET, id: PAID_ID });
  });

  it("POSTs to {baseUrl}v3/invoice/info/ for v3", async () => {
    await client({ defaultVersion: "v3" }).getInvoice(ACCOUNT, PAID_ID);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.path).toBe("/v3/invoice/info/");
    expect(fake.requests[0]?.body).toEqual({ auth_login: LOGIN, auth_secret: SECRET, id: PAID_ID });
  });

  it("sends method POST with content-type application/json and a JSON body", async () => {
    const invoice = sampleInvoices(NOW).find((sample) => sample.id === PAID_ID) as SampleInvoice;
    const capture = await startCapture({ status: 200, body: renderInvoiceV2(invoice) });
    try {
      await client({ baseUrl: capture.url }).getInvoice(ACCOUNT, PAID_ID);
      expect(capture.captured).toHaveLength(1);
      const request = capture.captured[0];
      expect(request?.method).toBe("POST");
      expect(request?.url).toBe("/v2/invoice/info/");
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request?.body ?? "")).toEqual({
        auth_login: LOGIN,
        auth_secret: SECRET,
        id: PAID_ID,
      });
    } finally {
      await capture.close();
    }
  });
});

describe("PaymentsClient.getInvoice: failures", () => {
  it("wrong credentials -> ServiceError with the service's message", async () => {
    const error = await expectFailure(
      client().getInvoice({ login: LOGIN, secret: WRONG_SECRET }, PAID_ID),
      ServiceError,
    );
    expect(error.kind).toBe("service");
    expect(error.messages).toEqual(["Invalid auth credentials"]);
    expect(error.message).toBe("payment service error: Invalid auth credentials");
    expect(fake.requests).toHaveLength(1);
  });

  it("unknown invoice -> ServiceError", async () => {
    const error = await expectFailure(client().getInvoice(ACCOUNT, "999999999_NoSuchInvoice"), ServiceError);
    expect(error.messages).toEqual(["Invoice not found"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("error=true without messages -> ServiceError with a fallback message", async () => {
    const capture = await startCapture({
      status: 200,
      body: JSON.stringify({ error: true, errors: ["", " "] }),
    });
    try {
      const error = await expectFailure(
        client({ baseUrl: capture.url }).getInvoice(ACCOUNT, PAID_ID),
        ServiceError,
      );
      expect(error.messages).toEqual(["The payment service reported an error without a message."]);
    } finally {
      await capture.close();
    }
  });

  it("HTML 502 -> UnreachableError http-status 502, after 1 try + 2 retries", async () => {
    const error = await expectFailure(client().getInvoice(ACCOUNT, FAULT_IDS.html502), UnreachableError);
    expect(error.kind).toBe("unreachable");
    expect(error.reason).toBe("http-status");
    expect(error.status).toBe(502);
    expect(error.message).toBe("payment service answered HTTP 502");
    expect(requestsFor(FAULT_IDS.html502)).toHaveLength(3);
    expect(fake.requests).toHaveLength(3);
  });

  it("honours the retries option (retries: 0 -> one request)", async () => {
    await expectFailure(client({ retries: 0 }).getInvoice(ACCOUNT, FAULT_IDS.html502), UnreachableError);
    expect(requestsFor(FAULT_IDS.html502)).toHaveLength(1);
  });

  it("flaky (502 once) -> succeeds on the retry, two requests (v2)", async () => {
    const invoice = await client().getInvoice(ACCOUNT, FAULT_IDS.flaky);
    expect(invoice.id).toBe(FAULT_IDS.flaky);
    expect(invoice.apiVersion).toBe("v2");
    expect(requestsFor(FAULT_IDS.flaky)).toHaveLength(2);
  });

  it("flaky (502 once) -> succeeds on the retry, two requests (v3)", async () => {
    const invoice = await client({ defaultVersion: "v3" }).getInvoice(ACCOUNT, FAULT_IDS.flaky);
    expect(invoice.id).toBe(FAULT_IDS.flaky);
    expect(invoice.apiVersion).toBe("v3");
    expect(requestsFor(FAULT_IDS.flaky).map((request) => request.path)).toEqual([
      "/v3/invoice/info/",
      "/v3/invoice/info/",
    ]);
  });

  it("refused connection -> UnreachableError network", async () => {
    const port = await closedPort();
    const error = await expectFailure(
      client({ baseUrl: `http://127.0.0.1:${port}/` }).getInvoice(ACCOUNT, PAID_ID),
      UnreachableError,
    );
    expect(error.reason).toBe("network");
    expect(error.status).toBeUndefined();
    expect(error.message).toBe("payment service could not be reached");
  });

  it("no answer within timeoutMs -> UnreachableError timeout", async () => {
    const error = await expectFailure(
      client({ timeoutMs: 200 }).getInvoice(ACCOUNT, FAULT_IDS.slow),
      UnreachableError,
    );
    expect(error.reason).toBe("timeout");
    expect(error.status).toBeUndefined();
    expect(error.message).toBe("payment service did not answer in time");
    // Each attempt has its own time-out, so both retries really reach the service.
    expect(requestsFor(FAULT_IDS.slow)).toHaveLength(3);
  });

  it("gives a retry after a 5xx its own time-out", async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html>502</html>");
        return;
      }
      // Later attempts answer long after the time-out.
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(renderInvoiceV2(sampleInvoices(NOW)[0] as SampleInvoice));
      }, 1500);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await expectFailure(
        client({ baseUrl: `http://127.0.0.1:${port}/`, timeoutMs: 200, retries: 1 }).getInvoice(
          ACCOUNT,
          "715308958_rPwTzvsvCm",
        ),
        UnreachableError,
      );
      expect(error.reason).toBe("timeout");
      expect(calls).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("broken JSON -> UnexpectedResponseError not-json", async () => {
    const error = await expectFailure(
      client().getInvoice(ACCOUNT, FAULT_IDS.brokenJson),
      UnexpectedResponseError,
    );
    expect(error.kind).toBe("unexpected");
    expect(error.reason).toBe("not-json");
    expect(error.detail).toBe('{"error":false,"errors":[],"id":"fault_broken_json","state":"notp');
    expect(requestsFor(FAULT_IDS.brokenJson)).toHaveLength(1);
  });

  it("empty body -> UnexpectedResponseError not-json", async () => {
    const error = await expectFailure(client().getInvoice(ACCOUNT, FAULT_IDS.empty), UnexpectedResponseError);
    expect(error.reason).toBe("not-json");
    expect(error.detail).toBe("empty body");
  });

  it("wrong types -> UnexpectedResponseError wrong-shape naming the fields", async () => {
    const error = await expectFailure(
      client().getInvoice(ACCOUNT, FAULT_IDS.wrongTypes),
      UnexpectedResponseError,
    );
    expect(error.reason).toBe("wrong-shape");
    expect(error.detail).toContain("state: ");
    expect(error.detail).toContain("amount: expected a decimal amount");
    expect(error.detail).toContain("created_at: expected YYYY-MM-DD HH:MM:SS");
  });

  it("JSON without the error flag -> UnexpectedResponseError wrong-shape", async () => {
    const capture = await startCapture({ status: 200, body: JSON.stringify({ id: PAID_ID }) });
    try {
      const error = await expectFailure(
        client({ baseUrl: capture.url }).getInvoice(ACCOUNT, PAID_ID),
        UnexpectedResponseError,
      );
      expect(error.reason).toBe("wrong-shape");
    } finally {
      await capture.close();
    }
  });

  it("a redirect -> UnreachableError http-status 301 with its target in the detail, not retried", async () => {
    const capture = await startCapture({
      status: 301,
      body: "",
      headers: { location: "https://api.crystalpay.io/v2/invoice/info/" },
    });
    try {
      const error = await expectFailure(
        client({ baseUrl: capture.url }).getInvoice(ACCOUNT, PAID_ID),
        UnreachableError,
      );
      expect(error.reason).toBe("http-status");
      expect(error.status).toBe(301);
      expect(error.detail).toContain("redirecting to https://api.crystalpay.io/v2/invoice/info/");
      expect(capture.captured).toHaveLength(1);
    } finally {
      await capture.close();
    }
  });

  it("an answer larger than the transport reads -> UnexpectedResponseError too-large", async () => {
    const huge = JSON.stringify({ error: false, errors: [], id: PAID_ID, padding: "x".repeat(8000) });
    const capture = await startCapture({ status: 200, body: huge });
    const small = client({ baseUrl: capture.url, transport: { maxResponseBytes: 4096 } });
    try {
      const error = await expectFailure(small.getInvoice(ACCOUNT, PAID_ID), UnexpectedResponseError);
      expect(error.reason).toBe("too-large");
      expect(error.detail).toBe("the answer is larger than 4096 bytes");
      expect(capture.captured).toHaveLength(1);
    } finally {
      small.close();
      await capture.close();
    }
  });

  it("an answer about another invoice -> UnexpectedResponseError", async () => {
    const error = await expectFailure(
      client().getInvoice(ACCOUNT, FAULT_IDS.otherInvoice),
      UnexpectedResponseError,
    );
    expect(error.reason).toBe("wrong-shape");
    expect(error.detail).toBe(`asked for invoice ${FAULT_IDS.otherInvoice}, got 715308958_rPwTzvsvCm`);
  });
});

describe("PaymentsClient: answers that would stall or mislead", () => {
  it("an amount of 1e99999 is an unexpected answer, refused before any digit is written out", async () => {
    const error = await expectFailure(
      client().getInvoice(ACCOUNT, FAULT_IDS.hugeExponent),
      UnexpectedResponseError,
    );
    expect(error.reason).toBe("wrong-shape");
    expect(error.detail).toContain("amount");
  });

  it("a body that is not the gzip it claims is an unreadable answer, not retried", async () => {
    const error = await expectFailure(
      client().getInvoice(ACCOUNT, FAULT_IDS.badGzip),
      UnexpectedResponseError,
    );
    expect(error.kind).toBe("unexpected");
    expect(error.reason).toBe("undecodable");
    expect(requestsFor(FAULT_IDS.badGzip)).toHaveLength(1);
  });

  it("an answer that never finishes is cut at the time-out, body included", async () => {
    const error = await expectFailure(
      client({ timeoutMs: 200, retries: 0 }).getInvoice(ACCOUNT, FAULT_IDS.neverEnding),
      UnreachableError,
    );
    expect(error.reason).toBe("timeout");
  });
});

describe("PaymentsClient: each cash register's budget", () => {
  let slow: FakePayments;
  beforeEach(async () => {
    slow = await startFakePayments({ accounts: { [LOGIN]: SECRET }, latencyMs: 150 });
  });
  afterEach(async () => {
    await slow.close();
  });

  it("under a burst, sends no more than the concurrency allows and tells the rest the service is busy", async () => {
    const busy = client({
      baseUrl: slow.url,
      queue: { concurrency: 2, ratePerSecond: 0, maxWaitMs: 400 },
    });
    const ids = Array.from({ length: 24 }, (_, index) => `9000${index}_Unknown`);
    const results = await Promise.allSettled(ids.map((id) => busy.getInvoice(ACCOUNT, id)));
    const reasons = results.map((result) => (result.status === "rejected" ? result.reason : result.value));
    const answered = reasons.filter((reason) => reason instanceof ServiceError);
    const refused = reasons.filter((reason) => reason instanceof BusyError);
    // Every lookup ends one way or the other; only the answered ones reached the service.
    expect(answered.length + refused.length).toBe(ids.length);
    expect(answered.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(slow.requests).toHaveLength(answered.length);
    for (const error of refused) expect((error as BusyError).kind).toBe("busy");
  });

  it("refuses at once, without sending, when the expected wait is past the bound", async () => {
    const busy = client({ baseUrl: slow.url, queue: { concurrency: 1, ratePerSecond: 0, maxWaitMs: 1000 } });
    // One lookup teaches the queue that a call takes ~150 ms; ten more would wait ~1.5 s.
    await expectFailure(busy.getInvoice(ACCOUNT, "1_Unknown"), ServiceError);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => busy.getInvoice(ACCOUNT, `2${index}_Unknown`)),
    );
    const queueFull = results.filter(
      (result) =>
        result.status === "rejected" &&
        result.reason instanceof BusyError &&
        result.reason.reason === "queue-full",
    );
    expect(queueFull.length).toBeGreaterThan(0);
    // Only the lookups that got a turn reached the service.
    const answered = results.filter(
      (result) => result.status === "rejected" && result.reason instanceof ServiceError,
    );
    expect(slow.requests).toHaveLength(1 + answered.length);
  });

  it("starts no more than ratePerSecond calls in the first second", async () => {
    const limited = client({
      baseUrl: slow.url,
      queue: { concurrency: 0, ratePerSecond: 4, maxWaitMs: 5000 },
    });
    await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => limited.getInvoice(ACCOUNT, `3${index}_X`)),
    );
    const times = slow.requests.map((request) => request.at);
    expect(times).toHaveLength(6);
    // A burst of four, then one token every 250 ms: the sixth cannot start before ~500 ms.
    expect((times[5] as number) - (times[0] as number)).toBeGreaterThanOrEqual(400);
  });

  it("keeps each register's budget apart", async () => {
    const shared = client({ baseUrl: slow.url, queue: { concurrency: 1, ratePerSecond: 0, maxWaitMs: 100 } });
    const other: PaymentsAccount = { login: "other_register", secret: "x" };
    const results = await Promise.allSettled([
      shared.getInvoice(ACCOUNT, "4_A"),
      shared.getInvoice(other, "4_B"),
    ]);
    // Both were sent at once (the other register's refusal is the service's, not the queue's).
    expect(
      results.every((result) => result.status === "rejected" && result.reason instanceof ServiceError),
    ).toBe(true);
  });
});

describe("PaymentsClient.createInvoice", () => {
  const draft = { amount: "1500.5", currency: "USD", lifetimeMinutes: 60, description: "Order 1" };
  const creates = () => fake.requests.filter((request) => request.path.endsWith("/invoice/create/"));

  it("creates in v2 (amount_currency) and v3 (currency); the invoice is readable afterwards", async () => {
    const v2 = await client().createInvoice(ACCOUNT, draft);
    expect(v2.url).toBe(`https://pay.crystalpay.io/?i=${v2.id}`);
    expect(creates()[0]?.body).toMatchObject({ amount: "1500.5", amount_currency: "USD", type: "purchase" });
    const v3 = await client().createInvoice({ ...ACCOUNT, apiVersion: "v3" }, draft);
    expect(creates()[1]?.body).toMatchObject({ amount: "1500.5", currency: "USD", lifetime: 60 });
    expect(creates()[1]?.body).not.toHaveProperty("amount_currency");
    const read = await client().getInvoice({ ...ACCOUNT, apiVersion: "v3" }, v3.id);
    expect(read.amounts.amount).toEqual({ value: "1500.5", currency: "USD" });
  });

  it("sends the payer's e-mail as payer_details on v3 only, and extra as given", async () => {
    const withEmail = { ...draft, payerDetails: "pay@acme.example", extra: "PO-7 kassa:abcdefgh23" };
    await client().createInvoice({ ...ACCOUNT, apiVersion: "v3" }, withEmail);
    expect(creates()[0]?.body).toMatchObject({
      payer_details: "pay@acme.example",
      extra: "PO-7 kassa:abcdefgh23",
    });
    await client().createInvoice(ACCOUNT, withEmail);
    expect(creates()[1]?.body).not.toHaveProperty("payer_details");
    expect(creates()[1]?.body).toMatchObject({ extra: "PO-7 kassa:abcdefgh23" });
  });

  it("passes the service's refusal on as a ServiceError", async () => {
    fake.createFault = "refuse";
    await expect(client().createInvoice(ACCOUNT, draft)).rejects.toBeInstanceOf(ServiceError);
  });

  it.each([
    ["html502", "http-status"],
    ["slow", "timeout"],
  ] as const)(
    "is sent once after a %s (it may have reached the service), never retried",
    async (fault, reason) => {
      fake.createFault = fault;
      const error = await client({ retries: 3, timeoutMs: 300 })
        .createInvoice(ACCOUNT, draft)
        .catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(UnreachableError);
      expect((error as UnreachableError).reason).toBe(reason);
      expect(creates()).toHaveLength(1);
    },
  );

  it("a refused connection (nothing sent) fails as unreachable", async () => {
    const error = await client({ baseUrl: `http://127.0.0.1:${await closedPort()}/` })
      .createInvoice(ACCOUNT, draft)
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ reason: "network" });
  });
});
