/**
 * Balance alerts through the real app: `/balance alert`, the check on two replicas sharing one store
 * (one message per crossing), staying below (nothing), a flapping balance (one pair an hour), a
 * failing service (quiet, one note after an hour), in English and Russian.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";
import { clockReading } from "../support/manual-clock.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const ALERTS = "C0ALERTS";
const HOUR = 3_600_000;

const text = (body: unknown) => JSON.stringify(body);

/** What Kassa posted in `channel` (chat.postMessage), oldest first. */
const postedIn = (stack: Stack, channel: string) =>
  stack.slack
    .callsOf("chat.postMessage")
    .filter((call) => call.body.channel === channel)
    .map((call) => ({
      ...call,
      body: {
        ...call.body,
        blocks: typeof call.body.blocks === "string" ? JSON.parse(call.body.blocks) : call.body.blocks,
      },
    }));

function setBitcoin(stack: Stack, amount: string): void {
  const balance = stack.fake.balances.find((one) => one.code === "BITCOIN");
  if (!balance) throw new Error("the sandbox has no BITCOIN balance");
  balance.amount = amount;
}

/** A clock the test moves forward (the hour a flapping balance waits, the hour of errors). */
function shiftedClock() {
  let shift = 0;
  return {
    now: () => new Date(Date.now() + shift),
    forward: (ms: number) => {
      shift += ms;
    },
  };
}

const CHECK_MS = 150;
const ENV = { BALANCE_CHECK_MS: String(CHECK_MS), PAYOUT_CHECK_MS: "3600000", BALANCE_CACHE_TTL_MS: "0" };

