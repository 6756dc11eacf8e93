/** How the fake payment service writes its payouts ("payoffs"), in the shapes of API v2 and v3 (notes/payouts.md). */
import Big from "big.js";
import { RAW, toJson } from "./payments-render.js";

/** One payout as the fake keeps it. Amounts are decimal text; every figure is in `amountCurrency`. */
export type SamplePayoff = {
  id: string;
  /** The cash register (login) that made it; its history lists it. */
  login: string;
  /** The API version it was made with: its callback's shape. */
  version: "v2" | "v3";
  method: string;
  wallet: string;
  walletExtra?: string | undefined;
  subtractFrom: "balance" | "amount";
  /** The currency of the amount and of every figure below (v2 `currency`, v3 `amount_currency`). */
  amountCurrency: string;
  /** As asked (the text sent, which the signature covered). */
  amount: string;
  commission: string;
  receiveAmount: string;
  deductionAmount: string;
  rubAmount: string;
  /** In the method's currency: what submit takes from the method's balance. */
  deductionInMethod: string;
  state: string;
  message: string | null;
  callbackUrl?: string | undefined;
  extra?: string | undefined;
  createdAt: string;
  finalAt?: string | undefined;
  /** Made outside Kassa (the dashboard, or anyone holding Secret 2): a test's "news". */
  outside?: boolean;
};

/**
 * A number as PHP's json_encode writes a float: the shortest form, and an exponent below 1e-4
 * (0.00000001 is `1.0e-8`). v2 answers carry these; a client reading them as floats loses digits.
 */
export function phpNumber(text: string): string {
  const value = new Big(text);
  if (value.eq(0)) return "0";
  if (value.abs().gte("0.0001")) return value.toFixed();
  const [mantissa = "0", exponent = "0"] = value.toExponential().split("e");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}e${exponent}`;
}

/** v3 writes decimal strings with the currency's precision when they have fewer places ("1500.10"). */
function v3Decimal(text: string, places: number): string {
  const value = new Big(text);
  const own = text.split(".")[1]?.length ?? 0;
  return value.toFixed(Math.max(own, places));
}

const placesOf = (currency: string) => (currency === "RUB" ? 2 : 8);

/** v2: numbers; info adds wallet, state, message, callback_url, extra, created_at ("" when unset). */
export function payoffBodyV2(payoff: SamplePayoff, part: "quote" | "info"): Record<string, unknown> {
  const quote = {
    id: payoff.id,
    method: payoff.method,
    commission: RAW(phpNumber(payoff.commission)),
    amount: RAW(phpNumber(payoff.amount)),
    rub_amount: RAW(phpNumber(payoff.rubAmount)),
    receive_amount: RAW(phpNumber(payoff.receiveAmount)),
    deduction_amount: RAW(phpNumber(payoff.deductionAmount)),
    subtract_from: payoff.subtractFrom,
    currency: payoff.amountCurrency,
  };
  if (part === "quote") return quote;
  return {
    ...quote,
    wallet: payoff.wallet,
    state: payoff.state,
    message: payoff.message ?? "",
    callback_url: payoff.callbackUrl ?? "",
    extra: payoff.extra ?? "",
    created_at: payoff.createdAt,
  };
}

/** v3: strings; info adds state, message, callback_url, extra, created_at and final_at (null when unset). */
export function payoffBodyV3(payoff: SamplePayoff, part: "quote" | "info"): Record<string, unknown> {
  const places = placesOf(payoff.amountCurrency);
  const quote = {
    id: payoff.id,
    subtract_from: payoff.subtractFrom,
    method: payoff.method,
    amount_currency: payoff.amountCurrency,
    amount: v3Decimal(payoff.amount, places),
    rub_amount: v3Decimal(payoff.rubAmount, 2),
    receive_amount: v3Decimal(payoff.receiveAmount, places),
    deduction_amount: v3Decimal(payoff.deductionAmount, places),
    commission_amount: v3Decimal(payoff.commission, places),
    wallet: payoff.wallet,
  };
  if (part === "quote") return quote;
  return {
    ...quote,
    state: payoff.state,
    message: payoff.message,
    callback_url: payoff.callbackUrl ?? null,
    extra: payoff.extra ?? null,
    created_at: payoff.createdAt,
    final_at: payoff.finalAt ?? null,
  };
}

/** One payout's answer; `leaveOut` names fields an info answer does not carry. */
export function renderPayoff(
  payoff: SamplePayoff,
  version: "v2" | "v3",
  part: "quote" | "info",
  leaveOut: string[] = [],
): string {
  const body = version === "v3" ? payoffBodyV3(payoff, part) : payoffBodyV2(payoff, part);
  if (part === "info") for (const field of leaveOut) delete body[field];
  return toJson({ error: false, errors: [], ...body });
}

/**
 * The register's payouts, newest first (by created_at, then the later made first), one page: v2
 * `{payoffs: [{id, state, method, currency, amount, created_at}]}` (as its payments history; no
 * "has next"), v3 `{items: [payoff info], has_next_page}`. `page` counts from 1; `items` at most 100.
 */
export function renderPayoffHistory(
  all: SamplePayoff[],
  body: Record<string, unknown>,
  version: "v2" | "v3",
): string {
  const page = typeof body.page === "number" && body.page >= 1 ? Math.floor(body.page) : 1;
  const size = typeof body.items === "number" ? Math.min(100, Math.max(1, Math.floor(body.items))) : 10;
  const ordered = all
    .map((payoff, index) => ({ payoff, index }))
    .sort((a, b) =>
      a.payoff.createdAt === b.payoff.createdAt
        ? b.index - a.index
        : a.payoff.createdAt < b.payoff.createdAt
          ? 1
          : -1,
    )
    .map(({ payoff }) => payoff);
  const slice = ordered.slice((page - 1) * size, page * size);
  if (version === "v3") {
    const items = slice.map((payoff) => payoffBodyV3(payoff, "info"));
    return toJson({ error: false, errors: [], items, has_next_page: page * size < ordered.length });
  }
  const payoffs = slice.map((payoff) => {
    const info = payoffBodyV2(payoff, "info");
    return {
      id: info.id,
      state: info.state,
      method: info.method,
      currency: info.currency,
      amount: info.amount,
      created_at: info.created_at,
    };
  });
  return toJson({ error: false, errors: [], payoffs });
}
