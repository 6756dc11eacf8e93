import { compareDecimals } from "./decimal.js";
import type { Money } from "./model.js";
import type {
  Payoff,
  PayoffHistoryEntry,
  PayoffHistoryPage,
  PayoffMethod,
  PayoffMethodList,
} from "./payoff-model.js";
import {
  type PayoffInfoV2,
  type PayoffInfoV3,
  type PayoffQuoteV2,
  type PayoffQuoteV3,
  payoffHistoryEntrySchema,
  payoffMethodEntrySchema,
} from "./payoff-schemas.js";
import { parseServiceTime, type ServiceTime } from "./time.js";

function timeOf(text: string | null | undefined, zone: string): ServiceTime | null {
  return text ? (parseServiceTime(text, zone) ?? null) : null;
}

type Raw = PayoffQuoteV2 | PayoffInfoV2 | PayoffQuoteV3 | PayoffInfoV3;

/** The fields of an info answer; a quote has none of them (then `created`, as create leaves it). */
function infoPart(raw: Raw, zone: string) {
  const info = "state" in raw ? (raw as PayoffInfoV2 | PayoffInfoV3) : null;
  return {
    state: info?.state ?? "created",
    wallet: raw.wallet ? raw.wallet : null,
    message: info?.message ?? null,
    callbackUrl: info?.callback_url ?? null,
    extra: info?.extra ?? null,
    createdAt: timeOf(info?.created_at, zone),
    source: info ? ("info" as const) : ("quote" as const),
  };
}

/**
 * v2: every amount in the answer's `currency`, `rub_amount` in roubles; `commission` is the fee.
 * v3: every `*_amount` in `amount_currency`, `rub_amount` in roubles; `commission_amount` the fee.
 */
export function payoffFromV2(raw: PayoffQuoteV2 | PayoffInfoV2, zone: string): Payoff {
  const money = (value: string | null | undefined): Money | null =>
    value == null ? null : { value, currency: raw.currency };
  return {
    id: raw.id,
    method: raw.method,
    subtractFrom: raw.subtract_from,
    currency: raw.currency,
    amount: { value: raw.amount, currency: raw.currency },
    fee: money(raw.commission),
    receives: money(raw.receive_amount),
    leavesBalance: money(raw.deduction_amount),
    rubAmount: raw.rub_amount != null ? { value: raw.rub_amount, currency: "RUB" } : null,
    ...infoPart(raw, zone),
    finalAt: null,
    apiVersion: "v2",
  };
}

export function payoffFromV3(raw: PayoffQuoteV3 | PayoffInfoV3, zone: string): Payoff {
  const money = (value: string | null | undefined): Money | null =>
    value == null ? null : { value, currency: raw.amount_currency };
  return {
    id: raw.id,
    method: raw.method,
    subtractFrom: raw.subtract_from,
    currency: raw.amount_currency,
    amount: { value: raw.amount, currency: raw.amount_currency },
    fee: money(raw.commission_amount),
    receives: money(raw.receive_amount),
    leavesBalance: money(raw.deduction_amount),
    rubAmount: raw.rub_amount != null ? { value: raw.rub_amount, currency: "RUB" } : null,
    ...infoPart(raw, zone),
    finalAt: "final_at" in raw ? timeOf(raw.final_at, zone) : null,
    apiVersion: "v3",
  };
}

/** "0" is no limit. */
const limit = (value: string | null | undefined, currency: string): Money | null =>
  value == null || compareDecimals(value, "0") === 0 ? null : { value, currency };

/**
 * The v3 method list's payout side: entries with `out.enabled` (and not switched off by the account
 * in `settings.out`). Entries that do not fit are named, not guessed.
 */
export function payoffMethodsFromV3(items: Record<string, unknown>): PayoffMethodList {
  const methods: PayoffMethod[] = [];
  const unreadable: { code: string; reason: string }[] = [];
  for (const [code, value] of Object.entries(items)) {
    const parsed = payoffMethodEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      unreadable.push({
        code,
        reason: `${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}`,
      });
      continue;
    }
    const { out, settings, currency, name } = parsed.data;
    if (!out?.enabled || settings?.out?.enabled === false) continue;
    const extra = settings?.out?.extra_commissions ?? null;
    methods.push({
      code,
      name,
      currency,
      feePercent: out.commissions.percent,
      feeFixed: { value: out.commissions.amount, currency },
      extraFeePercent: extra?.percent ?? null,
      extraFeeFixed: extra ? { value: extra.amount, currency } : null,
      min: limit(out.limits?.min, currency),
      max: limit(out.limits?.max, currency),
    });
  }
  return { listed: true, methods, unreadable };
}

/** A history page: v2 amounts in `currency`, v3 in `amount_currency`; an entry that cannot be read is counted. */
export function payoffHistoryFrom(
  items: unknown[],
  hasNextPage: boolean | null,
  zone: string,
): PayoffHistoryPage {
  const entries: PayoffHistoryEntry[] = [];
  let unreadable = 0;
  for (const item of items) {
    const parsed = payoffHistoryEntrySchema.safeParse(item);
    if (!parsed.success) {
      unreadable += 1;
      continue;
    }
    const raw = parsed.data;
    const currency = raw.amount_currency ?? raw.currency ?? null;
    entries.push({
      id: raw.id,
      state: raw.state,
      method: raw.method,
      wallet: raw.wallet,
      amount: raw.amount != null ? { value: raw.amount, currency } : null,
      createdAt: timeOf(raw.created_at, zone),
      extra: raw.extra,
    });
  }
  return { entries, unreadable, hasNextPage };
}