describe("balance alerts, two replicas (English)", () => {
  let stack: Stack;
  let second: RunningServer | undefined;
  const clock = shiftedClock();

  beforeAll(async () => {
    stack = await Stack.start({ env: ENV, storeMemoMs: 0, clock: clockReading(clock.now) });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[MEMBER] = {};
    // A second replica on the same store: each crossing is still told once.
    second = await startServer(stack.env, {
      logDestination: { write: () => {} },
      storeMemoMs: 0,
      clock: clockReading(clock.now),
    });
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  /** `rounds` checks on each replica: the clock moved past the check interval, then a pass asked of each. */
  const checksOnBoth = async (rounds = 2) => {
    for (let round = 0; round < rounds; round += 1) {
      clock.forward(CHECK_MS);
      await stack.pass("moneyAlerts");
      await second?.passes.moneyAlerts();
    }
  };

  it("refuses those who may not see the balance, an unknown method and a word for an amount", async () => {
    const member = await stack.ask("alert BITCOIN below 0.00001", {
      command: "/balance",
      userId: MEMBER,
      channelId: ALERTS,
    });
    expect(text(member.reply.body)).toContain("balance is shown only to");
    const unknown = await stack.ask("alert NOPE below 1", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(unknown.reply.body)).toContain("has no `NOPE` balance");
    expect(text(unknown.reply.body)).toContain("`BITCOIN`");
    const word = await stack.ask("alert BITCOIN below lots", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(word.reply.body)).toContain("is not an amount");
    const usage = await stack.ask("alert", { command: "/balance", userId: ADMIN, channelId: ALERTS });
    expect(text(usage.reply.body)).toContain("/balance alert METHOD below AMOUNT");
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(0);
  });

  it("says once when the balance falls below, nothing while it stays below, once when it is back above", async () => {
    setBitcoin(stack, "0.00005");
    const set = await stack.ask("alert bitcoin below 0,00001", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(set.reply.body)).toContain("falls below 0.00001");
    expect(text(set.reply.body)).toContain("The balance is 0.00005");
    expectWithinBlockKitLimits(set.reply.body);
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(0);

    setBitcoin(stack, "0.000001");
    await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(1);
    const below = text(postedIn(stack, ALERTS)[0]?.body);
    expect(below).toContain("fell below 0.00001");
    expect(below).toContain("0.000001");
    expect(below).toContain("BTC");
    // Staying below: several checks on both replicas, nothing more.
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(1);

    const listed = await stack.ask("alerts", {
      command: "/balance",
      userId: ADMIN,
      channelId: "C0ELSEWHERE",
    });
    expect(text(listed.reply.body)).toContain(`<#${ALERTS}>`);
    expect(text(listed.reply.body)).toContain("below now");

    setBitcoin(stack, "0.00002");
    await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(2);
    expect(text(postedIn(stack, ALERTS)[1]?.body)).toContain("back above 0.00001");
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(2);
  });

  it("gives a flapping balance one pair an hour", async () => {
    setBitcoin(stack, "0.000001");
    await checksOnBoth();
    setBitcoin(stack, "0.00002");
    await checksOnBoth();
    setBitcoin(stack, "0.000002");
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(2);
    // An hour after the last "below", a balance still below is told again.
    clock.forward(HOUR + 60_000);
    await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(3);
    expect(text(postedIn(stack, ALERTS)[2]?.body)).toContain("fell below");
  });

  it("pauses quietly while the service fails, and says so once after an hour", async () => {
    const failedChecks = () =>
      stack.logEntries().filter((line) => line.msg === "balance check failed; alerts paused").length;
    const before = failedChecks();
    stack.fake.balanceFault = "html502";
    try {
      // A failing check takes a second or so (the service's 502s are retried): wait for two.
      await expect.poll(() => failedChecks() - before, { timeout: 10_000 }).toBeGreaterThan(1);
      expect(postedIn(stack, ALERTS)).toHaveLength(3);
      clock.forward(HOUR + 60_000);
      await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(4);
      expect(text(postedIn(stack, ALERTS)[3]?.body)).toContain("balance alerts are paused");
      await checksOnBoth();
      expect(postedIn(stack, ALERTS)).toHaveLength(4);
    } finally {
      stack.fake.balanceFault = null;
    }
    // Working again: the balance is still below, which the channel already heard.
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(4);
  });

  it("tries a message Slack refused again at the next check, until it goes out once", async () => {
    const closed = "C0CLOSED";
    const delivered = () => [...stack.slack.messages.values()].filter((one) => one.channel === closed);
    stack.slack.failChannel(closed, "not_in_channel");
    try {
      // 12,345.67 RUB is below already: the first check tells it, and Slack refuses.
      const set = await stack.ask("alert CARDRUBP2P below 20 000", {
        command: "/balance",
        userId: ADMIN,
        channelId: closed,
      });
      expect(text(set.reply.body)).toContain("falls below 20,000.00 RUB");
      await expect.poll(() => postedIn(stack, closed).length, { timeout: 5000 }).toBeGreaterThan(1);
      expect(delivered()).toHaveLength(0);
    } finally {
      stack.slack.failChannel(closed, null);
    }
    await expect.poll(() => delivered().length, { timeout: 5000 }).toBe(1);
    expect(delivered()[0]?.text).toContain("fell below");
    await checksOnBoth();
    expect(delivered()).toHaveLength(1);
    await stack.ask("alert CARDRUBP2P off", { command: "/balance", userId: ADMIN, channelId: closed });
  });

  it("removes an alert with off", async () => {
    const off = await stack.ask("alert BITCOIN off", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(off.reply.body)).toContain("alert of this channel is off");
    const again = await stack.ask("alert BITCOIN off", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(again.reply.body)).toContain("has no `BITCOIN` balance alert");
    const listed = await stack.ask("alerts", { command: "/balance", userId: ADMIN, channelId: ALERTS });
    expect(text(listed.reply.body)).toContain("No balance alerts");
    // Setting and removing are acts in the audit trail; a refusal or a list is not.
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 30 });
      const acts = async (action: "balance.alert_set" | "balance.alert_removed") =>
        (await trail.list(SANDBOX_TEAM.id, { action, limit: 20 })).entries.map((one) => one.entry);
      expect(await acts("balance.alert_set")).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            actor: ADMIN,
            object: `balance alert BITCOIN ${ALERTS}`,
            after: { channel: ALERTS, method: "BITCOIN", below: "0.00001", currency: "BTC" },
          }),
        ]),
      );
      expect(await acts("balance.alert_set")).toHaveLength(2);
      expect(await acts("balance.alert_removed")).toHaveLength(2);
    } finally {
      await store.close();
    }
    setBitcoin(stack, "0.00005");
    await checksOnBoth();
    expect(postedIn(stack, ALERTS)).toHaveLength(4);
  });
});

describe("balance alerts in Russian", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: ENV, storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    const set = await stack.ask("language ru", { userId: ADMIN });
    expect(set.ack.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers and tells the crossing in Russian", async () => {
    setBitcoin(stack, "0.00005");
    const set = await stack.ask("alert BITCOIN below 0,00001", {
      command: "/balance",
      userId: ADMIN,
      channelId: ALERTS,
    });
    expect(text(set.reply.body)).toContain("Этот канал узнает один раз");
    expect(englishWords(set.reply.body)).toEqual([]);
    setBitcoin(stack, "0.000001");
    await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(1);
    expect(text(postedIn(stack, ALERTS)[0]?.body)).toContain("опустился ниже");
    setBitcoin(stack, "0.00005");
    await expect.poll(() => postedIn(stack, ALERTS).length, { timeout: 5000 }).toBe(2);
    expect(text(postedIn(stack, ALERTS)[1]?.body)).toContain("снова выше");
    for (const post of postedIn(stack, ALERTS)) {
      expect(englishWords(post.body)).toEqual([]);
      expectWithinBlockKitLimits(post.body);
    }
    const listed = await stack.ask("alerts", { command: "/balance", userId: ADMIN, channelId: ALERTS });
    expect(text(listed.reply.body)).toContain("Оповещения о балансе");
    expect(englishWords(listed.reply.body)).toEqual([]);
  });
});
