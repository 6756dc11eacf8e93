import type { webApi } from "@slack/bolt";
import { buildFeedMessage, feedGivenUpText, feedPausedText } from "../blocks/feed.js";
import { isExpired } from "../blocks/invoice-state.js";
import type { Invoice } from "../payments/model.js";
import { slackErrorCode } from "../slack/error.js";
import { classifySlackFailure } from "../watch/delivery.js";
import { feedLanguage, type Turn } from "./deps.js";
import { factsOfAnnouncement, mentionsFor, rubOfInvoice, saysWhy, stillWanted } from "./filter.js";
import { type Announcement, type FeedState, filterOf, type Subscription } from "./model.js";
import { tellSubscriber } from "./notes.js";

/** An announcement that fails this long (its invoice unreadable, or Slack not taking it) is given up. */
export const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;
/** Longest wait between two tries of one failing announcement. */
const MAX_RETRY_WAIT_MS = 30 * 60 * 1000;

const CHANNEL_GONE = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

/** skipped: no longer for this channel (its filter changed, or an expiry's invoice was paid meanwhile). */
type PostOutcome = "sent" | "skipped" | "unreadable" | "not_taken" | "not_in_channel" | "lost";

/** What a channel's delivery left: its state, and whether more is due now or when the next try is. */
export type Delivered = { state: FeedState; more: boolean; nextTryAt: number | undefined };

/**
 * Posts what the channel is owed, oldest first, each written off once Slack has it. One that fails
 * waits on its own (backoff, given up after a day with a note) while the ones after it go on. Stops
 * at the turn's share (posts and time) with `more` set, or at once when the turn lost its claim.
 */
export async function deliverChannel(
  turn: Turn,
  subscription: Subscription,
  start: FeedState,
): Promise<Delivered> {
  const { ctx, team } = turn;
  const channel = subscription.channel;
  let state = start;
  if (state.pause?.reason === "not_in_channel") {
    // Quiet until someone subscribes again: what changed meanwhile is noted, not piled up.
    if (state.owed.length > 0) await turn.write(channel, { ...state, owed: [] });
    return { state: { ...state, owed: [] }, more: false, nextTryAt: undefined };
  }
  const slack = await ctx.deps.slack(team);
  if (!slack) return { state, more: false, nextTryAt: undefined };
  let posted = 0;
  let index = 0;
  while (index < state.owed.length) {
    // At least one message a turn, however long its reading took: a long read never starves posting.
    if (turn.over() || (posted > 0 && turn.late()) || posted >= ctx.options.postsPerTurn)
      return { state, more: true, nextTryAt: undefined };
    const next = state.owed[index] as Announcement;
    const now = ctx.now().getTime();
    if ((next.retryAt ?? 0) > now) {
      index += 1;
      continue;
    }
    // Unsubscribed (or subscribed afresh) since the turn began: nothing more is posted there.
    if (!(await stillSubscribed(turn, subscription))) {
      ctx.deps.logger.info(
        { team, channel, outcome: "feed_unsubscribed" },
        "feed channel unsubscribed during the turn: nothing more posted there",
      );
      return { state, more: false, nextTryAt: undefined };
    }
    const outcome = await post(turn, slack, subscription, next);
    if (outcome === "lost") return { state, more: false, nextTryAt: undefined };
    if (outcome === "not_in_channel") {
      const pause = { reason: "not_in_channel" as const, at: ctx.now().getTime(), told: true };
      state = { ...state, owed: [], pause };
      if (!(await turn.write(channel, state))) return { state, more: false, nextTryAt: undefined };
      const text = feedPausedText("not_in_channel", channel, await feedLanguage(ctx, team));
      await tellSubscriber(ctx, team, subscription, text);
      return { state, more: false, nextTryAt: undefined };
    }
    let owed: Announcement[];
    if (outcome === "sent" || outcome === "skipped") {
      owed = state.owed.filter((_, i) => i !== index);
      if (outcome === "sent") posted += 1;
    } else {
      const failed = withFailure(next, ctx.now().getTime(), ctx.options.intervalMs);
      const givenUp = ctx.now().getTime() - (failed.firstFailedAt ?? 0) >= GIVE_UP_AFTER_MS;
      owed = givenUp ? state.owed.filter((_, i) => i !== index) : state.owed.with(index, failed);
      if (givenUp) await giveUp(turn, subscription, next, outcome);
      else index += 1;
    }
    state = { ...state, owed };
    if (!(await turn.write(channel, state))) return { state, more: false, nextTryAt: undefined };
    // Slack not taking messages is the channel's trouble, not one invoice's: try again next turn.
    if (outcome === "not_taken") break;
  }
  const waiting = state.owed.map((entry) => entry.retryAt ?? 0).filter((at) => at > ctx.now().getTime());
  return { state, more: false, nextTryAt: waiting.length > 0 ? Math.min(...waiting) : undefined };
}

