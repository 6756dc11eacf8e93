import { feedPausedText, feedResumedText } from "../blocks/feed.js";
import { OWED_LIMIT } from "./changes.js";
import { type TurnEnd, turnDueAt } from "./decide.js";
import { type Delivered, deliverChannel } from "./delivery.js";
import { feedLanguage, type Turn } from "./deps.js";
import { digests } from "./digest.js";
import { expiredUnpaid } from "./expiry.js";
import { type HistoryRead, readHistory } from "./history-read.js";
import { emptyState, type FeedState, type Subscription } from "./model.js";
import { tellSubscriber } from "./notes.js";
import { afterGoodRead, afterUnreadableHistory, type PauseNote } from "./pause.js";

/**
 * One turn over one register's feed: read its history once for all its channels, write down what
 * each channel is owed, post within the turn's share, the digests; then say when it is due again
 * (at once when a backlog is left, else after the interval or the next retry of a failing message).
 * Every write goes through the turn's claim: a turn that lost it stops at its next write.
 */
export async function workTurn(given: Turn): Promise<{ dueAt: number }> {
  const { ctx, team } = given;
  const started = ctx.now().getTime();
  const due = (end: TurnEnd) => ({ dueAt: turnDueAt(end, started, ctx.options.intervalMs) });
  const all = await ctx.deps.feeds.channels(team);
  if (all.length === 0) return due({ kind: "idle" });
  // A register kept to chosen channels posts only there (a feed made before it was kept waits).
  const register = (await ctx.deps.registers?.(team)) ?? { label: undefined, keptTo: undefined };
  const subscriptions = all.filter((entry) => register.keptTo?.includes(entry.channel) ?? true);
  if (subscriptions.length === 0) return due({ kind: "idle" });
  const turn: Turn = { ...given, label: register.label };
  const states = new Map<string, FeedState>();
  for (const subscription of subscriptions)
    states.set(subscription.channel, await stateFor(turn, subscription));
  const loaded = new Map(states);

  const read = await readHistory(turn, subscriptions, states);
  if (!read.ok)
    ctx.deps.logger.warn(
      { team, err: read.error, outcome: "feed_read_failed" },
      "feed history could not be read",
    );
  if (!(await writeOwed(turn, subscriptions, states, loaded, read))) return due({ kind: "lost" });
  const delivered = await deliverAll(turn, subscriptions, states);
  const more = (read.ok && read.more) || delivered.more;
  await digests(turn, subscriptions, states);
  return due({ kind: "worked", now: ctx.now().getTime(), more, nextTryAt: delivered.nextTryAt });
}

/**
 * What each channel is owed after the read (or its pause after a failed one), written where it
 * changed, then the pauses told; false when the turn lost its claim.
 */
async function writeOwed(
  turn: Turn,
  subscriptions: readonly Subscription[],
  states: Map<string, FeedState>,
  loaded: ReadonlyMap<string, FeedState>,
  read: HistoryRead,
): Promise<boolean> {
  const notes = new Map<Subscription, PauseNote>();
  for (const subscription of subscriptions) {
    const now = turn.ctx.now().getTime();
    const state = states.get(subscription.channel) as FeedState;
    const after = read.ok ? afterGoodRead(state) : afterUnreadableHistory(state, now);
    // Expiries are told only after a good read: a payment made just before one would otherwise be missed.
    if (read.ok)
      after.state = expiredUnpaid(after.state, subscription, now, OWED_LIMIT - after.state.owed.length).state;
    states.set(subscription.channel, after.state);
    if (after.note) notes.set(subscription, after.note);
    if (
      after.state !== loaded.get(subscription.channel) &&
      !(await turn.write(subscription.channel, after.state))
    )
      return false;
  }
  for (const [subscription, note] of notes) await tellPause(turn, subscription, note);
  return true;
}

/** Each channel's delivery within the turn's share: whether more is due at once, and the next retry. */
async function deliverAll(
  turn: Turn,
  subscriptions: readonly Subscription[],
  states: Map<string, FeedState>,
): Promise<{ more: boolean; nextTryAt: number }> {
  let more = false;
  let nextTryAt = Number.POSITIVE_INFINITY;
  for (const subscription of subscriptions) {
    if (turn.over()) break;
    const delivered: Delivered = await deliverChannel(
      turn,
      subscription,
      states.get(subscription.channel) as FeedState,
    );
    states.set(subscription.channel, delivered.state);
    more ||= delivered.more;
    nextTryAt = Math.min(nextTryAt, delivered.nextTryAt ?? Number.POSITIVE_INFINITY);
  }
  return { more, nextTryAt };
}

/**
 * The channel's state for this subscription: a new subscription (another `since`) starts afresh,
 * and one subscribed again while paused has the pause lifted.
 */
async function stateFor(turn: Turn, subscription: Subscription): Promise<FeedState> {
  const stored = await turn.ctx.deps.feeds.state(turn.team, subscription.channel);
  let state = stored?.since === subscription.since ? stored : emptyState(subscription.since);
  const resumedAt = subscription.resumedAt;
  if (state.pause && resumedAt != null && state.pause.at <= resumedAt)
    state = { ...state, pause: null, goodReads: 0 };
  return state;
}

async function tellPause(turn: Turn, subscription: Subscription, note: PauseNote): Promise<void> {
  const { ctx, team } = turn;
  const lang = await feedLanguage(ctx, team);
  const log = { team, channel: subscription.channel };
  if (note === "paused") {
    ctx.deps.logger.warn({ ...log, outcome: "feed_paused", reason: "unreadable_history" }, "feed paused");
    await tellSubscriber(
      turn,
      subscription,
      feedPausedText("unreadable_history", subscription.channel, lang),
    );
  } else if (note === "resumed") {
    ctx.deps.logger.info({ ...log, outcome: "feed_resumed" }, "feed resumed");
    await tellSubscriber(turn, subscription, feedResumedText(subscription.channel, lang));
  }
}
