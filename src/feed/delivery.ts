import type { webApi } from "@slack/bolt";
import { buildFeedMessage, feedGivenUpText, feedPausedText } from "../blocks/feed.js";
import { isExpired } from "../blocks/invoice-state.js";
import type { SlackMessage } from "../blocks/message.js";
import type { Invoice } from "../payments/model.js";
import { registerOfKey } from "../store/registers.js";
import { afterPost, beforeChannel, nextStep, nextTryAt, type PostOutcome, postFailure } from "./decide.js";
import { feedLanguage, type Turn } from "./deps.js";
import { factsOfAnnouncement, mentionsFor, rubOfInvoice, saysWhy, stillWanted } from "./filter.js";
import { type Announcement, type FeedState, filterOf, type Subscription } from "./model.js";
import { tellSubscriber } from "./notes.js";

/** What a channel's delivery left: its state, and whether more is due now or when the next try is. */
export type Delivered = { state: FeedState; more: boolean; nextTryAt: number | undefined };

/**
 * Posts what the channel is owed, oldest first, each written off once Slack has it. One that fails
 * waits on its own (backoff, given up after a day with a note) while the ones after it go on. Stops
 * at the turn's share (posts and time) with `more` set, or at once when the turn lost its claim.
 * What each step means is decided in decide.ts; the posting, writing and telling are done here.
 */
export async function deliverChannel(
  turn: Turn,
  subscription: Subscription,
  start: FeedState,
): Promise<Delivered> {
  const { ctx, team } = turn;
  const channel = subscription.channel;
  const stop = (state: FeedState): Delivered => ({ state, more: false, nextTryAt: undefined });
  const quiet = beforeChannel(start);
  if (quiet.kind === "quiet") {
    // Quiet until someone subscribes again: what changed meanwhile is noted, not piled up.
    if (quiet.write) await turn.write(channel, quiet.state);
    return stop(quiet.state);
  }
  const slack = await ctx.deps.slack(team);
  if (!slack) return stop(start);
  let state = start;
  let posted = 0;
  let index = 0;
  while (index < state.owed.length) {
    const share = { over: turn.over(), late: turn.late(), posted, postsPerTurn: ctx.options.postsPerTurn };
    const next = state.owed[index] as Announcement;
    const step = nextStep(share, next, ctx.now().getTime());
    if (step.kind === "share_used") return { state, more: true, nextTryAt: undefined };
    if (step.kind === "wait") {
      index += 1;
      continue;
    }
    if (!(await stillSubscribed(turn, subscription))) return stop(state);
    const outcome = await post(turn, slack, subscription, next);
    const after = afterPost(state, index, outcome, ctx.now().getTime(), ctx.options.intervalMs);
    if (after.kind === "lost") return stop(state);
    state = after.state;
    if (after.kind === "pause") {
      await pauseChannel(turn, subscription, state);
      return stop(state);
    }
    if (after.kind === "written_off" && after.posted) posted += 1;
    if (after.kind === "give_up") await giveUp(turn, subscription, next, after.why);
    if (after.kind === "retry_later") index += 1;
    if (!(await turn.write(channel, state))) return stop(state);
    if (after.kind !== "written_off" && after.stopChannel) break;
  }
  return { state, more: false, nextTryAt: nextTryAt(state.owed, ctx.now().getTime()) };
}

/** Unsubscribed (or subscribed afresh) since the turn began: nothing more is posted there. */
async function stillSubscribed(turn: Turn, subscription: Subscription): Promise<boolean> {
  const now = await turn.ctx.deps.feeds.channels(turn.team);
  const still = now.some(
    (entry) => entry.channel === subscription.channel && entry.since === subscription.since,
  );
  if (!still)
    turn.ctx.deps.logger.info(
      { team: turn.team, channel: subscription.channel, outcome: "feed_unsubscribed" },
      "feed channel unsubscribed during the turn: nothing more posted there",
    );
  return still;
}

/** Kassa is not in the channel: the feed pauses there, written first, then its subscriber told. */
async function pauseChannel(turn: Turn, subscription: Subscription, state: FeedState): Promise<void> {
  const { ctx, team } = turn;
  if (!(await turn.write(subscription.channel, state))) return;
  const text = feedPausedText("not_in_channel", subscription.channel, await feedLanguage(ctx, team));
  await tellSubscriber(turn, subscription, text);
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
  await tellSubscriber(turn, subscription, text);
}

type PostLog = { team: string; channel: string; invoice: string; state: string };
type Facts = NonNullable<ReturnType<typeof factsOfAnnouncement>>;

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
  const due = await stillDue(turn, subscription, announcement, log);
  if (typeof due === "string") return due;
  const { invoice, facts } = due;
  const method = invoice.method
    ? await ctx.deps.reader.methodFor(team, invoice.method).catch(() => undefined)
    : undefined;
  const message = buildFeedMessage(
    // Told as the history showed it, even if it moved on since (its own change comes next).
    { ...invoice, state: announcement.state },
    {
      teamId: registerOfKey(team).team,
      register: turn.label,
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
  return postMessage(turn, slack, message, log);
}

/**
 * The invoice as invoice/info tells it now, and what the feed knows of it, while the channel still
 * wants it; otherwise what became of it (skipped, left to its live card, unreadable).
 */
async function stillDue(
  turn: Turn,
  subscription: Subscription,
  announcement: Announcement,
  log: PostLog,
): Promise<{ invoice: Invoice; facts: Facts } | PostOutcome> {
  const { ctx, team } = turn;
  const skip = (reason: string): PostOutcome => {
    ctx.deps.logger.info({ ...log, reason, outcome: "feed_skipped" }, "feed message no longer due here");
    return "skipped";
  };
  const owedFacts = factsOfAnnouncement(announcement);
  if (!owedFacts || !stillWanted(subscription, owedFacts)) return skip("filter");
  if (await ctx.deps.feeds.hasCard(team, subscription.channel, announcement.id)) {
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
  return { invoice, facts };
}

/** The message into the channel: sent, the channel gone (the feed pauses), or not taken (tried again). */
async function postMessage(
  turn: Turn,
  slack: webApi.WebClient,
  message: SlackMessage,
  log: PostLog,
): Promise<PostOutcome> {
  const { logger } = turn.ctx.deps;
  try {
    await slack.chat.postMessage({ channel: log.channel, text: message.text, blocks: message.blocks });
    logger.info({ ...log, outcome: "feed_posted" }, "feed message posted");
    return "sent";
  } catch (error) {
    const failure = postFailure(error);
    if (failure.kind === "channel_gone") {
      logger.warn(
        { ...log, slackError: failure.code, outcome: "feed_paused", reason: "not_in_channel" },
        "feed paused",
      );
      return "not_in_channel";
    }
    logger.warn(
      { ...log, slackError: failure.code, kind: failure.failure, outcome: "feed_post_failed" },
      "feed post failed",
    );
    return "not_taken";
  }
}
