import { Big } from "../payments/decimal.js";
import type { HistoryEntry } from "../payments/history.js";
import { type Money, TEST_METHOD } from "../payments/model.js";
import type { ServiceTime } from "../payments/time.js";
import { bucketOf, type Period } from "./periods.js";
import type { RefundTally } from "./refunds.js";

/** How many of the largest paid invoices a report names, and how many methods before "other". */
export const TOP_INVOICES = 5;
export const TOP_METHODS = 6;

/** Counts of one span, test payments left out. Amounts are exact decimal strings in roubles. */
export type Tally = {
  created: number;
  paid: number;
  paidRub: string;
  /** Paid invoices without a rouble amount (not in paidRub). */
  unpriced: number;
  /** Paid roubles per chart bucket, lined up with the period's buckets. */
  perBucket: string[];
};

export type TopInvoice = {
  id: string;
  amount: Money | null;
  rub: string;
  method: string | null;
  createdAt: ServiceTime;
};

/** Paid roubles of one method (null: the history names none). */
export type MethodTotal = { method: string | null; paid: number; rub: string };

export type Report = Period & {
  current: Tally;
  earlier: Tally;
  test: { created: number; paid: number };
  top: TopInvoice[];
  /** The largest TOP_METHODS methods by paid roubles; the rest summed in `otherMethods`. */
  methods: MethodTotal[];
  otherMethods: { methods: number; paid: number; rub: string } | null;
  /** The history could not be read back far enough: the figures cover only its newest part. */
  partial: boolean;
  /** Entries of the history that could not be read. */
  unreadable: number;
  /** Kept days (UTC, `YYYY-MM-DD`) that could not be read even afresh: their invoices are not counted. */
  daysLeftOut: string[];
  /** Refunds paid out in the period (issue 52), apart from the takings; absent where not counted. */
  refunds?: RefundTally | undefined;
};

type Running = { created: number; paid: number; rub: Big; unpriced: number; buckets: Big[] };

const running = (buckets: number): Running => ({
  created: 0,
  paid: 0,
  rub: new Big(0),
  unpriced: 0,
  buckets: Array.from({ length: buckets }, () => new Big(0)),
});

const tallyOf = (sum: Running): Tally => ({
  created: sum.created,
  paid: sum.paid,
  paidRub: sum.rub.toFixed(),
  unpriced: sum.unpriced,
  perBucket: sum.buckets.map((value) => value.toFixed()),
});

/** The rouble amount of an entry: the history's own, or its amount when that is in roubles. */
export function rubOf(entry: Pick<HistoryEntry, "rub" | "amount">): string | null {
  if (entry.rub !== null) return entry.rub;
  return entry.amount?.currency === "RUB" ? entry.amount.value : null;
}

/**
 * Counts a report from history entries given in any order, each once (the caller dedupes): the
 * period's and the previous span's tallies, test payments apart, the largest paid invoices and the
 * paid roubles per method. Pure; it keeps a few numbers per method and the top five, not the entries.
 */
export class ReportCounter {
  private readonly current: Running;
  private readonly previous: Running;
  private readonly test = { created: 0, paid: 0 };
  private readonly top: Array<TopInvoice & { rubBig: Big }> = [];
  private readonly methods = new Map<string | null, { paid: number; rub: Big }>();
  unreadable = 0;
  partial = false;
  daysLeftOut: string[] = [];

  constructor(private readonly period: Period) {
    this.current = running(period.buckets.starts.length);
    this.previous = running(period.buckets.previousStarts.length);
  }

  add(entry: HistoryEntry): void {
    const at = entry.createdAt.epochSeconds;
    const inCurrent = at >= this.period.from && at < this.period.to;
    const inPrevious = at >= this.period.previous.from && at < this.period.previous.to;
    if (!inCurrent && !inPrevious) return;
    const paid = entry.state === "payed";
    if (entry.method === TEST_METHOD) {
      if (inCurrent) {
        this.test.created += 1;
        if (paid) this.test.paid += 1;
      }
      return;
    }
    const sum = inCurrent ? this.current : this.previous;
    sum.created += 1;
    if (!paid) return;
    sum.paid += 1;
    const rub = rubOf(entry);
    if (rub === null) {
      sum.unpriced += 1;
      return;
    }
    const amount = new Big(rub);
    sum.rub = sum.rub.plus(amount);
    const starts = inCurrent ? this.period.buckets.starts : this.period.buckets.previousStarts;
    const bucket = bucketOf(starts, at);
    if (bucket >= 0) sum.buckets[bucket] = (sum.buckets[bucket] ?? new Big(0)).plus(amount);
    if (!inCurrent) return;
    const method = this.methods.get(entry.method) ?? { paid: 0, rub: new Big(0) };
    method.paid += 1;
    method.rub = method.rub.plus(amount);
    this.methods.set(entry.method, method);
    this.consider({ ...pick(entry), rub: amount.toFixed(), rubBig: amount });
  }

  /** Keeps the TOP_INVOICES largest, the newer first among equals. */
  private consider(candidate: TopInvoice & { rubBig: Big }): void {
    const index = this.top.findIndex(
      (held) =>
        candidate.rubBig.gt(held.rubBig) ||
        (candidate.rubBig.eq(held.rubBig) && candidate.createdAt.epochSeconds > held.createdAt.epochSeconds),
    );
    if (index === -1) {
      if (this.top.length < TOP_INVOICES) this.top.push(candidate);
      return;
    }
    this.top.splice(index, 0, candidate);
    if (this.top.length > TOP_INVOICES) this.top.pop();
  }

  finish(): Report {
    const ranked = [...this.methods].sort(
      ([codeA, a], [codeB, b]) => b.rub.cmp(a.rub) || String(codeA).localeCompare(String(codeB)),
    );
    const shown = ranked.slice(0, TOP_METHODS);
    const rest = ranked.slice(TOP_METHODS);
    return {
      ...this.period,
      current: tallyOf(this.current),
      earlier: tallyOf(this.previous),
      test: { ...this.test },
      top: this.top.map(({ rubBig: _, ...invoice }) => invoice),
      methods: shown.map(([method, total]) => ({ method, paid: total.paid, rub: total.rub.toFixed() })),
      otherMethods:
        rest.length === 0
          ? null
          : {
              methods: rest.length,
              paid: rest.reduce((count, [, total]) => count + total.paid, 0),
              rub: rest.reduce((sum, [, total]) => sum.plus(total.rub), new Big(0)).toFixed(),
            },
      partial: this.partial,
      unreadable: this.unreadable,
      daysLeftOut: [...this.daysLeftOut],
    };
  }
}

const pick = (entry: HistoryEntry) => ({
  id: entry.id,
  amount: entry.amount,
  method: entry.method,
  createdAt: entry.createdAt,
});

/**
 * The change from `before` to `now` in percent, one decimal, exact (`12.5`, `-100`); null when there
 * is nothing to compare with (before is zero).
 */
export function changePercent(now: string, before: string): string | null {
  const earlier = new Big(before);
  if (earlier.eq(0)) return null;
  return new Big(now).minus(earlier).times(100).div(earlier).round(1).toFixed();
}
