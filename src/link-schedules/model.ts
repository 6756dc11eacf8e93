import { z } from "zod";
import { defineFamily } from "../store/claims/family.js";

// A repeating invoice (issue 51, item 4): one item of family `link-schedule` per schedule, keyed by
// its register and id, due at its next run; each run makes one payment link (links/create.ts) whose
// ref comes from the schedule's id and the run's number, so however many replicas run it, the
// links' book refuses a second. A register's schedules are listed by one document
// (`link-schedule-list`) for `/invoice recurring`.

export const SCHEDULE_FAMILY = "link-schedule";
export const SCHEDULE_LIST_FAMILY = "link-schedule-list";
export const SCHEDULE_FIELD = "schedule";

/** A schedule's id: as a link's ref (10 base32 letters), so buttons carry it as they do a ref. */
export const SCHEDULE_ID = /^[a-z2-7]{10}$/;
/** A time of day, 24-hour. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A calendar day. */
export const CALENDAR_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** At most this many schedules per register (`/invoice recurring` lists them all). */
export const MAX_SCHEDULES = 50;
/** The most runs a schedule may be given (`N times`). */
export const MAX_TIMES = 1000;

/**
 * When it runs: every week on a weekday (1 Monday … 7 Sunday) or every month on a day (1–31; a
 * short month's last day stands for a day it lacks), at a time of day in the schedule's zone.
 */
export const ruleSchema = z.object({
  every: z.enum(["week", "month"]),
  day: z.number().int().min(1).max(31),
  at: z.string().regex(TIME_OF_DAY),
});
export type Rule = z.infer<typeof ruleSchema>;

/** The invoice each run asks for (as the create form took it; the user's own `extra`). */
export const orderSchema = z.object({
  amount: z.string().regex(/^\d{1,15}(\.\d{1,8})?$/),
  currency: z.string().min(1).max(12),
  lifetimeMinutes: z.number().int().min(1).max(4320),
  description: z.string().max(500).optional(),
  extra: z.string().max(200).optional(),
  email: z.string().min(3).max(254).optional(),
  method: z.string().min(1).max(60).optional(),
  customer: z.string().min(1).max(80).optional(),
});
export type Order = z.infer<typeof orderSchema>;

/** `active`: runs at `nextAt`; `paused`: by a person, or by Kassa when its register was disconnected; `ended`. */
export const SCHEDULE_STATUSES = ["active", "paused", "ended"] as const;

export const scheduleSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(SCHEDULE_ID),
  team: z.string().min(1).max(40),
  /** The register's key (main's is the team id) and, where it is not main, its name. */
  registerKey: z.string().min(1).max(140),
  register: z.string().min(1).max(100).optional(),
  /** Who made it: the person each run's link goes to. */
  owner: z.string().regex(/^[UW][A-Z0-9]{2,20}$/),
  /** Where each run's card is posted. */
  channel: z.string().regex(/^[CGDU][A-Z0-9]{2,40}$/),
  rule: ruleSchema,
  /** The IANA zone its days and times are read in (the workspace's). */
  zone: z.string().min(1).max(60),
  /** The last day a run may fall on (inclusive), or how many runs in all. */
  until: z.string().regex(CALENDAR_DAY).optional(),
  times: z.number().int().min(1).max(MAX_TIMES).optional(),
  order: orderSchema,
  status: z.enum(SCHEDULE_STATUSES),
  /** Who paused it: a person, or "kassa" (its register was disconnected at a run). */
  pausedBy: z.string().min(1).max(40).optional(),
  /** The next run (epoch ms); meaningless once ended. */
  nextAt: z.number().int().nonnegative(),
  /** Runs made so far: the next run's number is runs + 1. */
  runs: z.number().int().min(0).max(100_000),
  createdAt: z.number().int().nonnegative(),
  /** When it ended (the last run made, or its `until` passed): forgotten a while after. */
  endedAt: z.number().int().nonnegative().optional(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const SCHEDULES = defineFamily({
  name: SCHEDULE_FAMILY,
  fields: { [SCHEDULE_FIELD]: scheduleSchema },
  kept: "until deleted, or 30 days after it ended",
});

/** A register's schedules: their ids, in the order they were made. */
export const scheduleListSchema = z.object({
  ids: z.array(z.string().regex(SCHEDULE_ID)).max(MAX_SCHEDULES),
});
export type ScheduleList = z.infer<typeof scheduleListSchema>;

/** A schedule's key on the board: its register's key and its id. */
export function scheduleKey(registerKey: string, id: string): string {
  return `${registerKey}:${id}`;
}

/** Runs still to come (undefined: no count was set). */
export function runsLeft(schedule: Schedule): number | undefined {
  return schedule.times === undefined ? undefined : Math.max(0, schedule.times - schedule.runs);
}
