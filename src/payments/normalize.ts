import { compareDecimals } from "./decimal.js";
import { UnexpectedResponseError } from "./errors.js";
import type {
  AmountKind,
  BalanceSheet,
  CommissionKind,
  Invoice,
  MethodCatalog,
  Money,
  PaymentMethod,
  RubRates,
} from "./model.js";
import type {
  BalanceInfoV2,
  BalanceListV3,
  InvoiceV2,
  InvoiceV3,
  MethodListV2,
  MethodListV3,
  MethodV3,
  TickerAnswer,
} from "./schemas.js";
import { parseServiceTime, type ServiceTime } from "./time.js";

function serviceTime(text: string, zone: string): ServiceTime {
  const time = parseServiceTime(text, zone);
  // The schema has already checked the text; a failure here is a bug, not bad input.
  if (!time) throw new Error(`unparseable service time ${JSON.stringify(text)}`);
  return time;
}

function moneyMap<K extends string>(
  entries: [K, string | null | undefined, string | null][],
): Partial<Record<K, Money>> {
  const result: Partial<Record<K, Money>> = {};
  for (const [kind, value, currency] of entries) {
    if (value !== null && value !== undefined) result[kind] = { value, currency };
  }
  return result;
}

/**
 * v2 `invoice/create` converts the invoice amount to roubles, so `amount` is in RUB, always (public
 * clients: "automatically converted into rubles"). `currency` is the currency of the pay, remaining
 * and balance amounts and of both commissions; once a payer picks a method it becomes the method's
 * currency (the v2 callback example: method BITCOIN, currency BTC, amount 100, pay_amount 0.1).
 */
export function invoiceFromV2(raw: InvoiceV2, zone: string): Invoice {
  const currency = raw.currency;
  return {
    ...invoiceFields(raw, zone),
    currency,
    currencyConflict: null,
    amounts: moneyMap<AmountKind>([
      ["amount", raw.amount, "RUB"],
      ["payAmount", raw.pay_amount, currency],
      ["remainingAmount", raw.remaining_amount, currency],
      ["balanceAmount", raw.balance_amount, currency],
    ]),
    commissions: moneyMap<CommissionKind>([
      ["serviceCommission", raw.service_commission, currency],
      ["extraCommission", raw.extra_commission, currency],
    ]),
    subtractFrom: null,
    finalAt: null,
    apiVersion: "v2",
  };
}

const sameDecimal = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && compareDecimals(a, b) === 0;

/**
 * v3 docs: "`currency` (ранее `amount_currency`) — Валюта инвойса", so both name the invoice
 * currency and an answer may carry either or both. `amount` is the invoice amount in it (older
 * revisions have only `initial_amount`), `rub_amount` its rouble equivalent, and every other
 * `*_amount` is in the invoice currency too (as in v3 payoff/info). When the two names disagree the
 * answer does not say which is right: the amounts then carry no currency and the card shows both.
 * A figure is shown once: `initial_amount` only when it differs from `amount`, `rub_amount` only
 * when it is not the same roubles again.
 */
export function invoiceFromV3(raw: InvoiceV3, zone: string): Invoice {
  const amountCurrency = raw.amount_currency ?? null;
  const newCurrency = raw.currency ?? null;
  const conflict =
    amountCurrency && newCurrency && amountCurrency.toUpperCase() !== newCurrency.toUpperCase()
      ? { amountCurrency, currency: newCurrency }
      : null;
  // The schema requires one of the two.
  const invoiceCurrency = amountCurrency ?? newCurrency ?? "";
  const currency = conflict ? null : invoiceCurrency;
  const amount = raw.amount ?? raw.initial_amount;
  const initial = sameDecimal(raw.initial_amount, amount) ? null : raw.initial_amount;
  const rub =
    currency?.toUpperCase() === "RUB" && sameDecimal(raw.rub_amount, amount) ? null : raw.rub_amount;
  return {
    ...invoiceFields(raw, zone),
    currency: invoiceCurrency,
    currencyConflict: conflict,
    amounts: moneyMap<AmountKind>([
      ["amount", amount, currency],
      ["rubAmount", rub, "RUB"],
      ["initialAmount", initial, currency],
      ["remainingAmount", raw.remaining_amount, currency],
      ["balanceAmount", raw.balance_amount, currency],
    ]),
    commissions: moneyMap<CommissionKind>([["commissionAmount", raw.commission_amount, currency]]),
    subtractFrom: raw.subtract_from ?? null,
    finalAt: raw.final_at ? serviceTime(raw.final_at, zone) : null,
    apiVersion: "v3",
  };
}

