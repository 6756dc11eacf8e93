import { z } from "zod";
import { HISTORY_LIMITS } from "../payments/history-limits.js";

/**
 * paid: each invoice that becomes paid; all: also new, failed, wrong-amount and expired unpaid
 * invoices. Kept beside `filter` (which says it all) so subscriptions written before filters read
 * as before, and a replica of the version before reads a filtered feed as the nearest mode.
 */
export const FEED_MODES = ["paid", "all"] as const;
export type FeedMode = (typeof FEED_MODES)[number];

/** What a feed can post: a payment, a failed payment, a wrong amount paid, an unpaid invoice expired, a new invoice. */
export const FEED_EVENTS = ["paid", "failed", "wrongamount", "expired", "new"] as const;
export type FeedEvent = (typeof FEED_EVENTS)[number];
/** The failures (`/invoice subscribe failures`, and the form's "mention on failures"). */
export const FAILURE_EVENTS: readonly FeedEvent[] = ["failed", "wrongamount", "expired"];

const slackId = z.string().regex(/^[A-Z0-9]{2,40}$/);
/** A person in Slack (the form's user picker gives these ids; nothing else is ever mentioned). */
export const userIdSchema = z.string().regex(/^[UW][A-Z0-9]{2,40}$/);
/** A rouble amount as a decimal string (compared with big.js, never as a float). */
export const rubAmountSchema = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/);
/** People mentioned in one feed at most (the form's picker allows as many). */
export const MENTIONS_MAX = 10;

/** Which changes a feed posts. No `minRub`: any amount; no `methods`: any method; `tests: false`: no test payments. */
export const feedFilterSchema = z.object({
  events: z.array(z.enum(FEED_EVENTS)).min(1).max(FEED_EVENTS.length),
  minRub: rubAmountSchema.nullish(),
  methods: z.array(z.string().min(1).max(60)).min(1).max(100).nullish(),
  tests: z.boolean().optional(),
});
export type FeedFilter = z.infer<typeof feedFilterSchema>;

/**
 * Who a feed message mentions (only people picked in the form): on payments of at least `minRub`
 * (any amount without it) when `payments`, on failures when `failures`.
 */
export const mentionsSchema = z.object({
  users: z.array(userIdSchema).min(1).max(MENTIONS_MAX),
  payments: z.boolean(),
  minRub: rubAmountSchema.nullish(),
  failures: z.boolean(),
});
export type Mentions = z.infer<typeof mentionsSchema>;

/** The filter a mode stands for (subscriptions from before filters, and `/invoice subscribe paid|all`). */
export function filterOfMode(mode: FeedMode): FeedFilter {
  return { events: mode === "all" ? ["new", "paid", "failed", "wrongamount", "expired"] : ["paid"] };
}

/** The mode nearest a filter (what a replica of the version before filters reads). */
export function modeOfFilter(filter: FeedFilter): FeedMode {
  return filter.events.every((event) => event === "paid") ? "paid" : "all";
}

