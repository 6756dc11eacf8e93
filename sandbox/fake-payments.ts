/**
 * A local stand-in for the payment service (CrystalPay, SPEC.md), used by the tests and by
 * `npm run demo`. It answers like the real one (HTTP 200 envelopes, v2 numbers and v3 strings) and,
 * on request, like a real one having a bad day: slow, HTML 502 from a proxy, broken JSON, wrong types.
 */

import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Big from "big.js";
import {
  type MethodChange,
  type MethodEditCall,
  type MethodEditFault,
  openMethodDesk,
} from "./fake-method-edit.js";
import { type FakePayoffs, openPayoffDesk, type PayoffCall } from "./fake-payoffs.js";
import { HTML_502 } from "./payments-http.js";
import {
  type HistoryRepeat,
  RAW,
  renderBalancesV2,
  renderBalancesV3,
  renderHistory,
  renderInvoiceV2,
  renderInvoiceV3,
  renderMethodsV2,
  renderMethodsV3,
  renderTicker,
  toJson,
} from "./payments-render.js";
import {
  type BalanceFault,
  type MethodsFault,
  moscowTime,
  SANDBOX_LOGIN,
  SANDBOX_SALT,
  SANDBOX_SECRET,
  type SampleBalance,
  type SampleInvoice,
  type SampleMethod,
  sampleBalances,
  sampleInvoices,
  sampleMethods,
  sampleRates,
} from "./payments-samples.js";

export type RecordedRequest = { path: string; body: Record<string, unknown> | null; at: number };

/**
 * Invoice ids that make the fake misbehave, so a test or the demo can ask for each fault by name.
 * `fault_flaky` fails with a 502 once per id, then answers normally (retries should hide it).
 */
export const FAULT_IDS = {
  slow: "fault_slow",
  html502: "fault_html502",
  brokenJson: "fault_broken_json",
  wrongTypes: "fault_wrong_types",
  empty: "fault_empty",
  flaky: "fault_flaky",
  otherInvoice: "fault_other_invoice",
  /** An amount of `1e99999`: 8 bytes of JSON that would be 100,000 digits. */
  hugeExponent: "fault_huge_exponent",
  /** Headers and the start of a body, then nothing, the connection left open. */
  neverEnding: "fault_never_ending",
  /** `Content-Encoding: gzip` over bytes that are not gzip. */
  badGzip: "fault_bad_gzip",
} as const;

export type FakePaymentsOptions = {
  /** Cash registers: login -> secret. */
  accounts?: Record<string, string>;
  invoices?: SampleInvoice[];
  /** How long `fault_slow` takes to answer (ms). */
  slowMs?: number;
  /** Added to every answer (ms). */
  latencyMs?: number;
  methods?: SampleMethod[];
  balances?: SampleBalance[];
  rates?: Record<string, string>;
  /** Cash registers' Secret 2 (the callback signatures' salt): login -> salt. */
  salts?: Record<string, string>;
};

/** One payment notification the fake posted to an invoice's callback_url. */
export type SentCallback = { invoiceId: string; url: string; status: number | "failed" };

