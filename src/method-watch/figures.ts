import { TEST_METHOD } from "../payments/model.js";

// A register's methods counted from its kept history (pure: entries in, figures out; tested as
// tables). Per method: the invoices of the failure window, how many of them failed or were
// unavailable, the wrong amounts apart; the usual failure share over the 28 days before the window;
// the last paid invoice; and how long the method usually goes without a payment at this time of day.
// The register's test method is never counted.

export const DAY_MS = 86_400_000;
/** The days the usual figures are taken from. */
export const USUAL_DAYS = 28;
/** Days with a known "time since the last payment" needed before a method has a usual at all. */
export const MIN_USUAL_DAYS = 7;

/** What the figures read of one kept invoice. */
export type CountedInvoice = { method: string | null; state: string; createdAt: { epochSeconds: number } };

export type MethodFigures = {
  code: string;
  /** The failure window: invoices (wrong amounts left out), those failed or unavailable, wrong amounts. */
  window: { invoices: number; failures: number; wrongAmounts: number };
  /** The 28 days before the window: invoices (wrong amounts left out) and failures. */
  before: { invoices: number; failures: number };
  /** When the newest paid invoice was created (ms); undefined: none in the 28 days. */
  lastPaidAt: number | undefined;
  /**
   * How long the method usually goes without a payment at this time of day: over the past days, at
   * the same wall-clock time in the zone, the time since its last payment, the median of those days.
   * Undefined when it was never paid, or on fewer than MIN_USUAL_DAYS days: there is no usual.
   */
  usualQuietMs: number | undefined;
};

const FAILURES = new Set(["failed", "unavailable"]);
const WRONG_AMOUNT = "wrongamount";
const PAID = "payed";

type Tally = {
  window: MethodFigures["window"];
  before: MethodFigures["before"];
  paid: number[];
};

/** Counts invoices one at a time (a register's month is read a day at a time), then gives the figures. */
export class FigureCounter {
  private readonly tallies = new Map<string, Tally>();
  private earliest = Number.POSITIVE_INFINITY;

  constructor(
    private readonly now: number,
    private readonly windowMs: number,
    private readonly zone: string,
  ) {}

  /** The span the counter reads: the 28 days up to now. */
  get since(): number {
    return this.now - USUAL_DAYS * DAY_MS;
  }

  add(invoice: CountedInvoice): void {
    const at = invoice.createdAt.epochSeconds * 1000;
    if (at < this.since || at > this.now) return;
    if (at < this.earliest) this.earliest = at;
    const code = invoice.method;
    if (!code || code === TEST_METHOD) return;
    const tally = this.tallyOf(code);
    if (invoice.state === PAID) tally.paid.push(at);
    const part = at >= this.now - this.windowMs ? tally.window : tally.before;
    if (invoice.state === WRONG_AMOUNT) {
      if (part === tally.window) tally.window.wrongAmounts += 1;
      return;
    }
    part.invoices += 1;
    if (FAILURES.has(invoice.state)) part.failures += 1;
  }

  /** Every method seen, by code. */
  finish(): Map<string, MethodFigures> {
    const figures = new Map<string, MethodFigures>();
    const moments = pastMoments(this.now, this.zone, Math.max(this.earliest, this.since));
    for (const [code, tally] of this.tallies) {
      const paid = tally.paid.sort((a, b) => a - b);
      figures.set(code, {
        code,
        window: tally.window,
        before: tally.before,
        lastPaidAt: paid.at(-1),
        usualQuietMs: usualQuiet(paid, moments),
      });
    }
    return figures;
  }

  private tallyOf(code: string): Tally {
    let tally = this.tallies.get(code);
    if (!tally) {
      tally = {
        window: { invoices: 0, failures: 0, wrongAmounts: 0 },
        before: { invoices: 0, failures: 0 },
        paid: [],
      };
      this.tallies.set(code, tally);
    }
    return tally;
  }
}

/**
 * The same wall-clock time as `now` in `zone` on each of the past USUAL_DAYS days, those at or after
 * `from` (what the history covers): a day moved across a clock change keeps its local time.
 */
export function pastMoments(now: number, zone: string, from: number): number[] {
  const offsetNow = zoneOffsetMs(now, zone);
  const moments: number[] = [];
  for (let day = 1; day <= USUAL_DAYS; day += 1) {
    const plain = now - day * DAY_MS;
    const moment = plain + offsetNow - zoneOffsetMs(plain, zone);
    if (moment >= from) moments.push(moment);
  }
  return moments;
}

/** The median time since the last payment at each moment; undefined under MIN_USUAL_DAYS of them. */
function usualQuiet(paid: readonly number[], moments: readonly number[]): number | undefined {
  const quiet: number[] = [];
  for (const moment of moments) {
    const last = lastBefore(paid, moment);
    if (last !== undefined) quiet.push(moment - last);
  }
  if (quiet.length < MIN_USUAL_DAYS) return undefined;
  quiet.sort((a, b) => a - b);
  const middle = Math.floor(quiet.length / 2);
  return quiet.length % 2 === 1
    ? (quiet[middle] as number)
    : Math.round(((quiet[middle - 1] as number) + (quiet[middle] as number)) / 2);
}

/** The latest of the sorted `times` at or before `moment` (binary search). */
function lastBefore(times: readonly number[], moment: number): number | undefined {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((times[middle] as number) <= moment) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : times[low - 1];
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far `zone`'s wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
export function zoneOffsetMs(at: number, zone: string): number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    offsetFormatters.set(zone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(at))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - (at - (at % 1000));
}
