import type { PostedMessage } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";

export { healthyHistory, MIN, methodInvoice } from "../../sandbox/method-history.js";

/** What Kassa posted in `channel`, oldest first (thread replies carry `threadTs`). */
export function postsIn(stack: Stack, channel: string): PostedMessage[] {
  return [...stack.slack.messages.values()].filter((message) => message.channel === channel);
}