export type FakePayments = {
  /** Root URL, as PAYMENTS_API_URL (ends with a slash, no version). */
  url: string;
  requests: RecordedRequest[];
  invoices: Map<string, SampleInvoice>;
  /** The register's methods; tests may replace or edit them between calls. */
  methods: SampleMethod[];
  /** When set, method list calls misbehave this way. */
  methodsFault: MethodsFault | null;
  /** When set, method/edit misbehaves this way (fake-method-edit.ts: refuse, applied-502, slow). */
  methodEditFault: MethodEditFault | null;
  /** The envelope errors of the `refuse` edit fault. */
  methodEditRefusal: string[];
  /** Every method/edit received, in order, refused ones too (a test counts "sent once"). */
  methodEdits: MethodEditCall[];
  /** Changes a method at the service behind Kassa's back: its switch, its surcharge (percent). */
  editMethodOutside(code: string, change: MethodChange): void;
  /** When set, every invoice info call answers with a proxy's HTML 502. */
  invoiceFault: "html502" | null;
  /** Invoice info of these ids answers only after this long (ms): a slow read of a real invoice. */
  readDelays: Map<string, number>;
  /** The customer pays the invoice in full now (as the service then reports it). */
  pay(id: string): void;
  /** ... or after `delayMs` (a live card's invoice that gets paid while it is watched). */
  payAfter(id: string, delayMs: number): void;
  /** The register's balances; tests may replace or edit them between calls. */
  balances: SampleBalance[];
  /** A register's own balances, by login, where a test gives it some (else `balances`). */
  balancesOf: Map<string, SampleBalance[]>;
  /** Rouble prices ticker/get answers with, by currency; a currency not listed is left out. */
  rates: Record<string, string>;
  /** When set, balance/info (v2) and balance/list (v3) misbehave this way. */
  balanceFault: BalanceFault | null;
  /** Faults of the invoice history (v2 history/payments, v3 report/invoice/history). */
  historyFault: BalanceFault | null;
  /** Every history page answers only after this long (ms): a long read a person can cancel. */
  historyDelayMs: number;
  /** Invoices the history lists more than once (by id), each copy with its own state and place. */
  historyRepeats: Map<string, HistoryRepeat[]>;
  /** When set, ticker/get misbehaves this way. */
  tickerFault: BalanceFault | null;
  /**
   * When set, invoice/create misbehaves: `refuse` answers with `createRefusal` (an envelope error),
   * `slow` answers (and creates) after slowMs, `slowRefuse` refuses after slowMs, `html502` is a
   * proxy's 502 (nothing created), `lost` creates the invoice and then answers a proxy's 502 (the
   * answer lost on its way back: the invoice exists, its creator was never told).
   */
  createFault: "refuse" | "slow" | "slowRefuse" | "html502" | "lost" | null;
  /** The envelope errors of the `refuse` fault. */
  createRefusal: string[];
  /** Ids of the invoices invoice/create made, in order. */
  created: string[];
  /**
   * POSTs the invoice's payment notification to its callback_url, as the service does when it is
   * paid (pay() does it by itself): the info fields in the version it was created with, plus
   * `signature` = sha1(id:salt). `body` overrides fields (a forged amount, a wrong signature).
   */
  sendCallback(id: string, body?: Record<string, unknown>): Promise<SentCallback>;
  /** Every notification posted, in order. */
  callbacks: SentCallback[];
  /** The payouts (payoff/*, the payout history): what the fake holds, its faults and hooks (fake-payoffs.ts). */
  payoffs: FakePayoffs;
  close(): Promise<void>;
};

/** The payout paths, each answered by fake-payoffs.ts. */
const PAYOFF_CALLS: Record<string, PayoffCall> = {
  "payoff/create": "create",
  "payoff/submit": "submit",
  "payoff/cancel": "cancel",
  "payoff/info": "info",
  "history/payoffs": "history",
  "report/payoff/history": "history",
};

