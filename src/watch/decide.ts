import { isExpired } from "../blocks/invoice.js";
import type { WatchStatus } from "../blocks/watch.js";
import { NotConnectedError, ServiceError } from "../payments/errors.js";
import type { Invoice } from "../payments/model.js";
import {
  amountsFingerprint,
  FINAL_STATES,
  MAX_INTERVAL_MS,
  type RescheduleFields,
  type Watch,
  type WatchCard,
} from "./model.js";
import { nothingOwed } from "./owed.js";

/**
 * What a read of a watched invoice means, decided without I/O (the watcher does the I/O): whether to
 * read at all, what the cards should show, what changed, and when to look again. Tested as a table.
 */

/** The watcher's settings a decision uses. */
export type WatchLimits = { intervalMs: number; maxHours: number; maxReadsPerSecond: number };

/** After a failed read, or after an hour without a change, each read waits this much longer than the last. */
const BACKOFF_FACTOR = 1.5;
/** For its first hour a watch is read as often as its register's budget allows... */
const FULL_SPEED_MS = 60 * 60_000;
/** ...then it may slow down to this (a payment an hour or more after the card is rarer). */
const SLOW_INTERVAL_MS = 5 * 60_000;
/** The "last checked" line is redrawn no more often than this (chat.update is rate-limited per workspace). */
export const CHECKED_LINE_REFRESH_MS = 5 * 60_000;
/** Something owed to Slack is tried again after 2 s, doubling per attempt, at most a minute apart. */
const OWED_RETRY_MS = 2000;
const OWED_RETRY_MAX_MS = 60_000;

/**
 * After a read without a change: as often as the register's budget lets every one of its watches be
 * read (WATCH_MAX_RPS), never more often than WATCH_INTERVAL_MS; after the first hour, slowing down
 * towards SLOW_INTERVAL_MS (never below the budget's pace).
 */
export function readIntervalMs(
  limits: Pick<WatchLimits, "intervalMs" | "maxReadsPerSecond">,
  watchesOfRegister: number,
  watchedForMs: number,
  previousIntervalMs: number,
): number {
  const fair = Math.max(limits.intervalMs, Math.ceil((watchesOfRegister / limits.maxReadsPerSecond) * 1000));
  if (watchedForMs < FULL_SPEED_MS) return fair;
  return Math.max(fair, Math.min(SLOW_INTERVAL_MS, Math.round(previousIntervalMs * BACKOFF_FACTOR)));
}

/** The credentials were refused by the service, or are gone: reading again will not help. */
export function credentialsFailed(error: unknown): boolean {
  if (error instanceof NotConnectedError) return true;
  return error instanceof ServiceError && error.messages.some((message) => /auth/i.test(message));
}

/** Before reading a claimed watch: drop it (no cards left), end it (watched long enough), or read. */
export function beforeRead(
  watch: Watch,
  nowMs: number,
  limits: Pick<WatchLimits, "maxHours">,
): "drop" | "end" | "read" {
  if (watch.cards.length === 0) return "drop";
  if (nowMs >= watch.startedAt + limits.maxHours * 3_600_000) return "end";
  return "read";
}

/** What the cards show when a watch ends before a read (watched WATCH_MAX_HOURS). */
export function maxHoursStatus(limits: Pick<WatchLimits, "maxHours">): WatchStatus {
  return { kind: "ended", reason: "max_hours", hours: limits.maxHours };
}

/** What one read means. */
export type Judgement =
  /** The credentials no longer work: the cards say so and the watch ends. */
  | { kind: "end"; reason: "credentials"; status: WatchStatus }
  /** The service was slow, down or confused: read again later, a little less often (nobody is told). */
  | { kind: "read_later"; intervalMs: number }
  /** The invoice as read: what the cards show, and what to tell if this read is the first to see it. */
  | {
      kind: "seen";
      invoice: Invoice;
      /** The state shown: the service's, or "expired" once the payment page has closed. */
      state: string;
      amounts: string;
      final: boolean;
      status: WatchStatus;
      /** The state or an amount differs from what the cards were last told. */
      differs: boolean;
      /** A thread note is owed (the state changed, not only an amount). */
      notice: { from: string; to: string } | undefined;
    };

