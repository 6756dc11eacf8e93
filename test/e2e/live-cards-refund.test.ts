import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, type SampleInvoice } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { viewOf } from "../support/views.js";

// A live card that turns paid offers Refund (issue 52) where the register's payouts are on, as the
// card of `/invoice ID` and Refresh does; where they are off it does not. Watches are read every
// 100 ms (WATCH_INTERVAL_MS): each case waits for what it expects, never for a time.

const INTERVAL_MS = 100;
const ASKER = "U0FINANCE1";
const [ANNA, BORIS] = ["U0ANNA", "U0BORIS"];
const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));

function unpaid(id: string): SampleInvoice {
  return {
    id,
    state: "notpayed",
    type: "purchase",
    currency: "RUB",
    amount: "1500",
    method: "CARDRUBP2P",
    createdAt: hours(-1),
    expiredAt: hours(5),
  };
}

const buttonIds = (blocks: Array<Record<string, unknown>>) =>
  blocks
    .filter((block) => block.type === "actions")
    .flatMap((block) => (block.elements as Array<{ action_id: string }>).map((element) => element.action_id));

describe("live cards offer Refund once paid, where payouts are on", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { WATCH_INTERVAL_MS: String(INTERVAL_MS) }, storeMemoMs: 0 });
    for (const user of [ASKER, ANNA, BORIS]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Posts the invoice's live card in its own channel, pays it, and returns the card once redrawn paid. */
  async function paidLiveCard(id: string, channelId: string): Promise<PostedMessage> {
    stack.fake.invoices.set(id, unpaid(id));
    const { reply } = await stack.ask(id, { channelId, userId: ASKER });
    const card = stack.slack.messages.get(`${channelId}:${String(reply.body.ts)}`);
    if (!card) throw new Error("no card posted");
    expect(JSON.stringify(card.blocks)).toContain("Live: Kassa is watching this invoice");
    expect(buttonIds(card.blocks)).not.toContain("kassa_invoice_refund");
    stack.fake.payAfter(id, 50);
    await stack.slack.waitForMessages(() => stack.slack.threadOf(channelId, card.ts).length === 1);
    expect(card.text).toContain(`Invoice ${id}: Paid`);
    expectWithinBlockKitLimits({ text: card.text, blocks: card.blocks });
    return card;
  }

  it("offers no Refund on a card turned paid while the register's payouts are off", async () => {
    const card = await paidLiveCard("live_refund_off", "C0LIVEOFF");
    expect(buttonIds(card.blocks)).toContain("invoice_refresh");
    expect(buttonIds(card.blocks)).not.toContain("kassa_invoice_refund");
  });

  it("offers Refund on a card turned paid once payouts are on; pressed, it opens the refund form", async () => {
    const policy = await stack.cli(
      ["payouts", "policy", "--team", SANDBOX_TEAM.id, "--approvers", [ANNA, BORIS].join(",")]
        .concat(["--channel", "C0PAYOUTS", "--two-from", "50000", "--person-day", "100000"])
        .concat(["--register-day", "200000", "--expire", "1h", "--requesters", ASKER]),
    );
    expect(policy.code, policy.stderr).toBe(0);
    const card = await paidLiveCard("live_refund_on", "C0LIVEON");
    expect(buttonIds(card.blocks)).toContain("kassa_invoice_refund");
    const button = card.blocks
      .filter((block) => block.type === "actions")
      .flatMap((block) => block.elements as Array<{ action_id: string; value: string }>)
      .find((element) => element.action_id === "kassa_invoice_refund");

    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action("kassa_invoice_refund", button?.value ?? "", {
      userId: ASKER,
      channelId: "C0LIVEON",
    });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const form = JSON.stringify(viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {}));
    expect(form).toContain("live_refund_on");
    expect(form).toContain("at most 1,500.00 RUB");
  });
});
