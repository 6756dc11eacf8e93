import { withRegisterLine } from "../blocks/registers.js";
import { buildSummaryMessage } from "../blocks/summary.js";
import { digestDue, periodBounds, summarize } from "../reports/summary.js";
import { slackErrorCode } from "../slack/error.js";
import { feedLanguage, type Turn } from "./deps.js";
import type { FeedState, Subscription } from "./model.js";

/**
 * Yesterday's summary in each feed channel with a digest, once its time of day has come; the day
 * is written down (under the turn's claim) once Slack took it, so a failed post is tried at the
 * next turn, and one replica's turn posts it. `states` is updated in place.
 */
export async function digests(
  turn: Turn,
  subscriptions: readonly Subscription[],
  states: Map<string, FeedState>,
): Promise<void> {
  const { ctx, team } = turn;
  for (const subscription of subscriptions) {
    const digest = subscription.digest;
    const state = states.get(subscription.channel);
    if (!digest || !state || turn.over()) continue;
    const now = ctx.now();
    const day = digestDue(now, digest);
    if (!day || state.digestDay === day || state.pause?.reason === "not_in_channel") continue;
    const slack = await ctx.deps.slack(team);
    if (!slack) continue;
    const summary = await summarize(
      (page, items) => ctx.deps.reader.history(team, page, items),
      periodBounds("yesterday", now, digest.zone),
    );
    const lang = await feedLanguage(ctx, team);
    const message = withRegisterLine(buildSummaryMessage(summary, now, "channel", lang), turn.label, lang);
    if (!(await turn.stillOurs())) return;
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
    const next = { ...(states.get(subscription.channel) ?? state), digestDay: day };
    states.set(subscription.channel, next);
    if (!(await turn.write(subscription.channel, next))) return;
  }
}
