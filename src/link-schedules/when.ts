import { dayIn, localMoment, shiftDay } from "../reports/periods.js";
import type { Rule, Schedule } from "./model.js";

// When a schedule runs: pure arithmetic on calendar days in the schedule's zone. The first run is
// the next such moment, today included (this very minute too); each next one the next matching day
// after the last run's. A monthly day a month lacks (31 in April) falls on that month's last day.

/** How far ahead a matching day is looked for: every rule matches once within any 31 days. */
const SEARCH_DAYS = 32;

/** The weekday of a calendar day: 1 Monday … 7 Sunday. */
export function weekdayOf(day: string): number {
  return ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

function daysInMonth(day: string): number {
  const [year, month] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a run falls on `day`. */
export function runsOn(rule: Rule, day: string): boolean {
  if (rule.every === "week") return weekdayOf(day) === rule.day;
  return Number(day.slice(8, 10)) === Math.min(rule.day, daysInMonth(day));
}

/** The moment of a run on `day` (epoch ms). */
function momentOn(rule: Rule, day: string, zone: string): number {
  return localMoment(day, `${rule.at}:00`, zone) * 1000;
}

/** The first matching day from `from` (inclusive) whose run is not before `notBefore`. */
function firstFrom(rule: Rule, zone: string, from: string, notBefore: number): number {
  for (let offset = 0; offset <= SEARCH_DAYS * 2; offset += 1) {
    const day = shiftDay(from, offset);
    if (runsOn(rule, day) && momentOn(rule, day, zone) >= notBefore) return momentOn(rule, day, zone);
  }
  throw new Error(`no run of ${rule.every} ${rule.day} within ${SEARCH_DAYS * 2} days`);
}

/** The first run: the next such moment from `now`, today included (this minute counts). */
export function firstRun(rule: Rule, now: number, zone: string): number {
  const minute = now - (now % 60_000);
  return firstFrom(rule, zone, dayIn(new Date(now), zone), minute);
}

/** The run after the one due at `previous`: the next matching day after that run's day. */
export function runAfter(rule: Rule, previous: number, zone: string): number {
  return firstFrom(rule, zone, shiftDay(dayIn(new Date(previous), zone), 1), previous + 1);
}

/** A rule from what was given, with today's day and this minute's time where left out. */
export function ruleWith(
  given: { every: Rule["every"]; day?: number | undefined; at?: string | undefined },
  now: number,
  zone: string,
): Rule {
  const today = dayIn(new Date(now), zone);
  const day = given.day ?? (given.every === "week" ? weekdayOf(today) : Number(today.slice(8, 10)));
  const at =
    given.at ??
    new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .format(new Date(now))
      .slice(0, 5);
  return { every: given.every, day, at };
}

/** Whether a run at `at` would come after the schedule's end (its `until` day, or its count spent). */
export function endsBefore(
  schedule: Pick<Schedule, "until" | "times" | "zone">,
  runs: number,
  at: number,
): boolean {
  if (schedule.times !== undefined && runs >= schedule.times) return true;
  return schedule.until !== undefined && dayIn(new Date(at), schedule.zone) > schedule.until;
}
