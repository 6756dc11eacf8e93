// The periods `/invoice audit` and its export take, as ranges of the trail's own times (UTC).

const DAY_MS = 86_400_000;

/** All kept entries, today, the last 7 or 30 days (today included), or a calendar month (YYYY-MM). */
export type AuditPeriod = "all" | "today" | "7d" | "30d" | `${number}-${number}`;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A word as a period, or undefined when it is none. */
export function auditPeriodOf(word: string | undefined): AuditPeriod | undefined {
  if (word === "all" || word === "today" || word === "7d" || word === "30d") return word;
  return word && MONTH.test(word) ? (word as AuditPeriod) : undefined;
}

/** Where a period starts (inclusive) and ends (exclusive), in ms; absent: no bound. */
export function auditPeriodRange(period: AuditPeriod, now: Date): { from?: number; to?: number } {
  if (period === "all") return {};
  const month = MONTH.exec(period);
  if (month) {
    const [year, index] = [Number(month[1]), Number(month[2]) - 1];
    return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
  }
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: period === "today" ? midnight : midnight - (period === "7d" ? 6 : 29) * DAY_MS };
}
