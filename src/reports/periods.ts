import { parseServiceTime } from "../payments/time.js";

/** The periods a report covers: named spans ending now, or a calendar month (`2026-10`). */
export const NAMED_PERIODS = ["today", "yesterday", "7d", "30d"] as const;
export type NamedPeriod = (typeof NAMED_PERIODS)[number];
export type MonthPeriod = `${number}-${number}`;
/** A calendar week, Monday to Sunday, named by its Monday: `week-2026-11-16` (the weekly digest's). */
export type WeekPeriod = `week-${string}`;
export type PeriodName = NamedPeriod | MonthPeriod | WeekPeriod;

export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * The earliest year a month period may name. No payment service invoice is older, and the date
 * maths below would go wrong well before it: Date.UTC reads the years 0 to 99 as 1900 to 1999, and
 * the timezone lookups cannot place a local time in year 0. A month before it is a typo, read as one.
 */
export const FIRST_MONTH_YEAR = 2000;

/** `2026-10` as a period name (from FIRST_MONTH_YEAR on), or undefined for anything else. */
export function monthPeriod(text: string): MonthPeriod | undefined {
  const year = MONTH_PATTERN.exec(text)?.[1];
  return year !== undefined && Number(year) >= FIRST_MONTH_YEAR ? (text as MonthPeriod) : undefined;
}

export const isMonth = (period: PeriodName): period is MonthPeriod => MONTH_PATTERN.test(period);
export const isWeek = (period: PeriodName): period is WeekPeriod => /^week-\d{4}-\d{2}-\d{2}$/.test(period);

/** A span [from, to) in epoch seconds. */
export type Span = { from: number; to: number };

/**
 * A report's period in the reader's timezone: its span, the same length of time just before it to
 * compare with (the same number of days, its last one cut at the same time of day; the month
 * before for a month), and the chart's buckets (hours for a day, days otherwise), each as the
 * epoch second it starts at, the previous span's buckets lined up with them one for one.
 */
export type Period = Span & {
  period: PeriodName;
  zone: string;
  previous: Span;
  /** The last bucket ends at `to`; previous buckets end at `previous.to`. */
  buckets: { unit: "hour" | "day"; starts: number[]; previousStarts: number[]; labels: string[] };
};

/** "YYYY-MM-DD" of `at` in `zone`. */
export function dayIn(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

/** The calendar day `days` after `day` ("YYYY-MM-DD"; negative goes back). */
export function shiftDay(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** Epoch seconds of `day` at `clock` ("HH:MM:SS") in `zone`. */
export function localMoment(day: string, clock: string, zone: string): number {
  const text = `${day} ${clock}`;
  const time = parseServiceTime(text, zone);
  if (!time) throw new Error(`cannot place ${text} in ${zone}`);
  return time.epochSeconds;
}

const midnightOf = (day: string, zone: string) => localMoment(day, "00:00:00", zone);

/** Days of a month: "2026-02" has 28. */
function daysIn(month: string): number {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, number, 0)).getUTCDate();
}

function monthBefore(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 2, 1)).toISOString().slice(0, 7);
}

/** The span's days from `firstDay`, `count` of them. */
function dayStarts(firstDay: string, count: number, zone: string): number[] {
  return Array.from({ length: count }, (_, index) => midnightOf(shiftDay(firstDay, index), zone));
}

function hourStarts(day: string, zone: string): number[] {
  // Local hours as the wall clock shows them; a DST day's missing hour comes out as its neighbour.
  return Array.from({ length: 24 }, (_, hour) =>
    localMoment(day, `${String(hour).padStart(2, "0")}:00:00`, zone),
  );
}

/**
 * The bounds of `period` at `now` in `zone`. A span ending now ends a second after it (so an
 * invoice made this second counts); its previous span is cut at the same time of day. A month
 * that has not begun yet is undefined: the parser refuses it.
 */
export function periodBounds(period: PeriodName, now: Date, zone: string): Period | undefined {
  const today = dayIn(now, zone);
  const nowSeconds = Math.floor(now.getTime() / 1000) + 1;
  const sinceMidnight = nowSeconds - midnightOf(today, zone);
  const daysEnding = (days: number, lastDay: string, ended: boolean): Period => {
    const firstDay = shiftDay(lastDay, -(days - 1));
    const previousFirst = shiftDay(firstDay, -days);
    const to = ended ? midnightOf(shiftDay(lastDay, 1), zone) : nowSeconds;
    const previousTo = ended
      ? midnightOf(firstDay, zone)
      : midnightOf(shiftDay(lastDay, -days), zone) + sinceMidnight;
    return {
      period,
      zone,
      from: midnightOf(firstDay, zone),
      to,
      previous: { from: midnightOf(previousFirst, zone), to: previousTo },
      buckets:
        days === 1
          ? {
              unit: "hour",
              starts: hourStarts(firstDay, zone),
              previousStarts: hourStarts(previousFirst, zone),
              labels: Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, "0")),
            }
          : {
              unit: "day",
              starts: dayStarts(firstDay, days, zone),
              previousStarts: dayStarts(previousFirst, days, zone),
              labels: Array.from({ length: days }, (_, index) => shiftDay(firstDay, index).slice(5)),
            },
    };
  };
  if (period === "today") return daysEnding(1, today, false);
  if (period === "yesterday") return daysEnding(1, shiftDay(today, -1), true);
  if (period === "7d") return daysEnding(7, today, false);
  if (period === "30d") return daysEnding(30, today, false);
  if (isWeek(period)) {
    const monday = period.slice(5);
    if (monday > today) return undefined;
    return daysEnding(7, shiftDay(monday, 6), true);
  }
  const month = period;
  const thisMonth = today.slice(0, 7);
  if (month > thisMonth) return undefined;
  const before = monthBefore(month);
  const length = daysIn(month);
  const previousLength = daysIn(before);
  const current = month === thisMonth;
  const from = midnightOf(`${month}-01`, zone);
  // This month so far is compared with the month before up to the same day and time (or its end).
  const elapsedDays = Number(today.slice(8)) - 1;
  const previousCut =
    elapsedDays < previousLength
      ? midnightOf(shiftDay(`${before}-01`, elapsedDays), zone) + sinceMidnight
      : midnightOf(`${month}-01`, zone);
  return {
    period,
    zone,
    from,
    to: current ? nowSeconds : midnightOf(shiftDay(`${month}-01`, length), zone),
    previous: { from: midnightOf(`${before}-01`, zone), to: current ? previousCut : from },
    buckets: {
      unit: "day",
      starts: dayStarts(`${month}-01`, length, zone),
      previousStarts: dayStarts(`${before}-01`, previousLength, zone),
      labels: Array.from({ length }, (_, index) => String(index + 1).padStart(2, "0")),
    },
  };
}

/** Index of the bucket `at` falls in (starts ascending), or -1 before the first. */
export function bucketOf(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((starts[middle] ?? 0) <= at) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
