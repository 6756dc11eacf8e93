import { randomUUID } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { buildFeedMessage, feedPausedText, feedResumedText } from "../blocks/feed.js";
import type { Invoice } from "../payments/model.js";
import { slackErrorCode } from "../slack/error.js";
import { classifySlackFailure } from "../watch/delivery.js";
import { type FeedContext, feedLanguage } from "./deps.js";
import type { Announcement, FeedState, Pause, Subscription } from "./model.js";

/** An announcement is claimed for this long: far longer than any retry of it. */
const CLAIM_TTL_MS = 14 * 24 * 3600 * 1000;
/** Failed posts of one announcement before it is given up (with a log line): a day at the interval. */
const MAX_ATTEMPTS = 2880;

const CHANNEL_GONE = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

/** The history could not be read: the feed says so once to its subscriber, and tries again later. */
export async function readFailed(
  ctx: FeedContext,
  team: string,
  subscription: Subscription,
  state: FeedState,
  error: unknown,
) {
  if (state.pause) return; // already said (or not in the channel: nothing changes that)
  ctx.deps.logger.warn(
    {
      team,
      channel: subscription.channel,
      err: error,
      outcome: "feed_paused",
      reason: "unreadable_history",
    },
    "feed paused",
  );
  const pause: Pause = { reason: "unreadable_history", at: ctx.now().getTime(), told: false };
  await ctx.deps.feeds.setState(team, subscription.channel, { ...state, pause });
  pause.told = await tellSubscriber(
    ctx,
    team,
    subscription,
    feedPausedText("unreadable_history", subscription.channel, await feedLanguage(ctx, team)),
  );
  await ctx.deps.feeds.setState(team, subscription.channel, { ...state, pause });
}

/** Writes down what the channel is owed, then posts it, oldest first, clearing each once Slack has it. */
export async function deliver(
  ctx: FeedContext,
  team: string,
  subscription: Subscription,
  read: FeedState,
): Promise<void> {
  const channel = subscription.channel;
  let state = read;
  if (state.pause?.reason === "unreadable_history") {
    state = { ...state, pause: null };
    ctx.deps.logger.info({ team, channel, outcome: "feed_resumed" }, "feed resumed");
    await tellSubscriber(ctx, team, subscription, feedResumedText(channel, await feedLanguage(ctx, team)));
  }
  if (state.pause?.reason === "not_in_channel") {
    // Quiet until someone subscribes again: what changed meanwhile is noted, not piled up.
    await ctx.deps.feeds.setState(team, channel, { ...state, owed: [] });
    return;
  }
  await ctx.deps.feeds.setState(team, channel, state);
  const slack = await ctx.deps.slack(team);
  if (!slack) return;
  while (state.owed.length > 0 && !ctx.stopped()) {
    const next = state.owed[0] as Announcement;
    const outcome = await post(ctx, team, channel, slack, next, state);
    if (outcome === "retry") {
      const attempts = state.attempts + 1;
      if (attempts < MAX_ATTEMPTS) {
        await ctx.deps.feeds.setState(team, channel, { ...state, attempts });
        return;
      }
      ctx.deps.logger.error(
        { team, channel, invoice: next.id, outcome: "feed_given_up" },
        "feed message given up",
      );
    }
    if (outcome === "not_in_channel") {
      const pause: Pause = { reason: "not_in_channel", at: ctx.now().getTime(), told: false };
      state = { ...state, owed: [], attempts: 0, pause };
      await ctx.deps.feeds.setState(team, channel, state);
      const text = feedPausedText("not_in_channel", channel, await feedLanguage(ctx, team));
      pause.told = await tellSubscriber(ctx, team, subscription, text);
      await ctx.deps.feeds.setState(team, channel, state);
      return;
    }
    state = { ...state, owed: state.owed.slice(1), attempts: 0 };
    await ctx.deps.feeds.setState(team, channel, state);
  }
}

/** Posts one announcement: "sent" (or already sent by another), "retry" or "not_in_channel". */
export async function post(
  ctx: FeedContext,
  team: string,
  channel: string,
  slack: webApi.WebClient,
  announcement: Announcement,
  state: FeedState,
): Promise<"sent" | "retry" | "not_in_channel"> {
  const log = { team, channel, invoice: announcement.id, state: announcement.state };
  if (await ctx.deps.feeds.hasCard(team, channel, announcement.id)) {
    // Its live card in this channel tells the change in its thread: not announced twice here.
    ctx.deps.logger.info(
      { ...log, outcome: "feed_left_to_card" },
      "feed leaves the invoice to its live card",
    );
    return "sent";
  }
  if (!announcement.claimed) {
    const key = `feed:msg:${team}:${channel}:${announcement.id}:${announcement.state}`;
    if (!announcement.claimToken) {
      // Written down before the claim: a process that dies right after claiming takes it up again.
      announcement.claimToken = randomUUID();
      await ctx.deps.feeds.setState(team, channel, state);
    }
    if (!(await ctx.deps.claimOnce(key, CLAIM_TTL_MS, announcement.claimToken))) {
      ctx.deps.logger.info({ ...log, outcome: "feed_already_sent" }, "feed message already sent");
      return "sent";
    }
    announcement.claimed = true;
    await ctx.deps.feeds.setState(team, channel, state);
  }
  let invoice: Invoice;
  try {
    // The message says what invoice/info says now (the history lists no description or paid amount).
    invoice = await ctx.deps.reader.invoice(team, announcement.id);
  } catch (error) {
    ctx.deps.logger.warn({ ...log, err: error, outcome: "feed_read_failed" }, "feed invoice read failed");
    return "retry";
  }
  const method = invoice.method
    ? await ctx.deps.reader.methodFor(team, invoice.method).catch(() => undefined)
    : undefined;
  const message = buildFeedMessage(
    // Told as the history showed it, even if it moved on since (its own change comes next).
    { ...invoice, state: announcement.state },
    { teamId: team, isNew: announcement.isNew === true, method, lang: await feedLanguage(ctx, team) },
  );
  try {
    await slack.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    ctx.deps.logger.info({ ...log, outcome: "feed_posted" }, "feed message posted");
    return "sent";
  } catch (error) {
    const failure = classifySlackFailure(error);
    const code = slackErrorCode(error);
    if (CHANNEL_GONE.has(code)) {
      ctx.deps.logger.warn(
        { ...log, slackError: code, outcome: "feed_paused", reason: "not_in_channel" },
        "feed paused",
      );
      return "not_in_channel";
    }
    ctx.deps.logger.warn(
      { ...log, slackError: code, kind: failure.kind, outcome: "feed_post_failed" },
      "feed post failed",
    );
    return "retry";
  }
}

/** A private note to whoever subscribed the channel (a DM from Kassa); true once Slack took it. */
export async function tellSubscriber(
  ctx: FeedContext,
  team: string,
  subscription: Subscription,
  text: string,
): Promise<boolean> {
  try {
    const slack = await ctx.deps.slack(team);
    if (!slack) return false;
    await slack.chat.postMessage({ channel: subscription.by, text });
    return true;
  } catch (error) {
    ctx.deps.logger.warn(
      { team, channel: subscription.channel, slackError: slackErrorCode(error) },
      "feed note not sent",
    );
    return false;
  }
}