function envelopeError(...messages: string[]): string {
  return JSON.stringify({ error: true, errors: messages });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakePayments(options: FakePaymentsOptions = {}): Promise<FakePayments> {
  const accounts = options.accounts ?? { [SANDBOX_LOGIN]: SANDBOX_SECRET };
  const salts = options.salts ?? { [SANDBOX_LOGIN]: SANDBOX_SALT };
  /** Which register created an invoice, and with which API version (its callback's shape). */
  const createdBy = new Map<string, { login: string; version: "v2" | "v3" }>();
  const invoices = new Map((options.invoices ?? sampleInvoices()).map((invoice) => [invoice.id, invoice]));
  const requests: RecordedRequest[] = [];
  const flakyFailed = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<import("node:net").Socket>();
  const methods = options.methods ?? sampleMethods();
  const balances = options.balances ?? sampleBalances();
  const rates = options.rates ?? sampleRates();
  const payoffDesk = openPayoffDesk({
    salts,
    methods: () => fake.methods,
    balances: () => fake.balances,
    rates: () => fake.rates,
    slowMs: options.slowMs ?? 4000,
    timers,
  });
  const methodDesk = openMethodDesk({
    methods: () => fake.methods,
    record: (call) => fake.methodEdits.push(call),
    fault: () => fake.methodEditFault,
    refusal: () => fake.methodEditRefusal,
    slowMs: options.slowMs ?? 4000,
    wait: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
  });
  const fake: FakePayments = {
    url: "",
    requests,
    invoices,
    methods,
    methodsFault: null,
    methodEditFault: null,
    methodEditRefusal: ["Editing payment methods is not available for this cash register now"],
    methodEdits: [],
    editMethodOutside: (code, change) => methodDesk.outside(code, change),
    invoiceFault: null,
    readDelays: new Map(),
    pay(id) {
      const invoice = invoices.get(id);
      if (!invoice) throw new Error(`the fake has no invoice ${id}`);
      invoice.state = "payed";
      invoice.remainingAmount = "0";
      invoice.method ??= "CRYSTALPAY";
      invoice.finalAt = moscowTime(new Date());
      if (invoice.callbackUrl) void fake.sendCallback(id);
    },
    payAfter(id, delayMs) {
      const timer = setTimeout(() => fake.pay(id), delayMs);
      timers.add(timer);
    },
    balances,
    balancesOf: new Map(),
    rates,
    balanceFault: null,
    historyFault: null,
    historyDelayMs: 0,
    historyRepeats: new Map(),
    tickerFault: null,
    createFault: null,
    createRefusal: ["Amount is less than the minimum for this cash register"],
    created: [],
    callbacks: [],
    payoffs: payoffDesk.payoffs,
    async sendCallback(id, overrides = {}) {
      const invoice = invoices.get(id);
      const origin = createdBy.get(id) ?? { login: SANDBOX_LOGIN, version: "v2" as const };
      if (!invoice?.callbackUrl) throw new Error(`the fake has no invoice ${id} with a callback_url`);
      const info = JSON.parse(origin.version === "v3" ? renderInvoiceV3(invoice) : renderInvoiceV2(invoice));
      delete info.error;
      delete info.errors;
      const salt = salts[origin.login] ?? "";
      const signature = createHash("sha1").update(`${id}:${salt}`).digest("hex");
      const sent: SentCallback = { invoiceId: id, url: invoice.callbackUrl, status: "failed" };
      try {
        const response = await fetch(invoice.callbackUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ...info, signature, ...overrides }),
          signal: AbortSignal.timeout(5000),
        });
        sent.status = response.status;
        await response.arrayBuffer();
      } catch {}
      fake.callbacks.push(sent);
      return sent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const answer = (res: ServerResponse, status: number, body: string, type = "application/json") => {
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const text = await readBody(req);
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
    } catch {}
    requests.push({ path, body, at: Date.now() });
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));

    const match =
      /^\/(v2|v3)\/(invoice\/info|invoice\/create|method\/list|method\/edit|method\/get|balance\/info|balance\/list|ticker\/get|history\/payments|report\/invoice\/history|payoff\/(?:create|submit|cancel|info)|history\/payoffs|report\/payoff\/history)\/?$/.exec(
        path,
      );
    // balance/info is v2's name, balance/list v3's.
    const wrongVersion =
      (match?.[2] === "balance/info" && match[1] !== "v2") ||
      (match?.[2] === "balance/list" && match[1] !== "v3") ||
      (match?.[2] === "method/get" && match[1] !== "v3") ||
      (match?.[2] === "history/payments" && match[1] !== "v2") ||
      (match?.[2] === "report/invoice/history" && match[1] !== "v3") ||
      (match?.[2] === "history/payoffs" && match[1] !== "v2") ||
      (match?.[2] === "report/payoff/history" && match[1] !== "v3");
    if (req.method !== "POST" || !match || wrongVersion)
      return answer(res, 404, "<html><body>404 Not Found</body></html>", "text/html");
    const version = match[1] as "v2" | "v3";
    if (!body) return answer(res, 200, envelopeError("Invalid JSON body"));
    for (const field of ["auth_login", "auth_secret"]) {
      if (typeof body[field] !== "string" || body[field] === "")
        return answer(res, 200, envelopeError(`\`${field}\` field is required`));
    }
    if (accounts[body.auth_login as string] !== body.auth_secret)
      return answer(res, 200, envelopeError("Invalid auth credentials"));

    const payoffCall = PAYOFF_CALLS[match[2] as string];
    if (payoffCall) {
      const { status, body: text, type } = await payoffDesk.handle(payoffCall, version, body);
      return answer(res, status, text, type);
    }
    if (match[2] === "invoice/info") {
      const id = body.id;
      if (typeof id !== "string" || id === "")
        return answer(res, 200, envelopeError("`id` field is required"));
      if (fake.invoiceFault === "html502") return answer(res, 502, HTML_502, "text/html");
      const delayMs = fake.readDelays.get(id);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      switch (id) {
        case FAULT_IDS.slow:
          await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 4000));
          return answer(res, 200, renderInvoiceV2({ ...sampleInvoices()[0], id } as SampleInvoice));
        case FAULT_IDS.html502:
          return answer(res, 502, HTML_502, "text/html");
        case FAULT_IDS.brokenJson:
          return answer(res, 200, '{"error":false,"errors":[],"id":"fault_broken_json","state":"notp');
        case FAULT_IDS.empty:
          return answer(res, 200, "");
        case FAULT_IDS.wrongTypes:
          return answer(
            res,
            200,
            JSON.stringify({
              ...JSON.parse(renderInvoiceV2({ ...(sampleInvoices()[0] as SampleInvoice), id })),
              amount: "lots",
              state: 7,
              created_at: "yesterday",
            }),
          );
        case FAULT_IDS.flaky:
          if (!flakyFailed.has(version)) {
            flakyFailed.add(version);
            return answer(res, 502, HTML_502, "text/html");
          }
          return answer(
            res,
            200,
            (version === "v3" ? renderInvoiceV3 : renderInvoiceV2)({
              ...(sampleInvoices()[0] as SampleInvoice),
              id,
            }),
          );
        case FAULT_IDS.otherInvoice:
          return answer(res, 200, renderInvoiceV2(sampleInvoices()[0] as SampleInvoice));
        case FAULT_IDS.hugeExponent:
          return answer(
            res,
            200,
            renderInvoiceV2({ ...(sampleInvoices()[0] as SampleInvoice), id, amount: "1e99999" }),
          );
        case FAULT_IDS.neverEnding:
          res.writeHead(200, { "content-type": "application/json" });
          res.write('{"error":false,"errors":[],"id":"fault_never_ending",');
          return;
        case FAULT_IDS.badGzip: {
          const garbage = "this is not gzip data at all";
          res.writeHead(200, {
            "content-type": "application/json",
            "content-encoding": "gzip",
            "content-length": Buffer.byteLength(garbage),
          });
          return res.end(garbage);
        }
      }
      const invoice = invoices.get(id);
      // Another register's invoice is not found, as at the service (an invoice of none is everyone's).
      if (!invoice || (invoice.login !== undefined && invoice.login !== body.auth_login))
        return answer(res, 200, envelopeError("Invoice not found"));
      return answer(res, 200, version === "v3" ? renderInvoiceV3(invoice) : renderInvoiceV2(invoice));
    }
    if (match[2] === "invoice/create") return createInvoice(res, body, version);
    if (match[2] === "method/edit" || match[2] === "method/get") {
      const sent = match[2] === "method/get" ? methodDesk.get(body) : await methodDesk.edit(version, body);
      return answer(res, sent.status, sent.body, sent.type);
    }
    if (match[2] === "history/payments" || match[2] === "report/invoice/history") {
      const fault = await misbehave(res, fake.historyFault, version === "v3" ? "items" : "payments");
      if (fault) return;
      if (fake.historyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.historyDelayMs));
      // Each register's own invoices (and those of none: the shared samples).
      const own = [...invoices.values()].filter(
        (invoice) => invoice.login === undefined || invoice.login === body.auth_login,
      );
      return answer(res, 200, renderHistory(own, body, version, fake.historyRepeats));
    }
    if (match[2] === "balance/info" || match[2] === "balance/list") {
      const fault = await misbehave(res, fake.balanceFault, version === "v3" ? "items" : "balances");
      if (fault) return;
      const hideEmpty = body.hide_empty === true;
      const own = fake.balancesOf.get(String(body.auth_login)) ?? fake.balances;
      return answer(
        res,
        200,
        version === "v3" ? renderBalancesV3(own, hideEmpty) : renderBalancesV2(own, hideEmpty),
      );
    }
    if (match[2] === "ticker/get") {
      const tickers = body.tickers;
      if (!Array.isArray(tickers) || tickers.length === 0 || !tickers.every((t) => typeof t === "string"))
        return answer(res, 200, envelopeError("`tickers` field is required"));
      const fault = await misbehave(res, fake.tickerFault, "currencies");
      if (fault) return;
      return answer(res, 200, renderTicker(fake.rates, tickers as string[], version));
    }
    switch (fake.methodsFault) {
      case "html502":
        return answer(res, 502, HTML_502, "text/html");
      case "brokenJson":
        return answer(res, 200, '{"error":false,"errors":[],"methods":{"BITCOIN":{"name":"Bitc');
      case "wrongTypes":
        return answer(res, 200, JSON.stringify({ error: false, errors: [], methods: "lots", items: "lots" }));
      case "oddEntry": {
        const good = JSON.parse(
          version === "v3" ? renderMethodsV3(fake.methods) : renderMethodsV2(fake.methods),
        ) as Record<string, Record<string, unknown>>;
        const list = good[version === "v3" ? "items" : "methods"] ?? {};
        list.ODDMETHOD = { name: 5, enabled: "yes", currency: null };
        return answer(res, 200, JSON.stringify(good));
      }
      case "invalidAuth":
        return answer(res, 200, envelopeError("Invalid auth credentials"));
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 4000));
        break;
    }
    return answer(res, 200, version === "v3" ? renderMethodsV3(fake.methods) : renderMethodsV2(fake.methods));
  };

  /**
   * invoice/create: checks the fields as the service does, keeps the invoice (readable with
   * invoice/info afterwards) and answers v2 `{id, url, amount, type}` or v3 `{id, url, type, rub_amount}`.
   * v2 names the invoice currency `amount_currency`, v3 `currency`; both convert it to roubles.
   */
  const createInvoice = async (res: ServerResponse, body: Record<string, unknown>, version: "v2" | "v3") => {
    if (fake.createFault === "html502") return answer(res, 502, HTML_502, "text/html");
    if (fake.createFault === "slowRefuse" || fake.createFault === "slow")
      await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 4000));
    if (fake.createFault === "refuse" || fake.createFault === "slowRefuse")
      return answer(res, 200, envelopeError(...fake.createRefusal));
    const amountText = typeof body.amount === "number" ? String(body.amount) : body.amount;
    if (typeof amountText !== "string" || !/^\d+(\.\d+)?$/.test(amountText) || new Big(amountText).lte(0))
      return answer(res, 200, envelopeError("`amount` field is invalid"));
    if (body.type !== "purchase" && body.type !== "topup")
      return answer(res, 200, envelopeError("`type` field is invalid"));
    const lifetime = body.lifetime;
    if (typeof lifetime !== "number" || !Number.isInteger(lifetime) || lifetime < 1 || lifetime > 4320)
      return answer(res, 200, envelopeError("`lifetime` must be from 1 to 4320 minutes"));
    const currencyField = version === "v3" ? "currency" : "amount_currency";
    const currency = body[currencyField] === undefined ? "RUB" : body[currencyField];
    const rate = currency === "RUB" ? "1" : fake.rates[String(currency)];
    if (typeof currency !== "string" || rate === undefined)
      return answer(res, 200, envelopeError(`Unsupported currency ${String(currency)}`));
    const text = (field: string) => (typeof body[field] === "string" ? (body[field] as string) : undefined);
    const now = new Date();
    const id = `${700000000 + requests.length}_${Math.random().toString(36).slice(2, 12)}`;
    const rubAmount = new Big(amountText).times(rate).round(2).toFixed();
    const invoice: SampleInvoice = {
      id,
      state: "notpayed",
      type: body.type,
      currency,
      amount: new Big(amountText).toFixed(),
      rubAmount,
      createdAt: moscowTime(now),
      expiredAt: moscowTime(new Date(now.getTime() + lifetime * 60_000)),
      login: String(body.auth_login),
    };
    const description = text("description");
    const extra = text("extra");
    const requiredMethod = text("required_method");
    const callbackUrl = text("callback_url");
    if (callbackUrl) invoice.callbackUrl = callbackUrl;
    createdBy.set(id, { login: String(body.auth_login), version });
    if (description) invoice.description = description;
    if (extra) invoice.extra = extra;
    if (requiredMethod) invoice.requiredMethod = requiredMethod;
    invoices.set(id, invoice);
    fake.created.push(id);
    if (fake.createFault === "lost") return answer(res, 502, HTML_502, "text/html");
    const url = `https://pay.crystalpay.io/?i=${id}`;
    return answer(
      res,
      200,
      version === "v3"
        ? toJson({ error: false, errors: [], id, url, type: body.type, rub_amount: rubAmount })
        : toJson({ error: false, errors: [], id, url, amount: RAW(rubAmount), type: body.type }),
    );
  };

  /** Answers with `fault` (true) or, for none or `slow` after the wait, leaves the answer to the caller. */
  const misbehave = async (res: ServerResponse, fault: BalanceFault | null, mapKey: string) => {
    switch (fault) {
      case "html502":
        answer(res, 502, HTML_502, "text/html");
        return true;
      case "brokenJson":
        answer(res, 200, `{"error":false,"errors":[],"${mapKey}":{"BITCOIN":{"amount":0.000`);
        return true;
      case "wrongTypes":
        answer(res, 200, JSON.stringify({ error: false, errors: [], [mapKey]: "lots" }));
        return true;
      case "oddEntry":
        answer(
          res,
          200,
          JSON.stringify({
            error: false,
            errors: [],
            [mapKey]: {
              LZTMARKET: { amount: "100", currency: "RUB", price: "1" },
              ODD: { amount: "lots", currency: 5 },
            },
          }),
        );
        return true;
      case "invalidAuth":
        answer(res, 200, envelopeError("Invalid auth credentials"));
        return true;
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 4000));
        return false;
      default:
        return false;
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answer(res, 500, String(error), "text/plain"));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return fake;
}

// Importers get the samples and renderers from here too (one module for "the fake payment service").
export * from "./payments-render.js";
export * from "./payments-samples.js";
