/**
 * A payout followed by reading (no callback: no PUBLIC_URL) that ends gets its note in the card's
 * thread and the requester's message once each (issue 49, item 5), through the real app against the
 * sandbox: when Slack refuses both notes for the rate right after the card turned Paid, they are
 * posted when Slack said to try again (seconds), not half a minute later, and never again after;
 * two replicas on one Redis store passing at the same moment post each note once. The worker runs
 * only when asked (a pass); the clock is moved, nothing waits for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack, type StackOptions } from "../../sandbox/stack.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS, CARL] = ["U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";
/** Past a submitted payout's next reading (followMs, a minute by default). */
const NEXT_READING_MS = 61_000;
const REDIS = process.env.TEST_REDIS_URL?.trim() || undefined;

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

async function payoutStack(options: StackOptions = {}): Promise<Stack> {
  const stack = await Stack.start({
    storeMemoMs: 0,
    clock: clockReading(clock),
    ...options,
    env: { PAYOUT_RUN_MS: "600000", ...options.env },
  });
  for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
  await connectWithSecret2(stack);
  const set = await stack.cli(
    ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS, CARL].join(","), "--channel", APPROVAL]
      .concat(["--two-from", "5000", "--person-day", "100000", "--register-day", "200000", "--expire", "1h"])
      .concat(["--requesters", REQUESTER]),
  );
  expect(set.code, set.stderr).toBe(0);
  return stack;
}

const cardsIn = (stack: Stack) =>
  [...stack.slack.messages.values()].filter((message) => message.channel === APPROVAL && !message.threadTs);
const shown = (stack: Stack, card: PostedMessage) =>
  JSON.stringify(stack.slack.messages.get(`${card.channel}:${card.ts}`)?.blocks ?? []);
/** The requester's direct messages about the end (not the copy of the card). */
const toRequester = (stack: Stack) =>
  [...stack.slack.messages.values()].filter(
    (message) => message.channel === REQUESTER && message.text.startsWith("About your payout request"),
  );

/** Requested, approved by Anna and sent by a pass: its card. */
async function sent(stack: Stack, amount: string): Promise<{ id: string; card: PostedMessage }> {
  const before = cardsIn(stack).length;
  const { reply } = await stack.ask(`${amount} ${METHOD} ${WALLET} Supplier`, {
    command: "/payout",
    userId: REQUESTER,
    channelId: "C0ASKED",
  });
  expect(JSON.stringify(reply.body)).toContain("Requested");
  await stack.slack.waitForMessages(() => cardsIn(stack).length === before + 1);
  const card = cardsIn(stack).at(-1) as PostedMessage;
  const id = JSON.stringify(card.blocks).match(/Payout `([^`]+)`/)?.[1] ?? "";
  const opened = stack.slack.callsOf("views.open").length;
  const ack = await stack.action("kassa_payout_approve", id, { userId: ANNA, channelId: APPROVAL });
  expect(ack.status).toBe(200);
  await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
  const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  const done = await stack.submitView({
    view,
    values: { payout_last_four: { value: "5678" } },
    userId: ANNA,
  });
  expect(done.json).toBeNull();
  // The click's own work (both cards shown approved, then the request made due) ends before time moves.
  const copy = () =>
    [...stack.slack.messages.values()].filter(
      (message) => message.channel === REQUESTER && !message.threadTs,
    );
  await expect.poll(() => shown(stack, card)).toContain("Approved: being sent");
  await expect.poll(() => JSON.stringify(copy().at(-1)?.blocks)).toContain("Approved: being sent");
  await stack.pass("payouts", 2);
  expect(stack.fake.payoffs.submits).toContain(id);
  expect(shown(stack, card)).toContain("Sent: the service is paying it out");
  return { id, card };
}

describe("a payout followed by reading tells its end once", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await payoutStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("turns the card Paid and posts the thread note and the requester's message once, soon after Slack refused both", async () => {
    const { id, card } = await sent(stack, "1200");
    stack.fake.payoffs.finish(id, "payed");
    // Right after the card's update, Slack refuses both notes for the rate (Retry-After: 1 s).
    for (const channel of [APPROVAL, REQUESTER])
      stack.slack.troubleChannel(channel, { mode: "ratelimited", methods: ["chat.postMessage"], times: 1 });
    offsetMs += NEXT_READING_MS;
    await stack.pass("payouts");
    expect(shown(stack, card)).toContain("Paid out");
    expect(stack.slack.threadOf(APPROVAL, card.ts)).toHaveLength(0);
    expect(toRequester(stack)).toHaveLength(0);
    // Slack said a second: well within 15 s, both come.
    offsetMs += 2_000;
    await stack.pass("payouts");
    expect(stack.slack.threadOf(APPROVAL, card.ts).map((note) => note.text)).toEqual([
      ":moneybag: Paid out: 1,200.00 RUB to `2200700012345678`.",
    ]);
    expect(toRequester(stack)).toHaveLength(1);
    expect(toRequester(stack)[0]?.text).toContain("Paid out: 1,200.00 RUB");
    // Later passes tell nothing more.
    offsetMs += 5 * 60_000;
    await stack.pass("payouts", 2);
    expect(stack.slack.threadOf(APPROVAL, card.ts)).toHaveLength(1);
    expect(toRequester(stack)).toHaveLength(1);
  });

  it("tells an end found at the next reading at once when Slack takes it, once", async () => {
    const { id, card } = await sent(stack, "900");
    const dms = toRequester(stack).length;
    stack.fake.payoffs.finish(id, "failed", "Card blocked");
    offsetMs += NEXT_READING_MS;
    await stack.pass("payouts");
    expect(shown(stack, card)).toContain("Card blocked");
    expect(stack.slack.threadOf(APPROVAL, card.ts)).toHaveLength(1);
    expect(toRequester(stack)).toHaveLength(dms + 1);
    offsetMs += 5 * 60_000;
    await stack.pass("payouts", 2);
    expect(stack.slack.threadOf(APPROVAL, card.ts)).toHaveLength(1);
    expect(toRequester(stack)).toHaveLength(dms + 1);
  });
});

describe.skipIf(!REDIS)("a payout's end told by two replicas of one Redis store", () => {
  let first: Stack;
  let second: Stack;
  beforeAll(async () => {
    first = await payoutStack({ env: { STORE_URL: REDIS ?? "" } });
    second = await first.replica();
  });
  afterAll(async () => {
    await second?.stopApp();
    await first?.stop();
  });

  it("both replicas passing at the same moment post each note once", async () => {
    const { id, card } = await sent(first, "1300");
    const dms = toRequester(first).length;
    first.fake.payoffs.finish(id, "payed");
    offsetMs += NEXT_READING_MS;
    await Promise.all([first.pass("payouts"), second.pass("payouts")]);
    offsetMs += 2_000;
    await Promise.all([first.pass("payouts"), second.pass("payouts")]);
    expect(shown(first, card)).toContain("Paid out");
    expect(first.slack.threadOf(APPROVAL, card.ts)).toHaveLength(1);
    expect(toRequester(first)).toHaveLength(dms + 1);
  });
});