/** One channel following the cash register (a workspace may have several, each once). */
export const subscriptionSchema = z.object({
  channel: slackId,
  mode: z.enum(FEED_MODES),
  /** What it posts; none (subscribed before filters): what `mode` says. */
  filter: feedFilterSchema.nullish(),
  /** Whom it mentions, and when (the feed form only). */
  mentions: mentionsSchema.nullish(),
  /** Who subscribed: told privately when the feed pauses. */
  by: slackId,
  /** When (epoch ms): invoices created before it are never announced as new. */
  since: z.number().int().nonnegative(),
  /** Someone subscribed again to a paused feed at this time (epoch ms): its turn lifts the pause. */
  resumedAt: z.number().int().nullish(),
  /** A daily summary of yesterday, posted at `at` (HH:MM) in `zone`, from days after `since`. */
  digest: z
    .object({
      at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      zone: z.string().min(1).max(60),
      since: z.number().int().nonnegative(),
    })
    .nullish(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** What a feed posts: its filter, or (subscribed before filters) its mode's. */
export function filterOf(subscription: Pick<Subscription, "mode" | "filter">): FeedFilter {
  return subscription.filter ?? filterOfMode(subscription.mode);
}

export const subscriptionsSchema = z.object({ channels: z.array(subscriptionSchema).max(50) });

/** An invoice change owed to a channel: written before Slack is called, cleared once it took it. */
export const announcementSchema = z.object({
  id: z.string().min(1).max(HISTORY_LIMITS.id),
  state: z.string().min(1).max(HISTORY_LIMITS.state),
  /** Not in the history before: a new invoice (said so in `all` mode). */
  isNew: z.boolean().optional(),
  /**
   * What made it news, its rouble amount and method as the history showed them: checked again
   * against the feed's filter when it is posted (a filter changed meanwhile). Owed before filters: none.
   */
  event: z.enum(FEED_EVENTS).optional(),
  // The history's own limits, so whatever a history read gives is kept: a rouble amount longer than
  // allowed here would make the channel's whole state unreadable.
  rub: z.string().max(HISTORY_LIMITS.decimal).nullish(),
  method: z.string().max(HISTORY_LIMITS.method).nullish(),
  /** Failed tries (the invoice could not be read, or Slack did not take it), and when the first was. */
  failures: z.number().int().nonnegative().optional(),
  firstFailedAt: z.number().int().optional(),
  /** Not tried again before this (epoch ms): a failing announcement waits; the ones after it go on. */
  retryAt: z.number().int().optional(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** Why a feed is quiet: Kassa is not in the channel, or the history could not be read. */
export const pauseSchema = z.object({
  reason: z.enum(["not_in_channel", "unreadable_history"]),
  at: z.number().int(),
  /** The subscriber was told of this pause (so a resumed note follows it). */
  told: z.boolean(),
});
export type Pause = z.infer<typeof pauseSchema>;

/**
 * One invoice as the channel last saw it: id, state, and its creation time in epoch seconds
 * (older states, from before it was kept, have none).
 */
const seenSchema = z.union([
  z.tuple([z.string(), z.string(), z.number().int()]),
  z.tuple([z.string(), z.string()]),
]);
export type Seen = z.infer<typeof seenSchema>;

/** An unpaid invoice waiting for its expiry: id, expiry (epoch seconds), rouble amount, method. */
const unpaidSchema = z.tuple([
  z.string(),
  z.number().int(),
  z.string().max(HISTORY_LIMITS.decimal).nullable(),
  z.string().max(HISTORY_LIMITS.method).nullable(),
]);
export type Unpaid = z.infer<typeof unpaidSchema>;

/**
 * What one channel's feed knows, written only under its workspace's turn (the ledger refuses a
 * writer that lost it): the last state seen per invoice (bounded, the newest created kept), what
 * it still owes Slack, how far back a long history is still to be read, and why it is quiet.
 */
export const feedStateSchema = z.object({
  /** The subscription (its `since`) this state belongs to: a new subscription starts afresh. */
  since: z.number().int().nonnegative(),
  seen: z.array(seenSchema).max(20_000),
  owed: z.array(announcementSchema).max(5000),
  /** Unpaid invoices with their expiry: told once as "expired unpaid" when it passes (bounded). */
  unpaid: z.array(unpaidSchema).max(5000).default([]),
  /** More history than one turn reads: the page the next turn goes on from. */
  scanFrom: z.number().int().positive().nullish(),
  /**
   * When the oldest invoice read that the service may still change was created (epoch seconds):
   * each turn reads at least down to it, so a payment deep in the history is seen too.
   */
  openSince: z.number().int().nullish(),
  pause: pauseSchema.nullish(),
  /** History reads that went well in a row while paused for an unreadable history. */
  goodReads: z.number().int().nonnegative().default(0),
  /** When the subscriber was last told the feed paused (at most one such note an hour). */
  pausedNoteAt: z.number().int().nullish(),
  /** The local day (YYYY-MM-DD) whose digest Slack took last: one per day. */
  digestDay: z.string().nullish(),
});
export type FeedState = z.infer<typeof feedStateSchema>;

export function emptyState(since: number): FeedState {
  return {
    since,
    seen: [],
    owed: [],
    unpaid: [],
    goodReads: 0,
    pause: null,
  };
}
