/** The fake payment service's sample register: invoices, methods, balances, rates, and its credentials. */

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
  /** Payouts by this method (v3 `out`): the fee (percent, fixed) and limits ("0": none), in its currency. */
  payout?: SamplePayout;
};

/** A method's payout side; `extraPercent` is the account's own fee on top (v3 `settings.out`). */
export type SamplePayout = {
  percent: string;
  fixed: string;
  min: string;
  max: string;
  extraPercent?: string;
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
    payout: { percent: "2", fixed: "50", min: "500", max: "500000" },
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

export const SANDBOX_SALT = "sandbox-secret2-41d7b0";

export const SANDBOX_LOGIN = "sandbox_register";
export const SANDBOX_SECRET = "sandbox-secret-7f3a9c";

const pad = (n: number) => String(n).padStart(2, "0");
/** `YYYY-MM-DD HH:MM:SS` in Moscow time (UTC+3, no DST), as the service writes it. */
export function moscowTime(date: Date): string {
  const shifted = new Date(date.getTime() + 3 * 3600 * 1000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

/**
 * An unpaid invoice in roubles as a shop makes one: created at `now`, open for an hour; `fields`
 * (its amount, description, register login...) over that.
 */
export function openInvoice(
  id: string,
  fields: Partial<SampleInvoice> & { amount: string },
  now: Date = new Date(),
): SampleInvoice {
  return {
    id,
    state: "notpayed",
    currency: "RUB",
    createdAt: moscowTime(now),
    expiredAt: moscowTime(new Date(now.getTime() + 3_600_000)),
    ...fields,
  };
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
export function withDefaults(invoice: SampleInvoice) {
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
  const payouts: Record<string, SamplePayout> = {
    CRYSTALPAY: { percent: "0", fixed: "0", min: "1", max: "0" },
    CARDRUBP2P: { percent: "1", fixed: "0", min: "100", max: "150000" },
    LZTMARKET: { percent: "0", fixed: "0", min: "10", max: "0" },
    BITCOIN: { percent: "0", fixed: "0.00001", min: "0.0001", max: "1" },
    USDTTRC: { percent: "0", fixed: "1", min: "5", max: "0", extraPercent: "0.5" },
    BTCCRYPTOBOT: { percent: "0", fixed: "0", min: "0", max: "0" },
  };
  const withPayout = (m: SampleMethod): SampleMethod => {
    const payout = payouts[m.code];
    return payout ? { ...m, payout } : m;
  };
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
  ].map(withPayout);
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
