import type { FeedLine } from "../../blocks/admin.js";
import { filterOf } from "../../feed/model.js";
import { MAIN_REGISTER, registerKey } from "../../store/registers.js";
import type { ListenerDeps } from "../deps.js";

/**
 * The workspace's feeds as /invoice status and App Home list them: what each posts, whom it mentions,
 * why one is quiet; with several registers (`registers`, main first), every register's, each line
 * naming its register.
 */
export async function feedLines(
  deps: Pick<ListenerDeps, "feeds">,
  teamId: string,
  registers: readonly string[] = [MAIN_REGISTER],
): Promise<FeedLine[]> {
  const lines: FeedLine[] = [];
  const several = registers.length > 1;
  for (const name of registers) {
    const key = registerKey(teamId, name);
    for (const subscription of await deps.feeds.channels(key)) {
      const state = await deps.feeds.state(key, subscription.channel);
      // Subscribed again since it paused: its next turn lifts the pause.
      const pause = state?.pause && !(state.pause.at <= (subscription.resumedAt ?? -1)) ? state.pause : null;
      lines.push({
        channel: subscription.channel,
        filter: filterOf(subscription),
        mentions: subscription.mentions ?? null,
        ...(several ? { register: name } : {}),
        ...(pause ? { paused: pause.reason } : {}),
        ...(subscription.digest ? { digest: `${subscription.digest.at} ${subscription.digest.zone}` } : {}),
      });
    }
  }
  return lines;
}
