/**
 * The method switch's end-to-end steps, as Slack and the person see them: a switch asked for (the
 * modal once the method was read), a confirmation submitted (Slack's answer, the modal once it
 * ended), and the methods' acts in the audit trail.
 */
import { expect } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { type OpenedView, viewOf } from "./views.js";

export const ADMIN = "U0ADMIN";
export const MEMBER = "U0MEMBER";
export const SWITCH_OFF = "method_alert_switch_off";

/** What Kassa asked Slack to show in a modal, as text. */
export const shown = (view: OpenedView) => JSON.stringify(view.blocks);

/** The mrkdwn of a reply, as text. */
export const said = (body: Record<string, unknown>) => JSON.stringify(body);

export async function methodActs(stack: Stack, team = SANDBOX_TEAM.id): Promise<AuditEntry[]> {
  const store = await openStore(stack.env.STORE_URL ?? "");
  try {
    const trail = await openAuditTrail(store, { retentionDays: 30 });
    const listed = await trail.list(team, { limit: 100 });
    return listed.entries
      .map((one) => one.entry)
      .filter((entry): entry is AuditEntry => entry?.action.startsWith("method.") === true);
  } finally {
    await store.close();
  }
}

/** A switch asked for (a command or a click): the modal Kassa opened, as it is once the method was read. */
export async function asked(
  stack: Stack,
  send: () => Promise<unknown>,
): Promise<{ view: OpenedView; id: string }> {
  const opened = stack.slack.callsOf("views.open").length;
  const updated = stack.slack.callsOf("views.update").length;
  await send();
  await expect.poll(() => stack.slack.callsOf("views.update").length).toBe(updated + 1);
  expect(stack.slack.callsOf("views.open")).toHaveLength(opened + 1);
  const update = stack.slack.callsOf("views.update").at(-1)?.body ?? {};
  return { view: viewOf(update), id: String(update.view_id) };
}

/**
 * A confirmation submitted `times` at once (a double click, or Slack's redelivery): Slack's answers
 * to the submissions, and the modal each time the switch ended.
 */
export function confirmed(stack: Stack, modal: { view: OpenedView; id: string }, times = 1) {
  return confirmedOn(
    Array.from({ length: times }, () => stack),
    modal,
  );
}

/** The same confirmation submitted once to each of `stacks` (replicas) at once. */
export async function confirmedOn(stacks: Stack[], modal: { view: OpenedView; id: string }, teamId?: string) {
  const slack = stacks[0]?.slack;
  if (!slack) throw new Error("no stack to submit to");
  const answers = () => slack.callsOf("views.update").filter((call) => call.body.view_id === modal.id);
  const before = answers().length;
  const submitted = await Promise.all(
    stacks.map((stack) =>
      stack.submitView({
        view: modal.view,
        values: {},
        userId: ADMIN,
        viewId: modal.id,
        ...(teamId ? { teamId } : {}),
      }),
    ),
  );
  await expect.poll(() => answers().length).toBe(before + stacks.length);
  const views = answers()
    .slice(before)
    .map((call) => viewOf(call.body));
  return { acks: submitted.map((one) => one.json), views, view: views.at(-1) ?? viewOf({}) };
}
