import type { AmountKind, CommissionKind, Invoice, Money, PaymentMethod } from "./model.js";
import type { InvoiceV2, InvoiceV3, MethodListV2, MethodListV3 } from "./schemas.js";
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
 * v2 gives one `currency`. Once a payer has picked a method it becomes the method's currency (BTC,
 * TRY, ...) for the pay, remaining and balance amounts, while `amount` stays in the invoice's
 * original currency, which the response no longer names. So `amount` carries `currency` only while
 * no method is chosen; after that its currency is null (shown as "original invoice currency")
 * rather than a guess: a 1500 RUB invoice must never read as 1500 BTC.
 */
export function invoiceFromV2(raw: InvoiceV2, zone: string): Invoice {
  const currency = raw.currency;
  const amountCurrency = raw.method ? null : currency;
  return {
    id: raw.id,
    url: raw.url,
    state: raw.state,
    type: raw.type,
    method: raw.method,
    requiredMethod: raw.required_method ?? null,
    currency,
    amounts: moneyMap<AmountKind>([
      ["amount", raw.amount, amountCurrency],
      ["payAmount", raw.pay_amount, currency],
      ["remainingAmount", raw.remaining_amount, currency],
      ["balanceAmount", raw.balance_amount, currency],
    ]),
    commissions: moneyMap<CommissionKind>([
      ["serviceCommission", raw.service_commission, currency],
      ["extraCommission", raw.extra_commission, currency],
    ]),
    subtractFrom: null,
    description: raw.description ?? null,
    extra: raw.extra ?? null,
    redirectUrl: raw.redirect_url ?? null,
    callbackUrl: raw.callback_url ?? null,
    createdAt: serviceTime(raw.created_at, zone),
    expiredAt: serviceTime(raw.expired_at, zone),
    finalAt: null,
    apiVersion: "v2",
  };
}

/**
 * v3 names the invoice's own currency `amount_currency` (for `initial_amount`, shown as the amount)
 * and, in newer revisions, the payment currency `currency` (for `amount`, shown as the pay amount).
 * `rub_amount` is in roubles. The other amounts follow the payment currency when the response has
 * one, as in v2.
 */
export function invoiceFromV3(raw: InvoiceV3, zone: string): Invoice {
  const invoiceCurrency = raw.amount_currency;
  const paymentCurrency = raw.currency ?? invoiceCurrency;
  return {
    id: raw.id,
    url: raw.url,
    state: raw.state,
    type: raw.type,
    method: raw.method,
    requiredMethod: raw.required_method ?? null,
    currency: paymentCurrency,
    amounts: moneyMap<AmountKind>([
      ["amount", raw.initial_amount, invoiceCurrency],
      ["payAmount", raw.amount, paymentCurrency],
      ["remainingAmount", raw.remaining_amount, paymentCurrency],
      ["balanceAmount", raw.balance_amount, paymentCurrency],
      ["rubAmount", raw.rub_amount, "RUB"],
    ]),
    commissions: moneyMap<CommissionKind>([["commissionAmount", raw.commission_amount, paymentCurrency]]),
    subtractFrom: raw.subtract_from ?? null,
    description: raw.description ?? null,
    extra: raw.extra ?? null,
    redirectUrl: raw.redirect_url ?? null,
    callbackUrl: raw.callback_url ?? null,
    createdAt: serviceTime(raw.created_at, zone),
    expiredAt: serviceTime(raw.expired_at, zone),
    finalAt: raw.final_at ? serviceTime(raw.final_at, zone) : null,
    apiVersion: "v3",
  };
}

export function methodsFromV2(raw: MethodListV2): PaymentMethod[] {
  return Object.entries(raw.methods).map(([code, method]) => ({
    code,
    name: method.name,
    enabled: method.enabled,
    currency: method.currency,
    commissionPercent: method.commission_percent,
    commission: { value: method.commission, currency: method.currency },
    extraCommissionPercent: method.extra_commission_percent,
    extraCommission: null,
    minimalStatusLevel: method.minimal_status_level,
    limits: null,
  }));
}

/** Mapping from the notes: commission = in.commissions, extra = settings.in.extra_commissions. */
export function methodsFromV3(raw: MethodListV3): PaymentMethod[] {
  return Object.entries(raw.items).map(([code, method]) => {
    const money = (value: string | null | undefined): Money | null =>
      value === null || value === undefined ? null : { value, currency: method.currency };
    const limits = method.in.limits;
    return {
      code,
      name: method.name,
      enabled: method.settings.in.enabled && method.in.enabled,
      currency: method.currency,
      commissionPercent: method.in.commissions.percent,
      commission: { value: method.in.commissions.amount, currency: method.currency },
      extraCommissionPercent: method.settings.in.extra_commissions.percent,
      extraCommission: money(method.settings.in.extra_commissions.amount),
      minimalStatusLevel: method.minimal_status_level,
      limits: limits ? { min: money(limits.min), max: money(limits.max) } : null,
    };
  });
}
