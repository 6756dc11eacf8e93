import { addDecimals } from "../payments/decimal.js";
import type { HistoryEntry, HistoryPage } from "../payments/history.js";
import { TEST_METHOD } from "../payments/model.js";
import { parseServiceTime } from "../payments/time.js";

export const SUMMARY_PERIODS = ["today", "yesterday", "7d"] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];

/** Invoices read per page, and how many pages at most: a summary of a busy week says where it stopped. */
export const SUMMARY_PAGE_SIZE = 100;
export const SUMMARY_MAX_PAGES = 20;

export type Period = { period: SummaryPeriod; zone: string; from: number; to: number };

/** "YYYY-MM-DD" of `at` in `zone`. */
export function dayIn(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
  return parts;
}

/** Epoch seconds of midnight starting the day `daysBack` days before `now`'s day in `zone`. */
function midnight(now: Date, zone: string, daysBack: number): number {
  const [year, month, day] = dayIn(now, zone).split("-").map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1, day - daysBack));
  const text = `${shifted.toISOString().slice(0, 10)} 00:00:00`;
  const time = parseServiceTime(text, zone);
  if (!time) throw new Error(`cannot place ${text} in ${zone}`);
  return time.epochSeconds;
}

/** The period's bounds in epoch seconds, [from, to), in the reader's timezone. */
export function periodBounds(period: SummaryPeriod, now: Date, zone: string): Period {
  const nowSeconds = Math.floor(now.getTime() / 1000) + 1;
  if (period === "today") return { period, zone, from: midnight(now, zone, 0), to: nowSeconds };
  if (period === "yesterday")
    return { period, zone, from: midnight(now, zone, 1), to: midnight(now, zone, 0) };
  return { period, zone, from: midnight(now, zone, 6), to: nowSeconds };
}

export type Summary = Period & {
  created: number;
  paid: number;
  /** Exact sum of the paid invoices' rouble amounts; `unpriced` paid invoices had none. */
  paidRub: string;
  unpriced: number;
  test: { created: number; paid: number };
  /** The history went on past what was read: the figures cover only the newest invoices. */
  partial: boolean;
  /** Entries of the history that could not be read. */
  unreadable: number;
};

/**
 * Counts the invoices created in the period from the history, newest page first, stopping at the
 * first invoice created before the period. Test payments are counted apart.
 */
export async function summarize(
  readPage: (page: number, items: number) => Promise<HistoryPage>,
  period: Period,
): Promise<Summary> {
  const summary: Summary = {
    ...period,
    created: 0,
    paid: 0,
    paidRub: "0",
    unpriced: 0,
    test: { created: 0, paid: 0 },
    partial: false,
    unreadable: 0,
  };
  for (let page = 1; page <= SUMMARY_MAX_PAGES; page += 1) {
    const history = await readPage(page, SUMMARY_PAGE_SIZE);
    summary.unreadable += history.unreadable;
    let older = false;
    for (const entry of history.entries) {
      const at = entry.createdAt.epochSeconds;
      if (at < period.from) older = true;
      else if (at < period.to) count(summary, entry);
    }
    const last = history.entries.length < SUMMARY_PAGE_SIZE || history.hasNextPage === false;
    if (older || last) return summary;
    if (page === SUMMARY_MAX_PAGES) summary.partial = true;
  }
  return summary;
}

function count(summary: Summary, entry: HistoryEntry): void {
  const paid = entry.state === "payed";
  if (entry.method === TEST_METHOD) {
    summary.test.created += 1;
    if (paid) summary.test.paid += 1;
    return;
  }
  summary.created += 1;
  if (!paid) return;
  summary.paid += 1;
  if (entry.rub === null) summary.unpriced += 1;
  else summary.paidRub = addDecimals(summary.paidRub, entry.rub);
}

/**
 * The local day whose digest is due at `now`: today, once `at` (HH:MM in `zone`) has passed and
 * that moment is after the digest was set up; undefined before.
 */
export function digestDue(
  now: Date,
  digest: { at: string; zone: string; since: number },
): string | undefined {
  const day = dayIn(now, digest.zone);
  const moment = parseServiceTime(`${day} ${digest.at}:00`, digest.zone);
  if (!moment) return undefined;
  const at = moment.epochSeconds * 1000;
  return now.getTime() >= at && at >= digest.since ? day : undefined;
}
