/**
 * Refunds through the real app against the sandbox (issue 52, item 4): a refund over what was paid
 * refused before any form or quote; a partial refund asked with `/payout refund`, its form asking
 * for the wallet, its card saying which invoice it refunds, the invoice's card showing it on its way
 * and then "Refunded 500.00 of 1,500.00 RUB" once paid; the period report showing it apart from the
 * takings; the export's file giving it in the invoice's row, its own column, and on its line; the
 * audit trail holding each step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInvoice } from "../../sandbox/payments-samples.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { readCsv } from "../support/csv.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS, ADMIN] = ["U0REQ", "U0ANNA", "U0BORIS", "U0ADMIN"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";
const INVOICE = "715309001_PaidForRefund";

describe("refunds of paid invoices", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(() => new Date()),
      env: { PAYOUT_RUN_MS: "100" },
      payoutTiming: { followMs: 200, retryMs: 200 },
    });
    for (const user of [REQUESTER, ANNA, BORIS]) stack.slack.users[user] = {};
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
    await connectWithSecret2(stack);
    const policy = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS].join(","), "--channel", APPROVAL]
        .concat(["--two-from", "50000", "--person-day", "100000", "--register-day", "200000"])
        .concat(["--expire", "1h", "--requesters", REQUESTER]),
    );
    expect(policy.code, policy.stderr).toBe(0);
    const paidAt = new Date(Date.now() - 3_600_000);
    stack.fake.invoices.set(INVOICE, {
      ...openInvoice(INVOICE, { amount: "1500", method: METHOD, description: "Order 77" }, paidAt),
      state: "payed",
      remainingAmount: "0",
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const text = (message: { blocks?: unknown; text?: string } | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);
  const refund = (line: string) =>
    stack.command(`refund ${line}`, { command: "/payout", userId: REQUESTER, channelId: "C0SUPPORT" });
  /** The invoice's card as `/invoice ID` posts it in #support now. */
  async function invoiceCard(): Promise<string> {
    const before = cardsIn("C0SUPPORT").length;
    await stack.command(INVOICE, { command: "/invoice", userId: REQUESTER, channelId: "C0SUPPORT" });
    await stack.slack.waitForMessages(() => cardsIn("C0SUPPORT").length === before + 1);
    return text(cardsIn("C0SUPPORT").at(-1));
  }

  it("refuses a refund over the paid amount before any form or quote, saying how much is left", async () => {
    const opened = stack.slack.callsOf("views.open").length;
    const ack = await refund(`${INVOICE} 2000 Customer asked for more`);
    const reply = JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body);
    expect(reply).toContain("more than is left to refund");
    expect(reply).toContain("at most 1,500.00 RUB");
    expect(stack.slack.callsOf("views.open")).toHaveLength(opened);
    expect(stack.fake.payoffs.all.size).toBe(0);
  });

  it("asks a partial refund in a form that wants the wallet; the card names the invoice; paid, the invoice's card says so", async () => {
    expect(await invoiceCard()).toContain("kassa_invoice_refund");
    const ack = await refund(`${INVOICE} 500 Customer returned one item`);
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    const view: View = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    expect(JSON.stringify(view)).toContain("at most 1,500.00 RUB");
    const submitted = await stack.submitView({
      view,
      values: {
        payout_method: { selected: METHOD, value: METHOD },
        payout_wallet: { value: WALLET },
        payout_amount: { value: "500" },
        payout_reason: { value: "Customer returned one item" },
      },
      userId: REQUESTER,
      viewId: "V0REFUND1",
    });
    expect(submitted.json).toBeNull();
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 1);
    const card = cardsIn(APPROVAL)[0] as PostedMessage;
    expect(text(card)).toContain(`Refund of invoice \`${INVOICE}\` (paid 1,500.00 RUB`);
    expect(await invoiceCard()).toContain("Refund of 500.00 RUB on its way");
    // What is on its way counts: no more than 1,000.00 RUB may be asked meanwhile.
    const over = await refund(`${INVOICE} 1000.01 Another item`);
    expect(JSON.stringify((await stack.slack.waitForReply(over.responseId)).body)).toContain(
      "at most 1,000.00 RUB",
    );

    const id = JSON.stringify(card.blocks).match(/Payout `([^`]+)`/)?.[1] ?? "";
    const before = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_payout_approve", id, { userId: ANNA, channelId: APPROVAL });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const approveView = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    await stack.submitView({
      view: approveView,
      values: { payout_last_four: { value: "5678" } },
      userId: ANNA,
    });
    await expect.poll(() => stack.fake.payoffs.submits, { timeout: 5000 }).toEqual([id]);
    stack.fake.payoffs.finish(id, "payed");
    const paidCard = () => text(stack.slack.messages.get(`${APPROVAL}:${card.ts}`));
    await expect.poll(paidCard, { timeout: 5000 }).toContain("Paid out");
    await expect.poll(() => invoiceCard(), { timeout: 5000 }).toContain("Refunded 500.00 of 1,500.00 RUB");
    expect(await invoiceCard()).not.toContain("on its way");

    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(TEAM, { limit: 500 });
      const acts = page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : []));
      const refunds = acts.filter((entry) => entry.action.startsWith("refund."));
      expect(refunds.map((entry) => [entry.action, entry.outcome])).toEqual(
        expect.arrayContaining([
          ["refund.asked", "refused"],
          ["refund.asked", "done"],
          ["refund.paid", "done"],
        ]),
      );
    } finally {
      await store.close();
    }
  });

  it("shows the refund in the period report on a line of its own, the takings untouched", async () => {
    const ack = await stack.command("summary today", { command: "/invoice", userId: REQUESTER });
    const reply = JSON.stringify((await stack.slack.waitForReply(ack.responseId, { timeoutMs: 8000 })).body);
    expect(reply).toContain("Refunds paid out");
    expect(reply).toContain("1 refund: 500.00 RUB");
  });

  it("exports the refund in the invoice's row, in a column of its own, and on the file's line; the paid amount as paid", async () => {
    const before = stack.slack.files.shared().length;
    await stack.command("export 7d", { command: "/invoice", userId: ADMIN });
    const file = (await stack.slack.files.waitFor(before + 1)).find((one) => one.filename.endsWith(".csv"));
    const [header = [], ...rows] = readCsv((file?.bytes ?? Buffer.alloc(0)).toString("utf8").slice(1), ",");
    const row = rows.find((cells) => cells[0] === INVOICE) ?? [];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(header.slice(-2)).toEqual(["refunded_amount", "refunded_currency"]);
    expect(cell("state")).toBe("payed");
    expect(cell("amount")).toBe("1500");
    expect(cell("refunded_amount")).toBe("500");
    expect(cell("refunded_currency")).toBe("RUB");
    // Every other invoice of the period had nothing refunded: its refund cells stay empty.
    for (const other of rows.filter((cells) => cells[0] !== INVOICE && cells.length > 1))
      expect(other.slice(-2)).toEqual(["", ""]);
    expect(file?.initialComment).toContain("Refunds paid out in the period: 1 refund: 500.00 RUB");
  });
});