/** The fields both versions share. */
function invoiceFields(raw: InvoiceV2 | InvoiceV3, zone: string) {
  return {
    id: raw.id,
    url: raw.url,
    state: raw.state,
    type: raw.type,
    method: raw.method,
    requiredMethod: raw.required_method ?? null,
    description: raw.description ?? null,
    extra: raw.extra ?? null,
    redirectUrl: raw.redirect_url ?? null,
    callbackUrl: raw.callback_url ?? null,
    createdAt: serviceTime(raw.created_at, zone),
    expiredAt: serviceTime(raw.expired_at, zone),
  };
}

export function methodsFromV2(raw: MethodListV2): MethodCatalog {
  const methods = raw.methods.methods.map(([code, method]) => ({
    code,
    name: method.name,
    enabled: method.enabled,
    switchedOn: method.enabled,
    currency: method.currency,
    commissionPercent: method.commission_percent,
    commission: { value: method.commission, currency: method.currency },
    extraCommissionPercent: method.extra_commission_percent,
    extraCommission: null,
    minimalStatusLevel: method.minimal_status_level ?? null,
    limits: null,
  }));
  return { methods, payoutOnly: [], unreadable: raw.methods.unreadable };
}

/** A limit of "0" means no limit (the docs' own example: an enabled method with min "0", max "0"). */
const limit = (value: string | null | undefined): string | null =>
  value == null || compareDecimals(value, "0") === 0 ? null : value;

/**
 * Mapping from the notes: commission = in.commissions, extra = settings.in.extra_commissions,
 * enabled = settings.in.enabled && in.enabled. An entry without `in` takes no payments (payout-only)
 * and is listed by code only; one with `in` but no `settings.in` has no known extra commission, so
 * it is set aside as unreadable rather than shown with a made-up one.
 */
export function methodsFromV3(raw: MethodListV3): MethodCatalog {
  const catalog: MethodCatalog = { methods: [], payoutOnly: [], unreadable: [...raw.items.unreadable] };
  for (const [code, entry] of raw.items.methods) {
    const method = methodFromV3(code, entry);
    if (method === "payout-only") catalog.payoutOnly.push(code);
    else if ("reason" in method) catalog.unreadable.push({ code, reason: method.reason });
    else catalog.methods.push(method);
  }
  return catalog;
}

/** One v3 method (a list entry, or method/get's answer) as methodsFromV3 reads it. */
export function methodFromV3(
  code: string,
  method: MethodV3,
): PaymentMethod | "payout-only" | { reason: string } {
  const incoming = method.in;
  const settings = method.settings?.in;
  if (!incoming) return "payout-only";
  if (!settings) return { reason: "settings.in: missing" };
  const money = (value: string | null): Money | null =>
    value === null ? null : { value, currency: method.currency };
  const min = limit(incoming.limits?.min);
  const max = limit(incoming.limits?.max);
  return {
    code,
    name: method.name,
    enabled: settings.enabled && incoming.enabled,
    switchedOn: settings.enabled,
    currency: method.currency,
    commissionPercent: incoming.commissions.percent,
    commission: { value: incoming.commissions.amount, currency: method.currency },
    extraCommissionPercent: settings.extra_commissions.percent,
    extraCommission: money(settings.extra_commissions.amount),
    minimalStatusLevel: method.minimal_status_level ?? null,
    limits: min || max ? { min: money(min), max: money(max) } : null,
  };
}

export function balancesFromV2(raw: BalanceInfoV2): BalanceSheet {
  return {
    balances: raw.balances.methods.map(([code, entry]) => ({
      code,
      name: null,
      amount: { value: entry.amount, currency: entry.currency },
    })),
    unreadable: raw.balances.unreadable,
  };
}

export function balancesFromV3(raw: BalanceListV3): BalanceSheet {
  return {
    balances: raw.items.methods.map(([code, entry]) => ({
      code,
      name: entry.name ? entry.name : null,
      amount: { value: entry.amount, currency: entry.currency },
    })),
    unreadable: raw.items.unreadable,
  };
}

/**
 * Prices in roubles by upper-case code. An answer naming another base currency is not what was
 * asked for: it is refused rather than read as roubles.
 */
export function ratesFrom(raw: TickerAnswer): RubRates {
  const base = raw.base_currency ?? "RUB";
  if (base.toUpperCase() !== "RUB") {
    throw new UnexpectedResponseError("wrong-shape", `base_currency: expected RUB, got ${base}`);
  }
  const rates: RubRates = {};
  for (const [code, price] of raw.currencies.methods) rates[code.toUpperCase()] = price;
  return rates;
}
