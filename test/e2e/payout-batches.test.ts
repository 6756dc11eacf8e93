/**
 * Batches of payouts through the real app against the sandbox service (issue 52, item 3): rows pasted
 * from a spreadsheet, checked before any quote (a duplicate stopped), each quoted (one refused by the
 * service, in its words), one card with per-method totals against the balance, Drop refused rows,
 * approvals typed as ROWS/TOTAL (two: a wallet in it is not trusted), then each row sent exactly once
 * and followed to its end, the card counting, the result file in its thread and to the requester.
 * Also: funds below the total warned before anyone approves; a quote cancelled at the service before
 * its turn is not sent; a rejection cancels every quote. The worker runs only when asked (a pass).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [ADMIN, REQUESTER, ANNA, BORIS, CARL] = ["U0ADMIN", "U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const METHOD = "CARDRUBP2P";
const ACME = "2200700011112222";
const BETA = "2200700033334444";
const NEW_WALLET = "2200700055556666";

/** The app's clock runs ahead by this much: a pass after the payout worker's follow-up interval. */
let offsetMs = 0;
/** The payout worker's pass after its next look at a submitted payout (followMs: a minute). */
async function followUp(stack: Stack): Promise<void> {
  offsetMs += 61_000;
  await stack.pass("payouts", 2);
}

