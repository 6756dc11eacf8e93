import { buildSummaryMessage } from "../blocks/summary.js";
import { digestDue, periodBounds, summarize } from "../reports/summary.js";
import { slackErrorCode } from "../slack/error.js";
import { type FeedContext, feedLanguage } from "./deps.js";

/**
 * Yesterday's summary in each feed channel with a digest, once its time of day has come; the day
 * is written down once Slack took it, so a failed post is tried at the next pass.
 */
export async function digests(ctx: FeedContext, team: string): Promise<void> {
  for (const subscription of await ctx.deps.feeds.channels(team)) {
    const digest = subscription.digest;
    if (!digest || ctx.stopped()) continue;
    const now = ctx.now();
    const day = digestDue(now, digest);
    if (!day) continue;
    const state = await ctx.deps.feeds.state(team, subscription.channel);
    if (state.digestDay === day || state.pause?.reason === "not_in_channel") continue;
    const slack = await ctx.deps.slack(team);
    if (!slack) continue;
    const summary = await summarize(
      (page, items) => ctx.deps.reader.history(team, page, items),
      periodBounds("yesterday", now, digest.zone),
    );
    const message = buildSummaryMessage(summary, now, "channel", await feedLanguage(ctx, team));
    try {
      await slack.chat.postMessage({
        channel: subscription.channel,
        text: message.text,
        blocks: message.blocks,
      });
    } catch (error) {
      ctx.deps.logger.warn(
        {
          team,
          channel: subscription.channel,
          slackError: slackErrorCode(error),
          outcome: "digest_post_failed",
        },
        "digest not posted",
      );
      continue;
    }
    ctx.deps.logger.info(
      { team, channel: subscription.channel, day, outcome: "digest_posted" },
      "digest posted",
    );
    await ctx.deps.feeds.setState(team, subscription.channel, {
      ...(await ctx.deps.feeds.state(team, subscription.channel)),
      digestDay: day,
    });
  }
}
