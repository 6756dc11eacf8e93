import type { FeedLine } from "../../blocks/admin.js";
import { filterOf } from "../../feed/model.js";
import type { ListenerDeps } from "../deps.js";

/** The workspace's feeds as /invoice status and App Home list them: what each posts, whom it mentions, why one is quiet. */
export async function feedLines(deps: Pick<ListenerDeps, "feeds">, teamId: string): Promise<FeedLine[]> {
  const lines: FeedLine[] = [];
  for (const subscription of await deps.feeds.channels(teamId)) {
    const state = await deps.feeds.state(teamId, subscription.channel);
    // Subscribed again since it paused: its next turn lifts the pause.
    const pause = state?.pause && !(state.pause.at <= (subscription.resumedAt ?? -1)) ? state.pause : null;
    lines.push({
      channel: subscription.channel,
      filter: filterOf(subscription),
      mentions: subscription.mentions ?? null,
      ...(pause ? { paused: pause.reason } : {}),
      ...(subscription.digest ? { digest: `${subscription.digest.at} ${subscription.digest.zone}` } : {}),
    });
  }
  return lines;
}
