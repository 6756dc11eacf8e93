/**
 * A local stand-in for the payment service (CrystalPay, SPEC.md), used by the tests and by
 * `npm run demo`. It answers like the real one (HTTP 200 envelopes, v2 numbers and v3 strings) and,
 * on request, like a real one having a bad day: slow, HTML 502 from a proxy, broken JSON, wrong types.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Big from "big.js";

/** One invoice, described once and rendered in either API version's shape. Amounts are decimal text. */
export type SampleInvoice = {
  id: string;
  state: string;
  type?: string;
  method?: string | null;
  requiredMethod?: string;
  /** The invoice's own currency (v3 `amount_currency` / `currency`; v2 converts it to RUB). */
  currency: string;
  /** v2 only: set when the payer picked a method with another currency (v2 `currency` becomes it). */
  payCurrency?: string;
  /** In `currency`. v2 shows it as `rubAmount` (or itself when the currency is RUB). */
  amount: string;
  /** Which v3 revision answers: both names (newest, default), `amount_currency` only, `currency` only. */
  v3Revision?: "newer" | "older" | "currency-only";
  payAmount?: string;
  remainingAmount?: string;
  balanceAmount?: string;
  rubAmount?: string;
  serviceCommission?: string;
  extraCommission?: string;
  description?: string;
  extra?: string;
  redirectUrl?: string;
  callbackUrl?: string;
  url?: string;
  createdAt: string;
  expiredAt: string;
  finalAt?: string;
  /** The cash register (login) it belongs to; unset: every register's history lists it. */
  login?: string;
};

/** One payment method as the sandbox register has it. Amounts and percents are decimal text. */
export type SampleMethod = {
  code: string;
  name: string;
  currency: string;
  enabled: boolean;
  commissionPercent: string;
  /** Fixed fee in the method's currency. */
  commission: string;
  extraCommissionPercent: string;
  minimalStatusLevel: number;
  /** Decimals of the currency (v3 amount_accuracy). */
  accuracy: number;
  /** v3: disabled by the service itself although the merchant enabled it. */
  serviceDisabled?: boolean;
  /** v3: a payout-only method, sent without `in` (v2's list, of payment methods, leaves it out). */
  payoutOnly?: boolean;
  /** v3 `in.limits`, in the method's currency; "0" means no limit. Default: by currency. */
  limits?: { min: string; max: string };
};

/** A payout-only method as v3 lists it (no `in`), for tests and the demo. */
export function payoutOnlyMethod(code = "CARDRUBPAYOUT", name = "Card RUB payout"): SampleMethod {
  return {
    code,
    name,
    currency: "RUB",
    enabled: false,
    commissionPercent: "0",
    commission: "0",
    extraCommissionPercent: "0",
    minimalStatusLevel: 0,
    accuracy: 2,
    payoutOnly: true,
  };
}

/**
 * Faults the method list can be told to show (`fake.methodsFault = ...`). `wrongTypes`: the list
 * itself is not a map; `oddEntry`: one entry among the good ones has wrong types.
 */
export type MethodsFault = "html502" | "brokenJson" | "wrongTypes" | "oddEntry" | "slow" | "invalidAuth";

/** One balance of the sandbox register (amount as decimal text, in the method's currency). */
export type SampleBalance = {
  code: string;
  name: string;
  currency: string;
  amount: string;
  accuracy: number;
};

/**
 * Faults the balance calls (`fake.balanceFault`) and the rates call (`fake.tickerFault`) can show.
 * `wrongTypes`: the map itself is not a map; `oddEntry`: one entry has wrong types.
 */
