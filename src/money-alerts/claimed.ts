import type { SlackMessage } from "../blocks/message.js";
import type { MoneyAlertDeps } from "./deps.js";

// What both money alerts do the same way: work the registers due in their family, each under its own
// claim, and post to a channel without throwing.

/**
 * Claims the due registers of `family` (up to a batch) and checks each with `check`, which says when
 * it is next due. They are worked one after another, so each claim is renewed first: one whose lease
 * ran out meanwhile may be another replica's now, and is left alone. A check that throws is logged
 * and due again after `intervalMs`. How many were claimed.
 */
export async function checkClaimed(
  deps: MoneyAlertDeps,
  family: string,
  now: number,
  intervalMs: number,
  check: (key: string, token: string, at: number) => Promise<number>,
): Promise<number> {
  const started = performance.now();
  const clock = () => now + Math.round(performance.now() - started);
  const claims = await deps.board.claimDue(family, now, deps.leaseMs, deps.batch);
  for (const { key, token } of claims) {
    const at = clock();
    if (!(await deps.board.renew(family, key, token, at, deps.leaseMs))) continue;
    let dueAt = at + intervalMs;
    try {
      dueAt = await check(key, token, at);
    } catch (error) {
      deps.logger.error({ register: key, family, err: error }, "a money alert's check failed");
    }
    await deps.board.release(family, key, token, { dueAt }).catch(() => false);
  }
  return claims.length;
}

/** Posts a money alert in a channel; false (logged) when Slack refused it or the workspace is gone. */
export async function postAlertMessage(
  deps: Pick<MoneyAlertDeps, "slack" | "logger">,
  team: string,
  channel: string,
  message: SlackMessage,
): Promise<boolean> {
  try {
    const client = await deps.slack(team);
    if (!client) return false;
    await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    return true;
  } catch (error) {
    deps.logger.warn({ team, channel, err: error }, "could not post a money alert");
    return false;
  }
}
