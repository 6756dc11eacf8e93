import { openInvoice, type SampleInvoice } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";

/** What the feed's end-to-end tests share: invoices made now, the feed's messages, a command in a channel. */

/**
 * Makes unpaid invoices "the cash register made just now" (after the subscriptions), expiring in an
 * hour; each file its own `prefix` and `tag`, so ids never meet.
 */
export function invoiceMaker(prefix: string, tag: string, defaults: Partial<SampleInvoice> = {}) {
  let made = 0;
  return (stack: Stack, overrides: Partial<SampleInvoice> = {}): string => {
    made += 1;
    const id = `${prefix}${String(made).padStart(5, "0")}_${tag}`;
    stack.fake.invoices.set(id, openInvoice(id, { amount: "2500", ...defaults, ...overrides }));
    return id;
  };
}

/** The feed's messages in `channel` (top level, one per invoice change), about `id` when given. */
export function feedPosts(stack: Stack, channel: string, id?: string): PostedMessage[] {
  return [...stack.slack.messages.values()].filter(
    (m) =>
      m.channel === channel &&
      !m.threadTs &&
      m.text.startsWith("Invoice ") &&
      (id === undefined || m.text.includes(id)),
  );
}

/**
 * `/invoice <text>` in `channel`, and the private reply. A first subscribe also posts its welcome in
 * the channel, which the stand-in counts as a reply of the command too: that one is skipped.
 */
export async function askIn(stack: Stack, text: string, channelId: string, userId: string) {
  const ack = await stack.command(text, { userId, channelId });
  const first = await stack.slack.waitForReply(ack.responseId);
  if (first.body.response_type !== "in_channel") return first;
  return stack.slack.waitForReply(ack.responseId, { count: 2 });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
