import { z } from "zod";

/** paid: each invoice that becomes paid; all: also new, failed and wrong-amount invoices. */
export const FEED_MODES = ["paid", "all"] as const;
export type FeedMode = (typeof FEED_MODES)[number];

const slackId = z.string().regex(/^[A-Z0-9]{2,40}$/);

/** One channel following the cash register (a workspace may have several, each once). */
export const subscriptionSchema = z.object({
  channel: slackId,
  mode: z.enum(FEED_MODES),
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

export const subscriptionsSchema = z.object({ channels: z.array(subscriptionSchema).max(50) });

/** An invoice change owed to a channel: written before Slack is called, cleared once it took it. */
export const announcementSchema = z.object({
  id: z.string().min(1).max(100),
  state: z.string().min(1).max(100),
  /** Not in the history before: a new invoice (said so in `all` mode). */
  isNew: z.boolean().optional(),
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

/**
 * What one channel's feed knows, written only under its workspace's turn (the ledger refuses a
 * writer that lost it): the last state seen per invoice (bounded, the newest created kept), what
 * it still owes Slack, how far back a long history is still to be read, and why it is quiet.
 */
export const feedStateSchema = z.object({
  /** The subscription (its `since`) this state belongs to: a new subscription starts afresh. */
  since: z.number().int().nonnegative().optional(),
  seen: z.array(seenSchema).max(20_000),
  owed: z.array(announcementSchema).max(5000),
  /** More history than one turn reads: the page the next turn goes on from. */
  scanFrom: z.number().int().positive().nullish(),
  pause: pauseSchema.nullish(),
  /** History reads that went well in a row while paused for an unreadable history. */
  goodReads: z.number().int().nonnegative().default(0),
  /** When the subscriber was last told the feed paused (at most one such note an hour). */
  pausedNoteAt: z.number().int().nullish(),
  /** The local day (YYYY-MM-DD) whose digest Slack took last: one per day. */
  digestDay: z.string().nullish(),
});
export type FeedState = z.infer<typeof feedStateSchema>;

export function emptyState(since?: number): FeedState {
  return { ...(since === undefined ? {} : { since }), seen: [], owed: [], goodReads: 0, pause: null };
}