export function judgeRead(
  watch: Watch,
  read: { invoice: Invoice } | { error: unknown },
  checkedAt: Date,
  limits: Pick<WatchLimits, "intervalMs">,
): Judgement {
  if ("error" in read) {
    if (credentialsFailed(read.error))
      return { kind: "end", reason: "credentials", status: { kind: "ended", reason: "credentials" } };
    const intervalMs = Math.min(
      MAX_INTERVAL_MS,
      Math.max(limits.intervalMs, Math.round(watch.intervalMs * BACKOFF_FACTOR)),
    );
    return { kind: "read_later", intervalMs };
  }
  const { invoice } = read;
  const expired = isExpired(invoice, checkedAt);
  const state = expired ? "expired" : invoice.state;
  const amounts = amountsFingerprint(invoice);
  const final = FINAL_STATES.has(invoice.state) || expired;
  const status: WatchStatus = final
    ? { kind: "ended", reason: expired ? "expired" : "final" }
    : { kind: "watching", lastCheckedAt: checkedAt };
  const differs = state !== watch.state || amounts !== watch.amounts;
  const notice = state !== watch.state ? { from: watch.state, to: state } : undefined;
  return { kind: "seen", invoice, state, amounts, final, status, differs, notice };
}

/** Whether every channel card is redrawn after this read: a final state, a change, or a stale "last checked" line. */
export function redrawAll(
  judgement: { final: boolean },
  changed: boolean,
  checkedAtMs: number,
  watch: Watch,
): boolean {
  return judgement.final || changed || checkedAtMs - watch.cardsUpdatedAt >= CHECKED_LINE_REFRESH_MS;
}

/** The most attempts among cards that still owe Slack something; undefined when none owes. */
export function owedAttempts(cards: readonly WatchCard[]): number | undefined {
  const owing = cards.filter((card) => !nothingOwed(card.owed));
  return owing.length > 0 ? Math.max(0, ...owing.map((card) => card.owed?.attempts ?? 0)) : undefined;
}

/** What happened after the read was delivered to the cards. */
export type Delivered = {
  checkedAtMs: number;
  final: boolean;
  /** This read told the change (won the compare-and-set). */
  changed: boolean;
  /** Every channel card was redrawn. */
  redrawn: boolean;
  /** The most attempts among cards that still owe Slack something; undefined when none owes. */
  owedAttempts: number | undefined;
  /** How long after `checkedAtMs` Slack's Retry-After ends, if any call answered ratelimited. */
  retryAfterMs: number;
  watchesOfRegister: number;
};

/**
 * When to look again: never (final and nothing owed: the watch ends), or the next read; something
 * still owed to Slack is tried sooner (backoff from 2 s to a minute), never before Retry-After.
 */
export function nextCheck(
  watch: Watch,
  done: Delivered,
  limits: Pick<WatchLimits, "intervalMs" | "maxReadsPerSecond">,
): { kind: "end" } | { kind: "reschedule"; dueAt: number; patch: RescheduleFields } {
  const owing = done.owedAttempts !== undefined;
  if (done.final && !owing) return { kind: "end" };
  const at = done.checkedAtMs;
  const intervalMs = done.changed
    ? limits.intervalMs
    : readIntervalMs(limits, done.watchesOfRegister, at - watch.startedAt, watch.intervalMs);
  const nextRead = at + intervalMs;
  const patch: RescheduleFields = {
    intervalMs,
    lastCheckedAt: at,
    ...(done.redrawn && !owing ? { cardsUpdatedAt: at } : {}),
  };
  if (!owing) return { kind: "reschedule", dueAt: nextRead, patch };
  const retryAt =
    at +
    Math.max(done.retryAfterMs, Math.min(OWED_RETRY_MAX_MS, OWED_RETRY_MS * 2 ** (done.owedAttempts ?? 0)));
  // Never before Slack's Retry-After, whatever the read schedule says.
  return { kind: "reschedule", dueAt: Math.max(at + done.retryAfterMs, Math.min(nextRead, retryAt)), patch };
}
