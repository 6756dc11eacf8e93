import { z } from "zod";
import { dayIn, localMoment, monthPeriod, type PeriodName, shiftDay } from "../reports/periods.js";

/** Digests beside the feed's daily one: a week's report on Mondays, a month's on the 1st. */
export const CADENCES = ["weekly", "monthly"] as const;
export type Cadence = (typeof CADENCES)[number];

const slackId = z.string().regex(/^[A-Z0-9]{2,40}$/);

/** One channel's weekly or monthly report: when (HH:MM in `zone`), set up by whom and when. */
export const periodDigestSchema = z.object({
  channel: slackId,
  cadence: z.enum(CADENCES),
  at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  zone: z.string().min(1).max(60),
  /** Epoch ms: only periods whose moment comes after this are posted (never one from before). */
  since: z.number().int().nonnegative(),
  /** The admin who set it up: the monthly CSV goes to them when the channel may not see it. */
  by: slackId,
});
export type PeriodDigest = z.infer<typeof periodDigestSchema>;
export const digestListSchema = z.object({ digests: z.array(periodDigestSchema).max(100) });

/**
 * What a digest owes Slack: the period it owes (`key`) with the token its claim is made with, written
 * before Slack is called; `posted`, the last period Slack took. A process that dies between claiming
 * and posting leaves the token, and the next pass claims with it again and posts.
 */
export const digestStateSchema = z.object({
  posted: z.string().max(20).nullish(),
  owed: z.object({ key: z.string().max(20), token: z.string().max(64) }).nullish(),
});
export type DigestState = z.infer<typeof digestStateSchema>;

/**
 * The period a digest owes at `now`, if its moment has come: weekly, the week (Monday to Sunday)
 * before this week's Monday at `at`; monthly, last month once this month's 1st at `at` has passed.
 * `key` names the posting (the Monday, or the month), once per period.
 */
export function periodDigestDue(
  now: Date,
  digest: PeriodDigest,
): { key: string; period: PeriodName } | undefined {
  const today = dayIn(now, digest.zone);
  let start: string;
  let period: PeriodName;
  if (digest.cadence === "weekly") {
    const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
    start = shiftDay(today, -((weekday + 6) % 7));
    period = `week-${shiftDay(start, -7)}`;
  } else {
    start = `${today.slice(0, 7)}-01`;
    const month = monthPeriod(shiftDay(start, -1).slice(0, 7));
    if (!month) return undefined;
    period = month;
  }
  const moment = localMoment(start, `${digest.at}:00`, digest.zone) * 1000;
  if (now.getTime() < moment || moment < digest.since) return undefined;
  return { key: digest.cadence === "weekly" ? start : start.slice(0, 7), period };
}
