/**
 * Repeating invoices (issue 51, item 4) through the real app on two replicas of one store, the time
 * read from a clock the test moves: a monthly schedule makes one invoice a month whichever replica
 * runs it, one card and one message to its owner; Pause stops the runs, Resume starts them again at
 * the next moment; a disconnected register pauses it with one message; Delete removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { ADMIN_ACTIONS, SCHEDULE_ACTIONS } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { REPEAT_FIELDS } from "../../src/blocks/invoice-repeat.js";
import { clockReading } from "../support/manual-clock.js";
import { viewOf } from "../support/views.js";

const ADMIN = "U0ADMIN";
const CHANNEL = "C0FINANCE";
const DAY_MS = 86_400_000;
type Body = Record<string, unknown>;

const blocksOf = (body: Body) => (typeof body.blocks === "string" ? JSON.parse(body.blocks) : body.blocks);
const textOf = (body: Body) => JSON.stringify(blocksOf(body) ?? body.text);

/** A button's value in a message's blocks. */
function buttonValue(body: Body, actionId: string): string {
  const blocks = (blocksOf(body) ?? []) as Array<{
    elements?: Array<{ action_id?: string; value?: string }>;
  }>;
  const button = blocks.flatMap((block) => block.elements ?? []).find((e) => e.action_id === actionId);
  if (!button?.value) throw new Error(`no ${actionId} button`);
  return button.value;
}

describe("a monthly schedule on two replicas", () => {
  // Saturday 5 December 2026, 10:00 in Moscow.
  let now = Date.parse("2026-12-05T07:00:00Z");
  let first: Stack;
  let second: Stack;
  beforeAll(async () => {
    first = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(() => new Date(now)),
      env: { LINKS_CHECK_MS: "3600000" },
    });
    first.slack.users[ADMIN] = { is_admin: true };
    second = await first.replica();
  });
  afterAll(async () => {
    await second?.stopApp();
    await first?.stop();
  });

  const creates = () => first.fake.requests.filter((request) => request.path.endsWith("/invoice/create/"));
  const cards = () =>
    first.slack
      .callsOf("chat.postMessage")
      .filter((call) => call.body.channel === CHANNEL && textOf(call.body).includes("Invoice "));
  const toOwner = (words: string) =>
    first.slack
      .callsOf("chat.postMessage")
      .filter((call) => call.body.channel === ADMIN && textOf(call.body).includes(words));
  const bothPass = () => Promise.all([first.pass("schedules"), second.pass("schedules")]);

  it("is set from `/invoice new … every month …`: the form opens with Repeat filled in", async () => {
    const before = first.slack.callsOf("views.open").length;
    await first.command("new 1500 RUB Rent every month on 5 at 10:00", { userId: ADMIN, channelId: CHANNEL });
    await expect.poll(() => first.slack.callsOf("views.open").length).toBe(before + 1);
    const view = viewOf(first.slack.callsOf("views.open").at(-1)?.body ?? {});
    const opened = JSON.stringify(view);
    expect(opened).toContain('"initial_time":"10:00"');
    expect(opened).toContain('"initial_value":"5"');
    const result = await first.submitView({
      view,
      userId: ADMIN,
      viewId: "V0REPEAT1",
      values: {
        [CREATE_FIELDS.amount]: { value: "1500" },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "60" },
        [CREATE_FIELDS.description]: { value: "Rent" },
        [REPEAT_FIELDS.every]: { selected: "month" },
        [REPEAT_FIELDS.day]: { value: "5" },
      },
    });
    expect(result.status).toBe(200);
    expect(creates()).toHaveLength(0);
    const told = () => [
      ...first.slack.callsOf("chat.postEphemeral"),
      ...first.slack.callsOf("chat.postMessage"),
    ];
    await expect
      .poll(() => told().some((call) => textOf(call.body).includes("Repeating invoice set")))
      .toBe(true);
  });

  it("makes one invoice a month, one card and one message to its owner, whichever replica runs", async () => {
    await bothPass();
    await bothPass();
    expect(creates()).toHaveLength(1);
    expect(cards()).toHaveLength(1);
    expect(toOwner("was made")).toHaveLength(1);
    expect(JSON.stringify(creates()[0]?.body)).toContain("kassa:");
    now += 31 * DAY_MS; // 5 January 2027, 10:00 in Moscow
    await bothPass();
    await bothPass();
    expect(creates()).toHaveLength(2);
    expect(cards()).toHaveLength(2);
    expect(toOwner("was made")).toHaveLength(2);
  });

  it("pauses and resumes from `/invoice recurring`", async () => {
    const { reply } = await first.ask("recurring", { userId: ADMIN, channelId: CHANNEL });
    expect(textOf(reply.body)).toContain("Repeating invoices");
    const pause = buttonValue(reply.body, SCHEDULE_ACTIONS.pause);
    const paused = await second.press(SCHEDULE_ACTIONS.pause, pause, { userId: ADMIN });
    expect(textOf(paused.reply.body)).toContain("Paused");
    now += 31 * DAY_MS; // 5 February 2027
    await bothPass();
    expect(creates()).toHaveLength(2);
    const resumed = await first.press(SCHEDULE_ACTIONS.resume, pause, { userId: ADMIN });
    expect(textOf(resumed.reply.body)).toContain(SCHEDULE_ACTIONS.pause);
    await bothPass();
    expect(creates()).toHaveLength(3);
    expect(toOwner("was made")).toHaveLength(3);
  });

  it("is paused with one message when its register was disconnected, and deleted from the list", async () => {
    const { reply } = await first.ask("disconnect", { userId: ADMIN, channelId: CHANNEL });
    await first.press(ADMIN_ACTIONS.disconnect, buttonValue(reply.body, ADMIN_ACTIONS.disconnect), {
      userId: ADMIN,
    });
    now += 28 * DAY_MS; // 5 March 2027
    await bothPass();
    await bothPass();
    expect(creates()).toHaveLength(3);
    expect(toOwner("is paused")).toHaveLength(1);
    const listed = await first.ask("recurring", { userId: ADMIN, channelId: CHANNEL });
    expect(textOf(listed.reply.body)).toContain("its cash register was disconnected");
    const remove = buttonValue(listed.reply.body, SCHEDULE_ACTIONS.remove);
    const removed = await first.press(SCHEDULE_ACTIONS.remove, remove, { userId: ADMIN });
    expect(textOf(removed.reply.body)).toContain("No repeating invoices");
  });
});
