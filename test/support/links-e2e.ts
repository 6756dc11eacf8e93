import { expect } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";
import { viewOf } from "./views.js";

type FormValues = Parameters<Stack["submitView"]>[0]["values"];

/** The card in `channel` of invoice `id` (the first message whose blocks name it). */
export const linkCardOf = (stack: Stack, channel: string, id: string): PostedMessage | undefined =>
  [...stack.slack.messages.values()].find(
    (message) => message.channel === channel && JSON.stringify(message.blocks).includes(`Invoice ${id}`),
  );

/**
 * A link made through the create form (`/invoice new` in `channel`, the form submitted with `values`
 * as view `viewId`): its invoice id, once the service made it, and its card's ts.
 */
export async function linkFromForm(
  stack: Stack,
  made: { channel: string; userId: string; viewId: string; values: FormValues },
): Promise<{ id: string; ts: string }> {
  const opened = stack.slack.callsOf("views.open").length;
  await stack.command("new", { userId: made.userId, channelId: made.channel });
  await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
  const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  const before = stack.fake.created.length;
  await stack.submitView({ view, userId: made.userId, viewId: made.viewId, values: made.values });
  await expect.poll(() => stack.fake.created.length).toBe(before + 1);
  const id = stack.fake.created.at(-1) ?? "";
  await expect.poll(() => linkCardOf(stack, made.channel, id)?.ts).toBeDefined();
  return { id, ts: linkCardOf(stack, made.channel, id)?.ts ?? "" };
}
