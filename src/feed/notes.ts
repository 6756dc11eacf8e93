import { escapeMrkdwn } from "../blocks/mrkdwn.js";
import { REGISTERS_TEXT } from "../i18n/registers.js";
import { slackErrorCode } from "../slack/error.js";
import { feedLanguage, type Turn } from "./deps.js";
import type { Subscription } from "./model.js";

/**
 * A private note to whoever subscribed the channel (a DM from Kassa); true once Slack took it. Where
 * the workspace has several registers, it starts with the feed's register (a channel may follow two).
 */
export async function tellSubscriber(turn: Turn, subscription: Subscription, text: string): Promise<boolean> {
  const { ctx, team } = turn;
  try {
    const slack = await ctx.deps.slack(team);
    if (!slack) return false;
    const said =
      turn.label === undefined
        ? text
        : `${REGISTERS_TEXT[await feedLanguage(ctx, team)].feedOf(escapeMrkdwn(turn.label))}: ${text}`;
    await slack.chat.postMessage({ channel: subscription.by, text: said });
    return true;
  } catch (error) {
    ctx.deps.logger.warn(
      { team, channel: subscription.channel, slackError: slackErrorCode(error) },
      "feed note not sent",
    );
    return false;
  }
}