async function stillSubscribed(turn: Turn, subscription: Subscription): Promise<boolean> {
  const now = await turn.ctx.deps.feeds.channels(turn.team);
  return now.some((entry) => entry.channel === subscription.channel && entry.since === subscription.since);
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

async function giveUp(
  turn: Turn,
  subscription: Subscription,
  announcement: Announcement,
  why: "unreadable" | "not_taken",
): Promise<void> {
  const { ctx, team } = turn;
  ctx.deps.logger.warn(
    { team, channel: subscription.channel, invoice: announcement.id, reason: why, outcome: "feed_given_up" },
    "feed message given up after a day of failures",
  );
  const text = feedGivenUpText(subscription.channel, announcement.id, why, await feedLanguage(ctx, team));
  await tellSubscriber(ctx, team, subscription, text);
}

/**
 * Posts one announcement, as invoice/info tells it now, if the feed's filter (as it is now) still
 * takes it; Slack is told only while the turn holds its claim.
 */
async function post(
  turn: Turn,
  slack: webApi.WebClient,
  subscription: Subscription,
  announcement: Announcement,
): Promise<PostOutcome> {
  const { ctx, team } = turn;
  const channel = subscription.channel;
  const log = { team, channel, invoice: announcement.id, state: announcement.state };
  const skip = (reason: string): PostOutcome => {
    ctx.deps.logger.info({ ...log, reason, outcome: "feed_skipped" }, "feed message no longer due here");
    return "skipped";
  };
  const owedFacts = factsOfAnnouncement(announcement);
  if (!owedFacts || !stillWanted(subscription, owedFacts)) return skip("filter");
  if (await ctx.deps.feeds.hasCard(team, channel, announcement.id)) {
    // Its live card in this channel tells the change in its thread: not announced twice here.
    ctx.deps.logger.info(
      { ...log, outcome: "feed_left_to_card" },
      "feed leaves the invoice to its live card",
    );
    return "sent";
  }
  let invoice: Invoice;
  try {
    // The message says what invoice/info says now (the history lists no description or paid amount).
    invoice = await ctx.deps.reader.invoice(team, announcement.id);
  } catch (error) {
    ctx.deps.logger.warn({ ...log, err: error, outcome: "feed_read_failed" }, "feed invoice read failed");
    return "unreadable";
  }
  // Owed before filters kept amounts and methods: the invoice tells them now.
  const facts = {
    ...owedFacts,
    rub: owedFacts.rub ?? rubOfInvoice(invoice),
    method: owedFacts.method ?? invoice.method,
  };
  if (!stillWanted(subscription, facts)) return skip("filter");
  // Paid (or changed) after the history showed it unpaid: not "expired unpaid"; its change is told as it comes.
  if (facts.event === "expired" && !isExpired(invoice, ctx.now())) return skip("not_expired");
  const method = invoice.method
    ? await ctx.deps.reader.methodFor(team, invoice.method).catch(() => undefined)
    : undefined;
  const message = buildFeedMessage(
    // Told as the history showed it, even if it moved on since (its own change comes next).
    { ...invoice, state: announcement.state },
    {
      teamId: team,
      isNew: announcement.isNew === true,
      event: facts.event,
      method,
      lang: await feedLanguage(ctx, team),
      ...(saysWhy(subscription)
        ? { why: { filter: filterOf(subscription), mention: mentionsFor(subscription, facts) } }
        : {}),
    },
  );
  if (!(await turn.stillOurs())) return "lost";
  try {
    await slack.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    ctx.deps.logger.info({ ...log, outcome: "feed_posted" }, "feed message posted");
    return "sent";
  } catch (error) {
    const code = slackErrorCode(error);
    if (CHANNEL_GONE.has(code)) {
      ctx.deps.logger.warn(
        { ...log, slackError: code, outcome: "feed_paused", reason: "not_in_channel" },
        "feed paused",
      );
      return "not_in_channel";
    }
    const failure = classifySlackFailure(error);
    ctx.deps.logger.warn(
      { ...log, slackError: code, kind: failure.kind, outcome: "feed_post_failed" },
      "feed post failed",
    );
    return "not_taken";
  }
}