export type BalanceFault = MethodsFault;

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
  /** When set, every invoice info call answers with a proxy's HTML 502. */
  invoiceFault: "html502" | null;
  /** The customer pays the invoice in full now (as the service then reports it). */
  pay(id: string): void;
  /** ... or after `delayMs` (a live card's invoice that gets paid while it is watched). */
  payAfter(id: string, delayMs: number): void;
  /** The register's balances; tests may replace or edit them between calls. */
  balances: SampleBalance[];
  /** Rouble prices ticker/get answers with, by currency; a currency not listed is left out. */
  rates: Record<string, string>;
  /** When set, balance/info (v2) and balance/list (v3) misbehave this way. */
  balanceFault: BalanceFault | null;
  /** Faults of the invoice history (v2 history/payments, v3 report/invoice/history). */
  historyFault: BalanceFault | null;
  /** When set, ticker/get misbehaves this way. */
  tickerFault: BalanceFault | null;
  /**
   * When set, invoice/create misbehaves: `refuse` answers with `createRefusal` (an envelope error),
   * `slow` answers (and creates) after slowMs, `slowRefuse` refuses after slowMs, `html502` is a
   * proxy's 502 (nothing created).
   */
  createFault: "refuse" | "slow" | "slowRefuse" | "html502" | null;
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
  close(): Promise<void>;
};

export const SANDBOX_SALT = "sandbox-secret2-41d7b0";

export const SANDBOX_LOGIN = "sandbox_register";
export const SANDBOX_SECRET = "sandbox-secret-7f3a9c";

