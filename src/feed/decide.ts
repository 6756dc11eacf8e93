import { slackErrorCode } from "../slack/error.js";
import { isChannelGone, slackFailureOfCode } from "../slack/failures.js";
import { type CardFailure, classifyCardFailure } from "../watch/delivery.js";
import type { Announcement, FeedState } from "./model.js";

/**
 * What the feed does with what a channel is owed, decided without I/O (delivery.ts and turn.ts do
 * the I/O): post the next message or let it wait, what a post's outcome leaves owed, when a failing
 * message is tried again or given up, when a channel stops for the turn, and when the workspace's
 * next turn is due. Tested as a table.
 */

/** An announcement that fails this long (its invoice unreadable, or Slack not taking it) is given up. */
export const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;
/** Longest wait between two tries of one failing announcement. */
const MAX_RETRY_WAIT_MS = 30 * 60 * 1000;
/** A workspace without feeds is looked at again after this many intervals (its row is dropped on uninstall). */
const IDLE_INTERVALS = 10;

/**
 * What posting one announcement came to. skipped: no longer for this channel (its filter changed,
 * or an expiry's invoice was paid meanwhile); unreadable: its invoice could not be read; not_taken:
 * Slack did not take it; not_in_channel: Kassa cannot post there; lost: the turn lost its claim.
 */
export type PostOutcome = "sent" | "skipped" | "unreadable" | "not_taken" | "not_in_channel" | "lost";

/** A channel paused because Kassa is not in it stays quiet: what it was owed is dropped, not piled up. */
export function beforeChannel(
  state: FeedState,
): { kind: "deliver" } | { kind: "quiet"; state: FeedState; write: boolean } {
  if (state.pause?.reason !== "not_in_channel") return { kind: "deliver" };
  return { kind: "quiet", state: { ...state, owed: [] }, write: state.owed.length > 0 };
}

/** How much of its share the turn has used. */
export type TurnShare = {
  /** The turn's time is up. */
  over: boolean;
  /** The turn is past the time its posting should take. */
  late: boolean;
  /** Messages posted in this channel this turn. */
  posted: number;
  postsPerTurn: number;
};

/**
 * Before the next owed message: stop for the turn with more to do (its share is used; at least one
 * message a turn, however long its reading took), let it wait (its retry is not due), or post it.
 */
export function nextStep(
  share: TurnShare,
  message: Announcement,
  now: number,
): { kind: "share_used" } | { kind: "wait" } | { kind: "post" } {
  if (share.over || (share.posted > 0 && share.late) || share.posted >= share.postsPerTurn)
    return { kind: "share_used" };
  if ((message.retryAt ?? 0) > now) return { kind: "wait" };
  return { kind: "post" };
}

/** What Slack's refusal of a post means: the channel is gone, or Slack did not take it this time. */
export type PostFailure =
  | { kind: "channel_gone"; code: string }
  | { kind: "not_taken"; code: string; failure: CardFailure["kind"] };

/** Kassa cannot post in the channel (not in it, or archived): the feed pauses until subscribed again. */
export function postFailure(error: unknown): PostFailure {
  const code = slackErrorCode(error);
  if (isChannelGone(slackFailureOfCode(code))) return { kind: "channel_gone", code };
  return { kind: "not_taken", code, failure: classifyCardFailure(error).kind };
}

/** What a post's outcome leaves: the channel's state to write, and what else is done. */
export type AfterPost =
  /** The turn lost its claim: nothing is written and the channel stops. */
  | { kind: "lost" }
  /** Kassa cannot post in the channel: paused, owed dropped, the subscriber told; the channel stops. */
  | { kind: "pause"; state: FeedState }
  /** Slack has it (posted or left to its live card), or it is no longer due here: written off. */
  | { kind: "written_off"; state: FeedState; posted: boolean }
  /** It failed: tried again at `retryAt`; the ones after it go on unless `stopChannel`. */
  | { kind: "retry_later"; state: FeedState; retryAt: number; stopChannel: boolean }
  /** It failed a day after its first failure: written off, logged and the subscriber told. */
  | { kind: "give_up"; state: FeedState; why: "unreadable" | "not_taken"; stopChannel: boolean };

/** The owed message at `index` was tried at `now` and came to `outcome`. */
export function afterPost(
  state: FeedState,
  index: number,
  outcome: PostOutcome,
  now: number,
  intervalMs: number,
): AfterPost {
  if (outcome === "lost") return { kind: "lost" };
  if (outcome === "not_in_channel")
    return {
      kind: "pause",
      state: { ...state, owed: [], pause: { reason: "not_in_channel", at: now, told: true } },
    };
  const without = state.owed.filter((_, i) => i !== index);
  if (outcome === "sent" || outcome === "skipped")
    return { kind: "written_off", state: { ...state, owed: without }, posted: outcome === "sent" };
  const failed = withFailure(state.owed[index] as Announcement, now, intervalMs);
  // Slack not taking messages is the channel's trouble, not one invoice's: try again next turn.
  const stopChannel = outcome === "not_taken";
  if (now - (failed.firstFailedAt ?? now) >= GIVE_UP_AFTER_MS)
    return { kind: "give_up", state: { ...state, owed: without }, why: outcome, stopChannel };
  const owed = state.owed.with(index, failed);
  return { kind: "retry_later", state: { ...state, owed }, retryAt: failed.retryAt ?? now, stopChannel };
}

/** One more failure: tried again after the feed's interval, doubling with each failure up to 30 minutes. */
export function withFailure(announcement: Announcement, now: number, intervalMs: number): Announcement {
  const failures = (announcement.failures ?? 0) + 1;
  const wait = Math.min(
    intervalMs * 2 ** Math.min(failures - 1, 20),
    Math.max(intervalMs, MAX_RETRY_WAIT_MS),
  );
  return { ...announcement, failures, firstFailedAt: announcement.firstFailedAt ?? now, retryAt: now + wait };
}

/** The soonest retry still ahead among what the channel is owed; undefined when none waits. */
export function nextTryAt(owed: readonly Announcement[], now: number): number | undefined {
  const waiting = owed.map((entry) => entry.retryAt ?? 0).filter((at) => at > now);
  return waiting.length > 0 ? Math.min(...waiting) : undefined;
}

/** What a turn came to, for when the workspace is due again. */
export type TurnEnd =
  /** The workspace has no feeds. */
  | { kind: "idle" }
  /** A write was refused: the turn lost its claim (whoever holds it now decides). */
  | { kind: "lost" }
  /** More is due now (history or owed messages left), else the next try of a failing message. */
  | { kind: "worked"; now: number; more: boolean; nextTryAt: number };

/**
 * When the workspace's next turn is due: at once with a backlog, else after the interval (run from
 * the turn's start, so a turn's own work does not stretch the cadence) or a failing message's next
 * try, whichever is sooner.
 */
export function turnDueAt(end: TurnEnd, started: number, intervalMs: number): number {
  if (end.kind === "idle") return started + IDLE_INTERVALS * intervalMs;
  if (end.kind === "lost") return started;
  if (end.more) return end.now;
  return Math.min(Math.max(end.now, started + intervalMs), end.nextTryAt);
}
