/**
 * The kill switch and the policy reach payouts already in flight (issue 49, item 2), through the real
 * app: an approved payout whose send never reached the service (the service down, or its submit
 * failing) is not sent once payouts are switched off, once it has expired, or once an approver whose
 * vote it counts is removed: it is stopped, its quote cancelled, its card saying why. A payout the
 * service did take is never sent again nor called not sent. The worker runs only when asked (a pass).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS, CARL] = ["U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";
/** Past the grace after a "submitting" mark (payoutTimingFor with the sandbox's 8 s deadline: 2 min). */
const AFTER_GRACE_MS = 3 * 60_000;

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe("payouts in flight: the kill switch and the policy still apply", () => {
  let stack: Stack;
  async function setPolicy(
    options: { off?: boolean; approvers?: string[]; twoFrom?: string; personDay?: string } = {},
  ) {
    const approvers = options.approvers ?? [ANNA, BORIS, CARL];
    const set = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", approvers.join(","), "--channel", APPROVAL]
        .concat(["--two-from", options.twoFrom ?? "5000", "--person-day", options.personDay ?? "100000"])
        .concat(["--register-day", "200000", "--expire", "1h", "--requesters", REQUESTER])
        .concat(options.off ? ["--off"] : []),
    );
    expect(set.code, set.stderr).toBe(0);
  }
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(clock),
      env: { PAYOUT_RUN_MS: "600000" },
    });
    for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const balance = stack.fake.balances.find((one) => one.code === METHOD);
    if (balance) balance.amount = "1000000";
  });
  beforeEach(async () => {
    stack.fake.payoffs.faults = {};
    offsetMs += 86_400_000; // each test on a day of its own
    await setPolicy();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);
  const idOf = (card: PostedMessage | undefined) =>
    JSON.stringify(card?.blocks ?? []).match(/Payout `([^`]+)`/)?.[1] ?? "";
  const shown = (card: PostedMessage) =>
    JSON.stringify(stack.slack.messages.get(`${card.channel}:${card.ts}`)?.blocks ?? []);
  const serviceDown = () => {
    stack.fake.payoffs.faults = { info: "html502", submit: "html502", cancel: "html502" };
  };

  async function requested(amount: string): Promise<{ id: string; card: PostedMessage }> {
    const before = cardsIn(APPROVAL).length;
    const { reply } = await stack.ask(`${amount} ${METHOD} ${WALLET} Supplier`, {
      command: "/payout",
      userId: REQUESTER,
      channelId: "C0ASKED",
    });
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === before + 1);
    const card = cardsIn(APPROVAL).at(-1) as PostedMessage;
    return { id: idOf(card), card };
  }

  /** Approve (or Reject, with a reason) pressed on the card and its modal submitted; the answer. */
  async function decide(action: "approve" | "reject", id: string, user: string) {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action(`kassa_payout_${action}`, id, { userId: user, channelId: APPROVAL });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    const values: Record<string, { value: string }> =
      action === "approve"
        ? { payout_last_four: { value: WALLET.slice(-4) } }
        : { payout_reject_reason: { value: "The service is down; we pay this another way" } };
    return (await stack.submitView({ view, values, userId: user })).json;
  }

  /** Approved by Anna, then one pass whose submit never reaches the service (a proxy's 502). */
  async function approvedNotSent(amount = "1200") {
    const made = await requested(amount);
    expect(await decide("approve", made.id, ANNA)).toBeNull();
    stack.fake.payoffs.faults.submit = "html502";
    await stack.pass("payouts");
    stack.fake.payoffs.faults = {};
    expect(shown(made.card)).toContain("Being sent to the service");
    expect(stack.fake.payoffs.all.get(made.id)?.state).toBe("created");
    return made;
  }

  it("is not sent after payouts were switched off: stopped, its quote cancelled, the card says why", async () => {
    const { id, card } = await approvedNotSent();
    await setPolicy({ off: true });
    offsetMs += AFTER_GRACE_MS;
    await stack.pass("payouts");
    expect(stack.fake.payoffs.submits).not.toContain(id);
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("canceled");
    expect(shown(card)).toContain("Not sent: stopped before it reached the service");
    expect(shown(card)).toContain("Payouts were switched off for this register before it could be sent.");
    await expect.poll(() => stack.slack.threadOf(APPROVAL, card.ts).length).toBe(1);
    expect(stack.slack.threadOf(APPROVAL, card.ts)[0]?.text).toContain("nothing was paid out");
  });

  it("is not sent once it has expired", async () => {
    const { id, card } = await approvedNotSent();
    offsetMs += 61 * 60_000;
    await stack.pass("payouts");
    expect(stack.fake.payoffs.submits).not.toContain(id);
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("canceled");
    expect(shown(card)).toContain("The request expired (");
    expect(shown(card)).toContain("before it could be sent");
  });

  it("is not sent once the approver whose vote it counts was removed from the policy", async () => {
    const { id, card } = await approvedNotSent();
    await setPolicy({ approvers: [BORIS, CARL] });
    offsetMs += AFTER_GRACE_MS;
    await stack.pass("payouts");
    expect(stack.fake.payoffs.submits).not.toContain(id);
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("canceled");
    expect(shown(card)).toContain(`<@${ANNA}> approved it but is no longer one of the approvers.`);
  });

  it("with the service down, is stopped by the switch at once and its quote cancelled once the service is back", async () => {
    const { id, card } = await requested("1300");
    expect(await decide("approve", id, ANNA)).toBeNull();
    serviceDown();
    await stack.pass("payouts");
    await setPolicy({ off: true });
    await stack.pass("payouts");
    expect(shown(card)).toContain("Not sent: stopped before it reached the service");
    stack.fake.payoffs.faults = {};
    offsetMs += 60_000;
    await stack.pass("payouts");
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("canceled");
    expect(stack.fake.payoffs.submits).not.toContain(id);
  });

  it("with the service down, an approver stops it from the card: rejected, never sent, its quote cancelled once the service is back", async () => {
    const { id, card } = await requested("1350");
    expect(await decide("approve", id, ANNA)).toBeNull();
    serviceDown();
    await stack.pass("payouts");
    expect(shown(card)).toContain("Stop payout");
    // Anna, who approved it, stops it herself.
    expect(await decide("reject", id, ANNA)).toBeNull();
    await stack.pass("payouts");
    expect(shown(card)).toContain("Rejected by <@U0ANNA>: The service is down; we pay this another way");
    stack.fake.payoffs.faults = {};
    offsetMs += 60_000;
    await stack.pass("payouts");
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("canceled");
    expect(stack.fake.payoffs.submits).not.toContain(id);
  });

  it("a payout the service did take is read back as sent, never sent again nor called not sent", async () => {
    const made = await requested("1400");
    expect(await decide("approve", made.id, ANNA)).toBeNull();
    // The service takes the submit, then goes down: the answer and the next readings are lost.
    stack.fake.payoffs.faults.submit = "lostAnswer";
    stack.fake.payoffs.afterCall = (call) => {
      if (call === "submit") stack.fake.payoffs.faults = { submit: "lostAnswer", info: "html502" };
    };
    try {
      await stack.pass("payouts");
    } finally {
      stack.fake.payoffs.afterCall = null;
      stack.fake.payoffs.faults = {};
    }
    expect(shown(made.card)).toContain("Being sent to the service");
    expect(stack.fake.payoffs.submits.filter((one) => one === made.id)).toHaveLength(1);
    await setPolicy({ off: true });
    offsetMs += AFTER_GRACE_MS;
    await stack.pass("payouts");
    expect(shown(made.card)).toContain("Sent: the service is paying it out");
    expect(shown(made.card)).not.toContain("stopped");
    expect(stack.fake.payoffs.submits.filter((one) => one === made.id)).toHaveLength(1);
  });

  it("counts a payout on the day it leaves: made within the caps late one day, not sent the next when that day's cap would pass", async () => {
    await setPolicy({ personDay: "3000" });
    // 23:50 UTC of this test's day.
    const now = clock().getTime();
    offsetMs += Math.ceil(now / 86_400_000) * 86_400_000 - 10 * 60_000 - now;
    const late = await requested("1200");
    // The next day, before it is approved, the requester asks for 2,000 RUB more (cap 3,000).
    offsetMs += 15 * 60_000;
    await requested("900");
    await requested("1100");
    expect(await decide("approve", late.id, ANNA)).toBeNull();
    await stack.pass("payouts");
    expect(stack.fake.payoffs.submits).not.toContain(late.id);
    expect(stack.fake.payoffs.all.get(late.id)?.state).toBe("canceled");
    expect(shown(late.card)).toContain("Not sent: stopped before it reached the service");
    expect(shown(late.card)).toContain(
      "the requester's daily cap of 3,000.00 RUB (2,000.00 RUB already counted today)",
    );
    await expect
      .poll(() => JSON.stringify(stack.slack.threadOf(APPROVAL, late.card.ts)))
      .toContain("daily cap");
  });
});
