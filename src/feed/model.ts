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
  /** This feed holds the announcement's claim (claimOnce): a retry posts without claiming again. */
  claimed: z.boolean().optional(),
  /** The claim's owner, written down before claiming, so a claim made just before a crash is ours. */
  claimToken: z.string().max(64).optional(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** Why a feed is quiet: Kassa is not in the channel, or the history could not be read. */
export const pauseSchema = z.object({
  reason: z.enum(["not_in_channel", "unreadable_history"]),
  at: z.number().int(),
  /** The subscriber was told (once). */
  told: z.boolean(),
});
export type Pause = z.infer<typeof pauseSchema>;

/**
 * What one channel's feed knows, written only by the replica holding the register's pass: the last
 * state seen per invoice (newest last, bounded), what it still owes Slack, and why it is quiet.
 */
export const feedStateSchema = z.object({
  seen: z.array(z.tuple([z.string(), z.string()])).max(5000),
  owed: z.array(announcementSchema).max(500),
  /** Tries of the first owed announcement that failed in a row (spaces retries, bounds a stuck one). */
  attempts: z.number().int().nonnegative().default(0),
  pause: pauseSchema.nullish(),
  /** The local day (YYYY-MM-DD) whose digest Slack took last: one per day. */
  digestDay: z.string().nullish(),
});
export type FeedState = z.infer<typeof feedStateSchema>;

export function emptyState(): FeedState {
  return { seen: [], owed: [], attempts: 0, pause: null };
}