describe("payout batches in Slack", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      env: { PAYOUT_RUN_MS: "600000", BALANCE_CACHE_TTL_MS: "0" },
      clock: clockReading(() => new Date(Date.now() + offsetMs)),
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const policy = await stack.cli(
      [
        "payouts",
        "policy",
        "--team",
        TEAM,
        "--approvers",
        [ANNA, BORIS, CARL].join(","),
        "--channel",
        APPROVAL,
      ]
        .concat(["--two-from", "10000", "--person-day", "500000", "--register-day", "900000"])
        .concat(["--requesters", REQUESTER, "--trusted-one-below", "50000", "--expire", "1h"]),
    );
    expect(policy.code, policy.stderr).toBe(0);
    await trust("Acme Ltd", ACME);
    await trust("Beta LLC", BETA);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const anyBatchCards = () =>
    [...stack.slack.messages.values()].filter(
      (message) =>
        message.channel === APPROVAL && !message.threadTs && text(message).includes("Batch payout"),
    );
  const lastView = () => viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  const creates = () =>
    stack.fake.requests.filter((request) => request.path.endsWith("/payoff/create/")).length;

  /** Waits until `done` (beforeAll has no expect.poll). */
  async function until(done: () => boolean): Promise<void> {
    for (let tries = 0; !done(); tries += 1) {
      if (tries > 200) throw new Error("not in time");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function open(command: string, userId: string): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command(command, { command: "/payout", userId, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await until(() => stack.slack.callsOf("views.open").length === before + 1);
    return lastView();
  }

  /** A trusted recipient, as people make one: added, then confirmed by two approvers. */
  async function trust(label: string, wallet: string): Promise<void> {
    const form = await open("recipient add", REQUESTER);
    const values = {
      recipient_label: { value: label },
      recipient_method: { value: METHOD },
      recipient_wallet: { value: wallet },
    };
    expect((await stack.submitView({ view: form, values, userId: REQUESTER })).json).toBeNull();
    const cardOf = () =>
      [...stack.slack.messages.values()].find(
        (message) => text(message).includes(label) && text(message).includes("kassa_recipient_confirm"),
      );
    await until(() => cardOf() !== undefined);
    const card = cardOf();
    const value = text(card).match(/"value":"([a-z2-7]{10}:main)"/)?.[1] ?? "";
    for (const approver of [ANNA, BORIS]) {
      const before = stack.slack.callsOf("views.open").length;
      await stack.action("kassa_recipient_confirm", value, { userId: approver, channelId: APPROVAL });
      await until(() => stack.slack.callsOf("views.open").length === before + 1);
      const confirmed = await stack.submitView({
        view: lastView(),
        values: { recipient_last_four: { value: wallet.slice(-4) } },
        userId: approver,
      });
      expect(confirmed.json).toBeNull();
    }
  }

  /** `/payout batch`, the rows pasted: the card it posted (the form closes at once). */
  async function batch(rows: string, reason = "October suppliers"): Promise<PostedMessage> {
    const before = anyBatchCards().length;
    const form = await open("batch", REQUESTER);
    expect(form.callback_id).toBe("kassa_batch_form");
    const values = { batch_rows: { value: rows }, batch_reason: { value: reason } };
    const submitted = await stack.submitView({ view: form, values, userId: REQUESTER });
    expect(submitted.json).toBeNull();
    await stack.slack.waitForMessages(() => anyBatchCards().length > before);
    return anyBatchCards().at(-1) as PostedMessage;
  }

  const batchId = (card: PostedMessage) => text(card).match(/"value":"([a-z2-7]{10})"/)?.[1] ?? "";

  /** Presses a batch button: the modal it opened, or what it said. */
  async function press(action: string, card: PostedMessage, userId: string) {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action(`kassa_batch_${action}`, batchId(card), { userId, channelId: APPROVAL });
    const opened = await Promise.race([
      expect
        .poll(() => stack.slack.callsOf("views.open").length, { timeout: 3000 })
        .toBe(before + 1)
        .then(() => true),
      stack.slack.waitForReply(ack.responseId, { timeoutMs: 3000 }).then(() => false),
    ]);
    if (opened) return { view: lastView(), said: "" };
    return { view: undefined, said: JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body) };
  }

  async function approve(card: PostedMessage, userId: string, typed: string) {
    const { view, said } = await press("approve", card, userId);
    if (!view) return said;
    const result = await stack.submitView({ view, values: { batch_typed: { value: typed } }, userId });
    return result.json === null ? "" : JSON.stringify(result.json);
  }

  async function entries(): Promise<AuditEntry[]> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(TEAM, { limit: 500 });
      return page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : [])).reverse();
    } finally {
      await store.close();
    }
  }

  it("checks the rows before any quote, shows refusals in the service's words, drops them, takes two typed approvals and sends each row once", async () => {
    const rows = [
      "Recipient\tAmount\tFee\tReference",
      "Acme Ltd\t1000\tbalance\tINV-1",
      "beta llc\t1500\tbalance\tINV-2",
      `${METHOD}\t${NEW_WALLET}\t2000\tbalance\tINV-3`,
      `${METHOD}\t2200700077778888\t200000\tbalance\tINV-4`,
      "Acme Ltd\t1000\tbalance\tINV-1 again",
    ].join("\n");
    const createsBefore = creates();
    const card = await batch(rows);
    const id = batchId(card);
    expectWithinBlockKitLimits({ text: card.text, blocks: card.blocks });
    // The duplicate never reached the service: four quotes asked, one refused by it.
    expect(creates() - createsBefore).toBe(4);
    const shown = text(card);
    for (const said of [
      "Acme Ltd",
      "the same wallet and amount as row 1",
      "Amount exceeds the maximum payout of 150000 RUB for this method",
      "Per method",
      "kassa_batch_drop",
      "kassa_batch_cancel",
    ])
      expect(shown).toContain(said);
    expect(shown).not.toContain("kassa_batch_approve");
    expect(await approve(card, ANNA, "3/4500")).toContain("refused");

    const dropped = await press("drop", card, REQUESTER);
    expect(dropped.said).toContain("2 refused rows dropped");
    await expect.poll(() => text(card)).toContain("kassa_batch_approve");
    expect(text(card)).toContain("Needs *2 approvals*: a wallet in it is not a trusted recipient.");
    expect(text(card)).toContain("`3/4500`");

    expect(await approve(card, REQUESTER, "3/4500")).toContain("You requested");
    expect(await approve(card, ANNA, "3/1000")).toContain("That is not this batch");
    expect(await approve(card, ANNA, "3/4 500.00")).toBe("");
    await expect.poll(() => text(card)).toContain("(1 of 2)");
    await stack.pass("payouts");
    expect(stack.fake.payoffs.submits).toEqual([]);
    expect(await approve(card, BORIS, "3/4500")).toBe("");

    await stack.pass("payouts", 2);
    const ids = [...stack.fake.payoffs.submits];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    await expect.poll(() => text(card)).toContain("3 of 3 sent");
    for (const id of ids) stack.fake.payoffs.finish(id, id === ids[2] ? "failed" : "payed");
    await followUp(stack);
    await expect.poll(() => text(card)).toContain("2 paid · 1 failed");
    expect(text(card)).toContain("Done: every row is at its end");
    expect(stack.fake.payoffs.submits).toEqual(ids);

    const files = await stack.slack.files.waitFor(2);
    const inThread = files.find((file) => file.channel === APPROVAL);
    expect(inThread?.threadTs).toBe(card.ts);
    expect(files.some((file) => file.channel === `D${REQUESTER.slice(1)}`)).toBe(true);
    const csv = inThread?.bytes?.toString("utf8") ?? "";
    for (const id of ids) expect(csv).toContain(id);
    expect(csv).toContain("dropped");
    expect(csv).toContain("paid");
    expect(csv).toContain("failed");

    const acts = (await entries()).filter((entry) => entry.object === `batch ${id}`);
    expect(acts.map((entry) => [entry.action, entry.actor, entry.outcome])).toEqual(
      expect.arrayContaining([
        ["batch.requested", REQUESTER, "done"],
        ["batch.rows_dropped", REQUESTER, "done"],
        ["batch.approved", ANNA, "refused"],
        ["batch.approved", ANNA, "done"],
        ["batch.approved", BORIS, "done"],
        ["batch.ended", "kassa", "done"],
      ]),
    );
  });

  it("warns before anyone approves when a method's balance is below what the batch takes from it", async () => {
    const balance = stack.fake.balances.find((one) => one.code === METHOD);
    if (!balance) throw new Error("no balance");
    const was = balance.amount;
    balance.amount = "2000";
    try {
      const card = await batch(["Acme Ltd;1000;balance;Nov-1", "Beta LLC;1500;balance;Nov-2"].join("\n"));
      expect(text(card)).toContain(
        "balance (2,000.00 RUB) is below what this batch takes from it (2,525.00 RUB)",
      );
      // Every row trusted and the total below 50,000 RUB: one approval suffices.
      expect(text(card)).toContain("Needs *1 approval*");
      expect((await press("cancel", card, REQUESTER)).said).toContain("Batch cancelled");
    } finally {
      balance.amount = was;
    }
  });

  it("a quote cancelled at the service before its turn is not sent; the rest are", async () => {
    const card = await batch(["Acme Ltd,700,balance,Dec-1", "Beta LLC,800,amount,Dec-2"].join("\n"));
    expect(text(card)).toContain("Needs *1 approval*");
    const before = stack.fake.payoffs.submits.length;
    const quoted = [...stack.fake.payoffs.all.values()].slice(-2);
    const [first, second] = quoted;
    if (!first || !second) throw new Error("no quotes");
    first.state = "canceled";
    expect(await approve(card, CARL, "2/1500")).toBe("");
    await stack.pass("payouts", 3);
    expect(stack.fake.payoffs.submits.slice(before)).toEqual([second.id]);
    await expect.poll(() => text(card)).toContain("1 of 2 sent");
    expect(text(card)).toContain("not sent_ (At the service it is no longer the payout approved");
  });

  it("a rejection cancels every quote at the service, and nothing is sent", async () => {
    const card = await batch(
      ["Acme Ltd\t300\tbalance\tJan-1", `${METHOD}\t${NEW_WALLET}\t400\tbalance\tJan-2`].join("\n"),
    );
    const id = batchId(card);
    const quoted = [...stack.fake.payoffs.all.values()].slice(-2);
    const { view } = await press("reject", card, BORIS);
    if (!view) throw new Error("no reject modal");
    const rejected = await stack.submitView({
      view,
      values: { batch_reject_reason: { value: "Wrong month" } },
      userId: BORIS,
    });
    expect(rejected.json).toBeNull();
    await expect.poll(() => quoted.map((payoff) => payoff.state)).toEqual(["canceled", "canceled"]);
    await expect.poll(() => text(card)).toContain("Rejected by <@U0BORIS>: Wrong month");
    const late = await stack.action("kassa_batch_approve", id, { userId: ANNA, channelId: APPROVAL });
    expect(JSON.stringify((await stack.slack.waitForReply(late.responseId)).body)).toContain("rejected");
  });

  it("approved with its rows not yet sent (the service down): an approver stops them, each quote cancelled, nothing sent", async () => {
    const card = await batch(["Acme Ltd\t110\tbalance\tApr-1", "Beta LLC\t120\tbalance\tApr-2"].join("\n"));
    const id = batchId(card);
    const quoted = [...stack.fake.payoffs.all.values()].slice(-2);
    const before = stack.fake.payoffs.submits.length;
    expect(await approve(card, ANNA, "2/230")).toBe("");
    await expect.poll(() => text(card)).toContain("Stop unsent rows");
    expect((await press("reject", card, REQUESTER)).said).toContain("You requested");
    const { view } = await press("reject", card, BORIS);
    if (!view) throw new Error("no stop modal");
    expect(JSON.stringify(view)).toContain("not yet on their way are not sent");
    const stopped = await stack.submitView({
      view,
      values: { batch_reject_reason: { value: "Wrong amounts" } },
      userId: BORIS,
    });
    expect(stopped.json).toBeNull();
    await stack.pass("payouts", 2);
    expect(stack.fake.payoffs.submits.length).toBe(before);
    await expect.poll(() => quoted.map((payoff) => payoff.state)).toEqual(["canceled", "canceled"]);
    await expect.poll(() => text(card)).toContain("Stopped by <@U0BORIS>: Wrong amounts");
    await expect.poll(() => text(card)).toContain("Done: every row is at its end");
    const again = await stack.action("kassa_batch_reject", id, { userId: CARL, channelId: APPROVAL });
    expect(JSON.stringify((await stack.slack.waitForReply(again.responseId)).body)).toContain("<@U0BORIS>");
  });

  it("an approver whose limit is below the batch's total is refused at the click, told who can", async () => {
    const limited = await stack.cli(
      [
        "payouts",
        "policy",
        "--team",
        TEAM,
        "--approvers",
        [ANNA, BORIS, CARL].join(","),
        "--channel",
        APPROVAL,
      ]
        .concat(["--two-from", "10000", "--person-day", "500000", "--register-day", "900000"])
        .concat(["--requesters", REQUESTER, "--trusted-one-below", "50000", "--expire", "1h"])
        .concat(["--approver-limit", `${CARL}=1000`]),
    );
    expect(limited.code, limited.stderr).toBe(0);
    const card = await batch(["Acme Ltd\t600\tbalance\tFeb-1", "Beta LLC\t900\tbalance\tFeb-2"].join("\n"));
    const said = await approve(card, CARL, "2/1500");
    expect(said).toContain(`<@${ANNA}>`);
    expect(said).toContain(`<@${BORIS}>`);
    expect(await approve(card, ANNA, "2/1500")).toBe("");
    await expect.poll(() => text(card)).toContain("Approved");
  });

  it("a row whose quote the service does not answer is shown refused, and the rest of the batch goes on", async () => {
    stack.fake.payoffs.afterCall = (call) => {
      // After the second quote the service answers with a 502 page: the third row is refused in Kassa's words.
      if (
        call === "create" &&
        stack.fake.requests.filter((one) => one.path.endsWith("/payoff/create/")).length % 2 === 0
      )
        stack.fake.payoffs.faults.create = "html502";
    };
    try {
      const card = await batch(
        [
          "Acme Ltd\t100\tbalance\tMar-1",
          "Beta LLC\t200\tbalance\tMar-2",
          "Acme Ltd\t300\tbalance\tMar-3",
        ].join("\n"),
      );
      expect(text(card)).toContain("the service did not answer for its quote");
      expect(text(card)).toContain("kassa_batch_drop");
    } finally {
      stack.fake.payoffs.afterCall = null;
      delete stack.fake.payoffs.faults.create;
    }
  });

  it("says what it could not read in the pasted rows, the form kept open", async () => {
    const cards = anyBatchCards().length;
    const form = await open("batch", REQUESTER);
    const values = {
      batch_rows: { value: "Acme Ltd\t10\tbalance\nAcme Ltd\tten\tbalance\nAcme Ltd\t10\twho knows" },
      batch_reason: { value: "x" },
    };
    const answer = JSON.stringify((await stack.submitView({ view: form, values, userId: REQUESTER })).json);
    expect(answer).toContain("Line 2: the amount is not a number.");
    expect(answer).toContain('Line 3: \\"who knows\\" is not who pays the fee');
    expect(anyBatchCards()).toHaveLength(cards);
  });
});