const pad = (n: number) => String(n).padStart(2, "0");
/** `YYYY-MM-DD HH:MM:SS` in Moscow time (UTC+3, no DST), as the service writes it. */
export function moscowTime(date: Date): string {
  const shifted = new Date(date.getTime() + 3 * 3600 * 1000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

/** One invoice per known state, plus the awkward cases a real register produces. */
export function sampleInvoices(now: Date = new Date()): SampleInvoice[] {
  const hours = (h: number) => moscowTime(new Date(now.getTime() + h * 3600 * 1000));
  const base = { type: "purchase", currency: "RUB", createdAt: hours(-2), expiredAt: hours(22) };
  return [
    { ...base, id: "715308958_rPwTzvsvCm", state: "notpayed", amount: "1500", description: "Order #1042" },
    {
      ...base,
      id: "715308959_ProcessingBtc",
      state: "processing",
      method: "BITCOIN",
      amount: "1500",
      payCurrency: "BTC",
      payAmount: "0.00017384",
      remainingAmount: "0.00017384",
      balanceAmount: "0.00016863",
      serviceCommission: "0.00000521",
      extraCommission: "4.0e-6",
      rubAmount: "1500",
    },
    {
      ...base,
      id: "715308960_WrongAmount",
      state: "wrongamount",
      method: "CARDRUBP2P",
      amount: "2500.5",
      remainingAmount: "500.25",
      balanceAmount: "1950.13",
      serviceCommission: "50.12",
    },
    { ...base, id: "715308961_FailedPay", state: "failed", method: "CARDTRYP2P", amount: "990.99" },
    {
      ...base,
      id: "715308962_PaidInFull",
      state: "payed",
      method: "CRYSTALPAY",
      amount: "12345678.9",
      remainingAmount: "0",
      balanceAmount: "12098765.32",
      serviceCommission: "246913.58",
      extraCommission: "0",
      finalAt: hours(-1),
      description: "Annual plan <!channel> & *bold* <https://evil.example|click>",
      extra: "crm:42",
    },
    {
      ...base,
      id: "715308963_Unavailable",
      state: "unavailable",
      method: "TEST",
      requiredMethod: "TEST",
      amount: "10",
    },
    {
      ...base,
      id: "715308964_ExpiredUnpaid",
      state: "notpayed",
      type: "topup",
      amount: "0.1",
      createdAt: hours(-48),
      expiredAt: hours(-24),
    },
    { ...base, id: "715308965_FutureState", state: "refunded", type: "subscription", amount: "42" },
    // The v2 payment callback example: paid by BITCOIN, amount in RUB, the rest in BTC.
    {
      ...base,
      id: "715308966_PaidBitcoin",
      state: "payed",
      method: "BITCOIN",
      amount: "100",
      payCurrency: "BTC",
      payAmount: "0.1",
      remainingAmount: "0.1",
      balanceAmount: "0.1",
      finalAt: hours(-1),
    },
    // The v3 invoice/info example's figures, from a revision that sends `currency` only.
    {
      ...base,
      id: "715308967_UsdCurrencyOnly",
      state: "notpayed",
      currency: "USD",
      amount: "100",
      rubAmount: "8146",
      v3Revision: "currency-only",
    },
    // The same from an older revision that sends `amount_currency` only (and no `amount`).
    {
      ...base,
      id: "715308968_UsdOlderRevision",
      state: "notpayed",
      currency: "USD",
      amount: "100",
      rubAmount: "8146",
      v3Revision: "older",
    },
  ];
}

/** v2 converts every invoice to roubles: `amount` is RUB, and `currency` is RUB until a method's. */
function withDefaults(invoice: SampleInvoice) {
  const rubAmount = invoice.currency === "RUB" ? invoice.amount : (invoice.rubAmount ?? invoice.amount);
  return {
    rubAmount,
    payCurrency: invoice.payCurrency ?? "RUB",
    payAmount: invoice.payAmount ?? rubAmount,
    remainingAmount: invoice.remainingAmount ?? (invoice.state === "payed" ? "0" : rubAmount),
    balanceAmount: invoice.balanceAmount ?? rubAmount,
    serviceCommission: invoice.serviceCommission ?? "0",
    extraCommission: invoice.extraCommission ?? "0",
    url: invoice.url ?? `https://pay.crystalpay.io/?i=${invoice.id}`,
  };
}

/** Marks a value to be written as a bare JSON number exactly as given ("4.0e-6"), like the PHP backend. */
const RAW = (text: string) => `\u0000RAW:${text}\u0000`;
function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000RAW:([^"\\]*)\\u0000"/g, "$1");
}

export function renderInvoiceV2(invoice: SampleInvoice): string {
  const d = withDefaults(invoice);
  return toJson({
    error: false,
    errors: [],
    id: invoice.id,
    url: d.url,
    state: invoice.state,
    type: invoice.type ?? "purchase",
    method: invoice.method ?? null,
    required_method: invoice.requiredMethod ?? "",
    currency: d.payCurrency,
    service_commission: RAW(d.serviceCommission),
    extra_commission: RAW(d.extraCommission),
    amount: RAW(d.rubAmount),
    pay_amount: RAW(d.payAmount),
    remaining_amount: RAW(d.remainingAmount),
    balance_amount: RAW(d.balanceAmount),
    description: invoice.description ?? "",
    redirect_url: invoice.redirectUrl ?? "https://shop.example/thanks",
    callback_url: invoice.callbackUrl ?? "",
    extra: invoice.extra ?? "",
    created_at: invoice.createdAt,
    expired_at: invoice.expiredAt,
  });
}

/**
 * v3: every amount in the invoice currency (`currency`, formerly `amount_currency`), plus
 * `rub_amount`. No public example shows a v3 invoice after a crypto pick, so a sample's v2-only
 * pay-currency amounts are not carried over: the invoice-currency figures stand in for them.
 */
export function renderInvoiceV3(invoice: SampleInvoice): string {
  const d = withDefaults(invoice);
  const inInvoiceCurrency = invoice.payCurrency === undefined;
  const remaining =
    (inInvoiceCurrency ? invoice.remainingAmount : undefined) ??
    (invoice.state === "payed" ? "0" : invoice.amount);
  const balance = (inInvoiceCurrency ? invoice.balanceAmount : undefined) ?? invoice.amount;
  const commission = inInvoiceCurrency ? d.serviceCommission : "0";
  const revision = invoice.v3Revision ?? "newer";
  // v3 writes decimal strings with the currency's precision, never exponents.
  const decimal = (text: string) => (/e/i.test(text) ? Number(text).toFixed(8) : text);
  return toJson({
    error: false,
    errors: [],
    id: invoice.id,
    url: d.url,
    state: invoice.state,
    type: invoice.type ?? "purchase",
    method: invoice.method ?? null,
    required_method: invoice.requiredMethod ?? null,
    ...(revision !== "currency-only" ? { amount_currency: invoice.currency } : {}),
    ...(revision !== "older" ? { currency: invoice.currency, amount: decimal(invoice.amount) } : {}),
    initial_amount: decimal(invoice.amount),
    rub_amount: decimal(d.rubAmount),
    remaining_amount: decimal(remaining),
    balance_amount: decimal(balance),
    commission_amount: decimal(commission),
    subtract_from: "balance",
    description: invoice.description ?? null,
    redirect_url: invoice.redirectUrl ?? null,
    callback_url: invoice.callbackUrl ?? null,
    extra: invoice.extra ?? null,
    created_at: invoice.createdAt,
    expired_at: invoice.expiredAt,
    final_at: invoice.finalAt ?? null,
  });
}

/** The methods of a real register (notes/payments-api.md), with commissions of the kind seen there. */
export function sampleMethods(): SampleMethod[] {
  const method = (
    code: string,
    name: string,
    currency: string,
    commissionPercent: string,
    commission: string,
    extra = "0",
    level = 0,
    accuracy = 2,
    enabled = true,
  ): SampleMethod => ({
    code,
    name,
    currency,
    enabled,
    commissionPercent,
    commission,
    extraCommissionPercent: extra,
    minimalStatusLevel: level,
    accuracy,
  });
  return [
    method("CRYSTALPAY", "CrystalPAY P2P", "RUB", "0", "0"),
    method("CARDRUBP2P", "Card RUB P2P", "RUB", "5.5", "0", "1.5"),
    method("CARDTRYP2P", "Card TRY P2P", "TRY", "7", "0", "0", 1),
    method("LZTMARKET", "LZT Market", "RUB", "3", "0"),
    method("BITCOIN", "Bitcoin", "BTC", "1.5", "0.000004", "0.5", 0, 8),
    method("BITCOINCASH", "Bitcoin Cash", "BCH", "1.5", "0.0001", "0", 0, 8),
    method("DASH", "Dash", "DASH", "1.5", "0.001", "0", 0, 8),
    method("DOGECOIN", "Dogecoin", "DOGE", "1.5", "1", "0", 0, 8),
    method("ETHEREUM", "Ethereum", "ETH", "1.5", "0.0003", "0", 0, 8),
    method("LITECOIN", "Litecoin", "LTC", "1.5", "0.0001", "0", 0, 8),
    method("BNBSMARTCHAIN", "BNB Smart Chain", "BNB", "1.5", "0.0001", "0", 0, 8),
    method("POLYGON", "Polygon", "MATIC", "1.5", "0.1", "0", 0, 8),
    method("TRON", "Tron", "TRX", "1.5", "2", "0", 0, 6),
    method("USDCTRC", "USDC TRC-20", "USDC", "2", "1", "0", 0, 6),
    method("USDTTRC", "USDT TRC-20", "USDT", "2", "1", "0.2", 0, 6),
    method("TONCRYPTOBOT", "TON (CryptoBot)", "TON", "3", "0", "0", 2, 8),
    method("BTCCRYPTOBOT", "BTC (CryptoBot)", "BTC", "3", "0.0000001", "0", 2, 8),
    method("ETHCRYPTOBOT", "ETH (CryptoBot)", "ETH", "3", "0", "0", -1, 8, false),
    method("USDTCRYPTOBOT", "USDT (CryptoBot)", "USDT", "3", "0", "0", 2, 6, false),
    method("TEST", "Test method", "RUB", "0", "0", "0", 0, 2, false),
  ];
}

/** A register with `count` methods (more than one message can hold), for limit tests. */
export function manyMethods(count: number): SampleMethod[] {
  return Array.from({ length: count }, (_, index) => ({
    code: `METHOD${String(index + 1).padStart(3, "0")}`,
    name: `Method number ${index + 1} with a rather long display name`,
    currency: index % 3 === 0 ? "BTC" : "RUB",
    enabled: index % 5 !== 4,
    commissionPercent: `${index % 7}.25`,
    commission: index % 3 === 0 ? "0.00000012" : "1.5",
    extraCommissionPercent: "0.1",
    minimalStatusLevel: index % 3,
    accuracy: index % 3 === 0 ? 8 : 2,
  }));
}

export function renderMethodsV2(methods: SampleMethod[]): string {
  return toJson({
    error: false,
    errors: [],
    methods: Object.fromEntries(
      methods
        .filter((m) => !m.payoutOnly)
        .map((m) => [
          m.code,
          {
            name: m.name,
            enabled: m.enabled,
            extra_commission_percent: RAW(m.extraCommissionPercent),
            minimal_status_level: m.minimalStatusLevel,
            currency: m.currency,
            commission_percent: RAW(m.commissionPercent),
            commission: RAW(m.commission),
          },
        ]),
    ),
  });
}

export function renderMethodsV3(methods: SampleMethod[]): string {
  return toJson({
    error: false,
    errors: [],
    items: Object.fromEntries(
      methods.map((m) => [
        m.code,
        {
          name: m.name,
          currency: m.currency,
          amount_accuracy: String(m.accuracy),
          minimal_status_level: String(m.minimalStatusLevel),
          settings: {
            ...(m.payoutOnly
              ? {}
              : {
                  in: {
                    enabled: m.enabled,
                    extra_commissions: { percent: m.extraCommissionPercent, amount: "0" },
                  },
                }),
            out: { enabled: Boolean(m.payoutOnly), extra_commissions: { percent: "0", amount: "0" } },
          },
          ...(m.payoutOnly
            ? {}
            : {
                in: {
                  enabled: !m.serviceDisabled,
                  commissions: { percent: m.commissionPercent, amount: m.commission },
                  limits: m.limits ?? {
                    min: m.currency === "RUB" ? "10" : "0.0001",
                    max: m.currency === "RUB" ? "300000" : "100",
                  },
                  fee: "0",
                },
              }),
          out: {
            enabled: false,
            commissions: { percent: "0", amount: "0" },
            limits: { min: "0", max: "0" },
            fee: "0",
          },
        },
      ]),
    ),
  });
}

/** A register with money on a few methods and none on the rest. */
export function sampleBalances(): SampleBalance[] {
  const balance = (code: string, name: string, currency: string, amount: string, accuracy = 2) => ({
    code,
    name,
    currency,
    amount,
    accuracy,
  });
  return [
    balance("CARDRUBP2P", "Card RUB P2P", "RUB", "12345.67"),
    balance("LZTMARKET", "LZT Market", "RUB", "100"),
    balance("BITCOIN", "Bitcoin", "BTC", "0.00005", 8),
    balance("BITCOINCASH", "Bitcoin Cash", "BCH", "0", 8),
    balance("BTCCRYPTOBOT", "BTC (CryptoBot)", "BTC", "0.0000001", 8),
    balance("USDTTRC", "USDT TRC-20", "USDT", "150.25", 6),
    balance("TRON", "Tron", "TRX", "0", 6),
    balance("CRYSTALPAY", "CrystalPAY P2P", "RUB", "0"),
  ];
}

/** Rouble prices of the sample currencies (made-up but plausible). */
export function sampleRates(): Record<string, string> {
  return {
    BTC: "8123456.78",
    BCH: "41234.5",
    USDT: "95.2328",
    TRX: "23.1",
    ETH: "301234.56",
    USD: "81.46",
    EUR: "94.12",
  };
}

/** v2 balance/info: JSON numbers; PHP writes an empty map as `[]`. */
export function renderBalancesV2(balances: SampleBalance[], hideEmpty = false): string {
  const shown = balances.filter((b) => !hideEmpty || Number(b.amount) !== 0);
  return toJson({
    error: false,
    errors: [],
    balances:
      shown.length === 0
        ? []
        : Object.fromEntries(shown.map((b) => [b.code, { amount: RAW(b.amount), currency: b.currency }])),
  });
}

/** v3 balance/list: decimal strings; `items` is `[]` when every balance is 0. */
export function renderBalancesV3(balances: SampleBalance[], hideEmpty = false): string {
  const allZero = balances.every((b) => Number(b.amount) === 0);
  const shown = balances.filter((b) => !hideEmpty || Number(b.amount) !== 0);
  return toJson({
    error: false,
    errors: [],
    items:
      allZero || shown.length === 0
        ? []
        : Object.fromEntries(
            shown.map((b) => [
              b.code,
              { name: b.name, amount: b.amount, currency: b.currency, amount_accuracy: b.accuracy },
            ]),
          ),
  });
}

/** ticker/get: the asked currencies' prices in roubles (v2 numbers, v3 strings); unknown ones left out. */
export function renderTicker(rates: Record<string, string>, tickers: string[], version: "v2" | "v3"): string {
  const priced = tickers.filter((code) => rates[code] !== undefined);
  return toJson({
    error: false,
    errors: [],
    base_currency: "RUB",
    currencies: Object.fromEntries(
      priced.map((code) => {
        const price = rates[code] ?? "0";
        return [code, { price: version === "v3" ? price : RAW(price) }];
      }),
    ),
  });
}

const HTML_502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n";

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
  const fake: FakePayments = {
    url: "",
    requests,
    invoices,
    methods: options.methods ?? sampleMethods(),
    methodsFault: null,
    invoiceFault: null,
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
    balances: options.balances ?? sampleBalances(),
    rates: options.rates ?? sampleRates(),
    balanceFault: null,
    historyFault: null,
    tickerFault: null,
    createFault: null,
    createRefusal: ["Amount is less than the minimum for this cash register"],
    created: [],
    callbacks: [],
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
      /^\/(v2|v3)\/(invoice\/info|invoice\/create|method\/list|balance\/info|balance\/list|ticker\/get|history\/payments|report\/invoice\/history)\/?$/.exec(
        path,
      );
    // balance/info is v2's name, balance/list v3's.
    const wrongVersion =
      (match?.[2] === "balance/info" && match[1] !== "v2") ||
      (match?.[2] === "balance/list" && match[1] !== "v3") ||
      (match?.[2] === "history/payments" && match[1] !== "v2") ||
      (match?.[2] === "report/invoice/history" && match[1] !== "v3");
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

    if (match[2] === "invoice/info") {
      const id = body.id;
      if (typeof id !== "string" || id === "")
        return answer(res, 200, envelopeError("`id` field is required"));
      if (fake.invoiceFault === "html502") return answer(res, 502, HTML_502, "text/html");
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
      if (!invoice) return answer(res, 200, envelopeError("Invoice not found"));
      return answer(res, 200, version === "v3" ? renderInvoiceV3(invoice) : renderInvoiceV2(invoice));
    }
    if (match[2] === "invoice/create") return createInvoice(res, body, version);
    if (match[2] === "history/payments" || match[2] === "report/invoice/history") {
      const fault = await misbehave(res, fake.historyFault, version === "v3" ? "items" : "payments");
      if (fault) return;
      // Each register's own invoices (and those of none: the shared samples).
      const own = [...invoices.values()].filter(
        (invoice) => invoice.login === undefined || invoice.login === body.auth_login,
      );
      return answer(res, 200, renderHistory(own, body, version));
    }
    if (match[2] === "balance/info" || match[2] === "balance/list") {
      const fault = await misbehave(res, fake.balanceFault, version === "v3" ? "items" : "balances");
      if (fault) return;
      const hideEmpty = body.hide_empty === true;
      return answer(
        res,
        200,
        version === "v3"
          ? renderBalancesV3(fake.balances, hideEmpty)
          : renderBalancesV2(fake.balances, hideEmpty),
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

/**
 * The cash register's invoices, newest first (by created_at, then the later-made first), one page:
 * v2 `{payments: [{id, state, method, currency, amount, created_at, expired_at}]}` (amount in RUB, no
 * "has next"), v3 `{items: [invoice info], has_next_page}`. `page` counts from 1; `items` at most 100.
 */
export function renderHistory(
  all: SampleInvoice[],
  body: Record<string, unknown>,
  version: "v2" | "v3",
): string {
  const page = typeof body.page === "number" && body.page >= 1 ? Math.floor(body.page) : 1;
  const size = typeof body.items === "number" ? Math.min(100, Math.max(1, Math.floor(body.items))) : 10;
  const ordered = all
    .map((invoice, index) => ({ invoice, index }))
    .sort((a, b) => b.invoice.createdAt.localeCompare(a.invoice.createdAt) || b.index - a.index)
    .map(({ invoice }) => invoice);
  const slice = ordered.slice((page - 1) * size, page * size);
  if (version === "v3") {
    const items = slice.map((invoice) => {
      const info = JSON.parse(renderInvoiceV3(invoice));
      delete info.error;
      delete info.errors;
      return info;
    });
    return toJson({ error: false, errors: [], items, has_next_page: page * size < ordered.length });
  }
  const payments = slice.map((invoice) => {
    const info = JSON.parse(renderInvoiceV2(invoice));
    return {
      id: info.id,
      state: info.state,
      method: info.method,
      currency: info.currency,
      amount: RAW(withDefaults(invoice).rubAmount),
      created_at: info.created_at,
      expired_at: info.expired_at,
    };
  });
  return toJson({ error: false, errors: [], payments });
}
