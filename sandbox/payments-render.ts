/** How the fake payment service writes its answers, in the shapes of API v2 and v3 (JSON as the PHP backend writes it). */
import {
  type SampleBalance,
  type SampleInvoice,
  type SampleMethod,
  withDefaults,
} from "./payments-samples.js";

/** Marks a value to be written as a bare JSON number exactly as given ("4.0e-6"), like the PHP backend. */
export const RAW = (text: string) => `\u0000RAW:${text}\u0000`;
export function toJson(value: unknown): string {
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

/** One method as v3 writes it: an entry of method/list, and the body of method/get. */
export function methodEntryV3(m: SampleMethod): Record<string, unknown> {
  return {
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
      out: {
        enabled: Boolean(m.payoutOnly || m.payout),
        extra_commissions: { percent: m.payout?.extraPercent ?? "0", amount: "0" },
      },
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
      enabled: Boolean(m.payout),
      commissions: { percent: m.payout?.percent ?? "0", amount: m.payout?.fixed ?? "0" },
      limits: { min: m.payout?.min ?? "0", max: m.payout?.max ?? "0" },
      fee: "0",
    },
  };
}

export function renderMethodsV3(methods: SampleMethod[]): string {
  return toJson({
    error: false,
    errors: [],
    items: Object.fromEntries(methods.map((m) => [m.code, methodEntryV3(m)])),
  });
}

/** v3 method/get: one method, its entry of method/list at the top level beside the envelope and its code. */
export function renderMethodV3(m: SampleMethod): string {
  return toJson({ error: false, errors: [], method: m.code, ...methodEntryV3(m) });
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

/**
 * A second listing of an invoice, as the service was seen to give (issue 43): the invoice again with
 * `state`, `shift` places after its own listing (0, the default: right after it; negative: before it).
 */
export type HistoryRepeat = { state: string; shift?: number };

/**
 * The cash register's invoices, newest first (by created_at, then the later-made first), one page:
 * v2 `{payments: [{id, state, method, currency, amount, created_at, expired_at}]}` (amount in RUB, no
 * "has next"), v3 `{items: [invoice info], has_next_page}`. `page` counts from 1; `items` at most 100.
 * `repeats` lists some invoices more than once (by id, each copy with its own state and place).
 */
export function renderHistory(
  all: SampleInvoice[],
  body: Record<string, unknown>,
  version: "v2" | "v3",
  repeats: ReadonlyMap<string, readonly HistoryRepeat[]> = new Map(),
): string {
  const page = typeof body.page === "number" && body.page >= 1 ? Math.floor(body.page) : 1;
  const size = typeof body.items === "number" ? Math.min(100, Math.max(1, Math.floor(body.items))) : 10;
  const ordered = all
    .map((invoice, index) => ({ invoice, index }))
    // YYYY-MM-DD HH:MM:SS sorts as text; a plain comparison keeps 50,000 invoices quick (the bench).
    .sort((a, b) =>
      a.invoice.createdAt === b.invoice.createdAt
        ? b.index - a.index
        : a.invoice.createdAt < b.invoice.createdAt
          ? 1
          : -1,
    )
    .map(({ invoice }) => invoice);
  const listed = repeats.size === 0 ? ordered : withRepeats(ordered, repeats);
  const slice = listed.slice((page - 1) * size, page * size);
  if (version === "v3") {
    const items = slice.map((invoice) => {
      const info = JSON.parse(renderInvoiceV3(invoice));
      delete info.error;
      delete info.errors;
      return info;
    });
    return toJson({ error: false, errors: [], items, has_next_page: page * size < listed.length });
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

/** `ordered` with the repeats put in: a copy `shift` places after its invoice sits just after the entry there. */
function withRepeats(
  ordered: SampleInvoice[],
  repeats: ReadonlyMap<string, readonly HistoryRepeat[]>,
): SampleInvoice[] {
  const placed = ordered.map((invoice, index) => ({ invoice, at: index }));
  ordered.forEach((invoice, index) => {
    for (const repeat of repeats.get(invoice.id) ?? [])
      placed.push({ invoice: { ...invoice, state: repeat.state }, at: index + (repeat.shift ?? 0) + 0.5 });
  });
  // Stable: copies at one place keep the order they were given in.
  return placed.sort((a, b) => a.at - b.at).map(({ invoice }) => invoice);
}
