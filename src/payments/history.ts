import { z } from "zod";
import { Big } from "./decimal.js";
import { HISTORY_LIMITS, historyDecimalSchema, historyTextSchema } from "./history-limits.js";
import type { Money } from "./model.js";
import { currencySchema, serviceTimeSchema } from "./schemas.js";
import { parseServiceTime, type ServiceTime } from "./time.js";

/** One invoice as the cash register's history lists it: enough to see that it changed. */
export type HistoryEntry = {
  id: string;
  state: string;
  method: string | null;
  createdAt: ServiceTime;
  /** When an unpaid invoice expires (`expired_at`, both versions); null when the entry has none that can be read. */
  expiresAt?: ServiceTime | null;
  /**
   * The invoice amount with the currency the answer ties it to: v2 lists it in RUB (its create
   * converts every invoice to roubles); v3 in its `currency` / `amount_currency`, null when the two
   * disagree. Null when the entry has none that can be read.
   */
  amount: Money | null;
  /** The amount in roubles: v2's amount (always RUB), v3's `rub_amount`; null when not given. */
  rub: string | null;
  /** What an export writes besides; each null where the history does not give it (v2 gives few). */
  details?: HistoryDetails;
};

/**
 * v3's history items are whole invoice infos; v2's carry only id, state, method, currency, amount
 * and times. `paid`: v3's amount less what remains, once paid (in full or in part); v2 names no
 * paid amount in its history. The commission is v3's `commission_amount`, in the invoice currency.
 */
export type HistoryDetails = {
  type: string | null;
  url: string | null;
  description: string | null;
  extra: string | null;
  paid: Money | null;
  commission: Money | null;
};

/**
 * One page of the history, newest first. `hasNextPage`: v3 says; v2 does not (null), a full page
 * then means "maybe". Entries that cannot be read are counted, not guessed.
 */
export type HistoryPage = { entries: HistoryEntry[]; unreadable: number; hasNextPage: boolean | null };

const L = HISTORY_LIMITS;
/** Within HISTORY_LIMITS, so whatever is read is kept: over-long text is cut, never the entry. */
const entrySchema = z.object({
  id: z.string().min(1).max(L.id),
  state: z.string().min(1).max(L.state),
  method: historyTextSchema(L.method),
  created_at: serviceTimeSchema,
  expired_at: serviceTimeSchema.nullish().catch(null),
  amount: historyDecimalSchema,
  initial_amount: historyDecimalSchema,
  currency: currencySchema.nullish().catch(null),
  amount_currency: currencySchema.nullish().catch(null),
  rub_amount: historyDecimalSchema,
  type: historyTextSchema(L.type),
  // A link cut short leads nowhere: one too long is left out (the export writes the page by id).
  url: z.string().max(L.url).nullish().catch(null),
  description: historyTextSchema(L.description),
  extra: historyTextSchema(L.extra),
  remaining_amount: historyDecimalSchema,
  commission_amount: historyDecimalSchema,
});

const PAID_STATES = new Set(["payed", "wrongamount"]);

/** States an invoice does not leave. */
const FINAL_STATES = new Set(["payed", "failed", "unavailable"]);

export function isFinalState(state: string): boolean {
  return FINAL_STATES.has(state);
}
/** An unpaid invoice is taken as final this long after its page closed. */
const AFTER_EXPIRY_S = 3600;
/** ... and anything this old, whatever it says (a stuck `processing` is not read again forever). */
export const SETTLE_HORIZON_S = 7 * 86_400;

/**
 * Whether the service may still change what an invoice says: not in a final state, younger than
 * SETTLE_HORIZON_S, and (unless `processing`) not an hour past its expiry when it has one. Epoch seconds.
 */
export function mayStillChange(
  invoice: { state: string; createdAt: number; expiresAt: number | null },
  nowSeconds: number,
): boolean {
  if (FINAL_STATES.has(invoice.state) || nowSeconds - invoice.createdAt > SETTLE_HORIZON_S) return false;
  if (invoice.state === "processing" || invoice.expiresAt === null) return true;
  return nowSeconds < invoice.expiresAt + AFTER_EXPIRY_S;
}

function detailsOf(
  entry: z.infer<typeof entrySchema>,
  amount: Money | null,
  version: "v2" | "v3",
): HistoryDetails {
  const inCurrency = (value: string | null | undefined): Money | null =>
    value == null || !amount ? null : { value, currency: amount.currency };
  const paid =
    version === "v3" && amount && entry.remaining_amount != null && PAID_STATES.has(entry.state)
      ? inCurrency(new Big(amount.value).minus(entry.remaining_amount).toFixed())
      : null;
  return {
    type: entry.type || null,
    url: entry.url || null,
    description: entry.description || null,
    extra: entry.extra || null,
    paid,
    commission: version === "v3" ? inCurrency(entry.commission_amount) : null,
  };
}

function amountOf(entry: z.infer<typeof entrySchema>, version: "v2" | "v3"): Money | null {
  const value = entry.amount ?? entry.initial_amount;
  if (value == null) return null;
  if (version === "v2") return { value, currency: "RUB" };
  const named = [entry.currency, entry.amount_currency].filter((code): code is string => Boolean(code));
  const agree = named.every((code) => code.toUpperCase() === named[0]?.toUpperCase());
  return { value, currency: named.length > 0 && agree ? (named[0] as string).toUpperCase() : null };
}

/** v2 history/payments/: `payments: [{id, state, method, currency, amount, created_at, expired_at}]`. */
export const historyV2Schema = z.object({ payments: z.array(z.unknown()) });
/** v3 report/invoice/history/: `{items: [invoice info], has_next_page}`. */
export const historyV3Schema = z.object({
  items: z.array(z.unknown()),
  has_next_page: z.boolean().nullish(),
});

export function historyFrom(
  items: unknown[],
  hasNextPage: boolean | null,
  zone: string,
  version: "v2" | "v3",
): HistoryPage {
  const entries: HistoryEntry[] = [];
  let unreadable = 0;
  for (const item of items) {
    const parsed = entrySchema.safeParse(item);
    const createdAt = parsed.success ? parseServiceTime(parsed.data.created_at, zone) : undefined;
    if (!parsed.success || !createdAt) {
      unreadable += 1;
      continue;
    }
    const amount = amountOf(parsed.data, version);
    entries.push({
      id: parsed.data.id,
      state: parsed.data.state,
      method: parsed.data.method ?? null,
      createdAt,
      expiresAt: parsed.data.expired_at ? (parseServiceTime(parsed.data.expired_at, zone) ?? null) : null,
      amount,
      rub: version === "v2" ? (parsed.data.amount ?? null) : (parsed.data.rub_amount ?? null),
      details: detailsOf(parsed.data, amount, version),
    });
  }
  return { entries, unreadable, hasNextPage };
}
