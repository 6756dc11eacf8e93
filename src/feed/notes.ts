import { slackErrorCode } from "../slack/error.js";
import type { FeedContext } from "./deps.js";
import type { Subscription } from "./model.js";

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
