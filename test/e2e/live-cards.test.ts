import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, SANDBOX_LOGIN, type SampleInvoice } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { type Ack, Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { clockReading } from "../support/manual-clock.js";

// Live cards on SQLite: one process, the schedule in memory and in the store file. Watches are read
// every 100 ms here (WATCH_INTERVAL_MS), so each case waits for what it expects, never for a time.

const INTERVAL_MS = 100;
const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));

function unpaid(id: string, extra: Partial<SampleInvoice> = {}): SampleInvoice {
  return {
    id,
    state: "notpayed",
    type: "purchase",
    currency: "RUB",
    amount: "1500",
    createdAt: hours(-1),
    expiredAt: hours(5),
    ...extra,
  };
}

const readsOf = (stack: Stack, id: string) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/") && request.body?.id === id)
    .length;
const text = (message: PostedMessage | undefined) => JSON.stringify(message?.blocks ?? []);
const buttonIds = (blocks: Array<Record<string, unknown>>) =>
  blocks
    .filter((block) => block.type === "actions")
    .flatMap((block) => (block.elements as Array<{ action_id: string }>).map((element) => element.action_id));

/** Asks for the invoice in a channel of its own and returns the card Kassa posted there. */
async function postCard(
  stack: Stack,
  id: string,
  channelId: string,
  userId?: string,
): Promise<PostedMessage> {
  const { reply } = await stack.ask(id, { channelId, ...(userId ? { userId } : {}) });
  expect(reply.body.via).toBe("chat.postMessage");
  const card = stack.slack.messages.get(`${channelId}:${String(reply.body.ts)}`);
  if (!card) throw new Error("no card posted");
  return card;
}

async function waitForReads(stack: Stack, id: string, count: number): Promise<void> {
  await expect.poll(() => readsOf(stack, id), { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
}

/** The first two blocks' clock: the real one, moved on by passes(). */
let ahead = 0;
const aheadClock = clockReading(() => new Date(Date.now() + ahead));

/** Waits for the watch pass under way (and runs one more, on a clock that has not moved). */
const settled = (stack: Stack) => stack.pass("liveCards");

/** `n` watch passes, each after the clock moved past the interval (to see that something does NOT happen). */
async function passes(stack: Stack, n: number): Promise<void> {
  for (let pass = 0; pass < n; pass += 1) {
    ahead += INTERVAL_MS;
    await stack.pass("liveCards");
  }
}

describe("live invoice cards (SQLite)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      // One asker posts all of this block's cards: 80 leaves them a share of 20.
      env: { WATCH_INTERVAL_MS: String(INTERVAL_MS), WATCH_MAX_PER_WORKSPACE: "80" },
      storeMemoMs: 0,
      clock: aheadClock,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("posts the card with chat.postMessage, updates it in place when paid, tells it once in its thread, then stops reading", async () => {
    stack.fake.invoices.set("live_paid", unpaid("live_paid"));
    const card = await postCard(stack, "live_paid", "C0LIVE1");
    expect(text(card)).toContain("Live: Kassa is watching this invoice");
    expect(buttonIds(card.blocks)).toContain("invoice_stop_watch");
    await waitForReads(stack, "live_paid", 2);
    expect(card.updates).toBe(0);

    stack.fake.payAfter("live_paid", 50);
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0LIVE1", card.ts).length === 1);
    expect(card.updates).toBe(1);
    expect(card.text).toContain("Invoice live_paid: Paid");
    expect(text(card)).toContain(":white_check_mark: Paid _(was: Not paid)_");
    expect(text(card)).toContain("Final state: Kassa stopped watching this invoice.");
    expect(buttonIds(card.blocks)).not.toContain("invoice_stop_watch");
    expectWithinBlockKitLimits({ text: card.text, blocks: card.blocks });
    expect(stack.slack.threadOf("C0LIVE1", card.ts)[0]?.text).toBe(
      "<@U0FINANCE1> Invoice live_paid: Not paid → Paid · 1,500.00 RUB",
    );

    await settled(stack); // a read already under way when the card left the watch may still finish
    const reads = readsOf(stack, "live_paid");
    await passes(stack, 3);
    expect(readsOf(stack, "live_paid")).toBe(reads);
    expect(stack.slack.threadOf("C0LIVE1", card.ts)).toHaveLength(1);
    expect(card.updates).toBe(1);
    const ended = stack
      .logEntries()
      .find((entry) => entry.outcome === "watch_ended" && entry.invoice === "live_paid");
    expect(ended).toMatchObject({ reason: "final", team: "T0SANDBOX" });
  });

  it("keeps two cards of one invoice current from one read, each with its own thread reply", async () => {
    stack.fake.invoices.set("live_two", unpaid("live_two"));
    const first = await postCard(stack, "live_two", "C0TWO1");
    const second = await postCard(stack, "live_two", "C0TWO2");
    stack.fake.pay("live_two");
    await stack.slack.waitForMessages(
      () =>
        stack.slack.threadOf("C0TWO1", first.ts).length === 1 &&
        stack.slack.threadOf("C0TWO2", second.ts).length === 1,
    );
    expect(first.text).toContain("Paid");
    expect(second.text).toContain("Paid");
    // Two /invoice commands and one watch read that saw the change (maybe one more before it).
    expect(readsOf(stack, "live_two")).toBeLessThanOrEqual(4);
  });

  it("updates the card for a partial payment without a thread reply", async () => {
    stack.fake.invoices.set("live_partial", unpaid("live_partial"));
    const card = await postCard(stack, "live_partial", "C0PART");
    const invoice = stack.fake.invoices.get("live_partial");
    if (invoice) invoice.remainingAmount = "500";
    await stack.slack.waitForMessages(() => card.updates === 1);
    expect(text(card)).toContain("500.00 RUB");
    expect(text(card)).toContain("Live: Kassa is watching");
    await passes(stack, 2);
    expect(stack.slack.threadOf("C0PART", card.ts)).toHaveLength(0);
  });

  it("keeps watching through service errors, without telling anyone", async () => {
    stack.fake.invoices.set("live_flaky", unpaid("live_flaky"));
    const card = await postCard(stack, "live_flaky", "C0FLAKY");
    stack.fake.invoiceFault = "html502";
    const before = readsOf(stack, "live_flaky");
    await waitForReads(stack, "live_flaky", before + 3);
    stack.fake.invoiceFault = null;
    expect(card.updates).toBe(0);
    stack.fake.pay("live_flaky");
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0FLAKY", card.ts).length === 1);
    expect(card.text).toContain("Paid");
    expect(
      stack
        .logEntries()
        .some((entry) => entry.outcome === "watch_read_failed" && entry.invoice === "live_flaky"),
    ).toBe(true);
  });

  it("turns the card Expired once when the invoice expires unpaid", async () => {
    stack.fake.invoices.set(
      "live_expiring",
      // 3 to 4 s ahead (the service writes whole seconds): still open when the card is first posted,
      // however slow the machine, so the card starts live and is watched.
      unpaid("live_expiring", {
        expiredAt: moscowTime(new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000)),
      }),
    );
    const card = await postCard(stack, "live_expiring", "C0EXP");
    expect(text(card)).not.toContain("*Expired*");
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0EXP", card.ts).length === 1, 10_000);
    expect(text(card)).toContain("*Expired*");
    expect(text(card)).toContain("Expired without payment");
    expect(stack.slack.threadOf("C0EXP", card.ts)[0]?.text).toContain("Not paid → Expired");
    await passes(stack, 3);
    expect(card.updates).toBe(1);
    expect(stack.slack.threadOf("C0EXP", card.ts)).toHaveLength(1);
  });

  it("falls back to response_url where Kassa is not in the channel, saying how to get live updates", async () => {
    stack.fake.invoices.set("live_private_channel", unpaid("live_private_channel"));
    stack.slack.failChannel("G0SECRET", "not_in_channel");
    const { reply } = await stack.ask("live_private_channel", { channelId: "G0SECRET" });
    expect(reply.body.via).toBeUndefined();
    expect(reply.body.response_type).toBe("in_channel");
    expect(JSON.stringify(reply.body)).toContain("`/invite @Kassa`");
    expect(buttonIds(reply.body.blocks as Array<Record<string, unknown>>)).not.toContain(
      "invoice_stop_watch",
    );
    await passes(stack, 2);
    expect(readsOf(stack, "live_private_channel")).toBe(1);
    // The command's log line is written once its reply went out.
    const line = () => stack.logEntries().find((entry) => entry.postError === "not_in_channel");
    await expect.poll(line).toMatchObject({ outcome: "ok", posted: "response_url" });
  });

  it("Stop updating takes the card out of the watch and says who stopped it (its asker; a bystander is told who can)", async () => {
    stack.fake.invoices.set("live_stop", unpaid("live_stop"));
    const card = await postCard(stack, "live_stop", "C0STOP", "U0STOPPER");
    const stopValue = card.blocks
      .filter((block) => block.type === "actions")
      .flatMap((block) => block.elements as Array<{ action_id: string; value?: string }>)
      .find((element) => element.action_id === "invoice_stop_watch")?.value;
    const pressBy = (userId: string) =>
      stack.action("invoice_stop_watch", stopValue ?? "", {
        userId,
        message: { type: "message", ts: card.ts, text: card.text, blocks: card.blocks },
        channelId: "C0STOP",
        messageTs: card.ts,
      });
    const refused = await stack.slack.waitForReply((await pressBy("U0BYSTANDER")).responseId);
    expect(refused.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(JSON.stringify(refused.body)).toContain("<@U0STOPPER> (who asked for it)");
    const ack: Ack = await pressBy("U0STOPPER");
    const reply = await stack.slack.waitForReply(ack.responseId);
    expect(reply.body.replace_original).toBe(true);
    expect(JSON.stringify(reply.body)).toContain("Live updates stopped by <@U0STOPPER>");
    expect(buttonIds(reply.body.blocks as Array<Record<string, unknown>>)).not.toContain(
      "invoice_stop_watch",
    );
    await settled(stack); // a read already under way when the card left the watch may still finish
    const reads = readsOf(stack, "live_stop");
    stack.fake.pay("live_stop");
    await passes(stack, 3);
    expect(readsOf(stack, "live_stop")).toBe(reads);
    expect(card.updates).toBe(0);
  });

  it("drops a card whose message is gone (message_not_found) and tells nobody", async () => {
    stack.fake.invoices.set("live_deleted", unpaid("live_deleted"));
    const card = await postCard(stack, "live_deleted", "C0DEL");
    stack.slack.messages.delete(`C0DEL:${card.ts}`);
    stack.fake.pay("live_deleted");
    await expect
      .poll(
        () =>
          stack
            .logEntries()
            .some((entry) => entry.outcome === "watch_card_gone" && entry.invoice === "live_deleted"),
        // The register's budget paces the reads (its watches / WATCH_MAX_RPS), not only WATCH_INTERVAL_MS.
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(stack.slack.threadOf("C0DEL", card.ts)).toHaveLength(0);
  });

  it("/invoice help says cards update themselves", async () => {
    const { reply } = await stack.ask("help");
    expect(JSON.stringify(reply.body)).toContain("update themselves and tell each change in their thread");
  });

  it("/invoice status counts the invoices being watched", async () => {
    stack.fake.invoices.set("live_count", unpaid("live_count"));
    await postCard(stack, "live_count", "C0COUNT");
    const { reply } = await stack.ask("status");
    expect(JSON.stringify(reply.body)).toMatch(/Invoices being watched for live cards: [1-9]\d*\./);
  });

  it("ends the watch with one line when the credentials stop working", async () => {
    stack.fake.invoices.set("live_creds", unpaid("live_creds"));
    const card = await postCard(stack, "live_creds", "C0CREDS");
    const changed = await stack.cli(
      ["credentials", "set", "--team", "T0SANDBOX", "--login", SANDBOX_LOGIN, "--secret", "-"],
      "a-secret-that-no-longer-works",
    );
    expect(changed.code).toBe(0);
    await stack.slack.waitForMessages(() => card.updates === 1);
    expect(text(card)).toContain("credentials no longer work");
    expect(text(card)).toContain("1,500.00 RUB");
    await passes(stack, 2);
    expect(card.updates).toBe(1);
    expect(stack.slack.threadOf("C0CREDS", card.ts)).toHaveLength(0);
    await stack.cli(
      ["credentials", "set", "--team", "T0SANDBOX", "--login", SANDBOX_LOGIN, "--secret", "-"],
      "sandbox-secret-7f3a9c",
    );
  });

  it("a card posted before a restart still turns Paid after it", async () => {
    stack.fake.invoices.set("live_restart", unpaid("live_restart"));
    const card = await postCard(stack, "live_restart", "C0RESTART");
    await stack.restart();
    stack.fake.pay("live_restart");
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0RESTART", card.ts).length === 1);
    expect(card.text).toContain("Paid");
  });

  it("uninstalling deletes the workspace's watches", async () => {
    stack.fake.invoices.set("live_uninstall", unpaid("live_uninstall"));
    await postCard(stack, "live_uninstall", "C0UNINST");
    const result = await stack.event({ type: "app_uninstalled" });
    expect(result.status).toBe(200);
    await expect
      .poll(() => stack.logEntries().some((entry) => entry.outcome === "forgotten"), { timeout: 10_000 })
      .toBe(true);
    // A read already under way when the event arrived may still finish.
    await passes(stack, 1);
    const reads = readsOf(stack, "live_uninstall");
    await passes(stack, 3);
    expect(readsOf(stack, "live_uninstall")).toBe(reads);
  });
});

describe("live private cards (REPLY_VISIBILITY=private)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { WATCH_INTERVAL_MS: String(INTERVAL_MS), REPLY_VISIBILITY: "private" },
      clock: aheadClock,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("tells the asker by direct message when the invoice changes", async () => {
    stack.fake.invoices.set("live_dm", unpaid("live_dm"));
    const { reply } = await stack.ask("live_dm", { userId: "U0ASKER" });
    expect(reply.body.response_type).toBe("ephemeral");
    expect(JSON.stringify(reply.body)).toContain("will send you a direct message");
    stack.fake.pay("live_dm");
    await stack.slack.waitForMessages((messages) =>
      messages.some((message) => message.channel === "U0ASKER"),
    );
    const dms = [...stack.slack.messages.values()].filter((message) => message.channel === "U0ASKER");
    expect(dms).toHaveLength(1);
    expect(dms[0]?.text).toBe("Invoice live_dm: Not paid → Paid · 1,500.00 RUB");
    expect(text(dms[0])).toContain(":white_check_mark: Paid");
    await passes(stack, 3);
    expect(
      [...stack.slack.messages.values()].filter((message) => message.channel === "U0ASKER"),
    ).toHaveLength(1);
  });

  it("stops the direct messages and leaves the private card as it is", async () => {
    stack.fake.invoices.set("live_dm_stop", unpaid("live_dm_stop"));
    const { reply } = await stack.ask("live_dm_stop", { userId: "U0QUIET" });
    const stopValue = (reply.body.blocks as Array<Record<string, unknown>>)
      .filter((block) => block.type === "actions")
      .flatMap((block) => block.elements as Array<{ action_id: string; value?: string }>)
      .find((element) => element.action_id === "invoice_stop_watch")?.value;
    const pressed = await stack.action("invoice_stop_watch", stopValue ?? "", {
      userId: "U0QUIET",
      ephemeral: true,
    });
    const note = await stack.slack.waitForReply(pressed.responseId);
    expect(note.body.replace_original).toBe(false);
    expect(JSON.stringify(note.body)).toContain("no longer tells you");
    await settled(stack); // a read already under way when the card left the watch may still finish
    const reads = readsOf(stack, "live_dm_stop");
    stack.fake.pay("live_dm_stop");
    await passes(stack, 3);
    expect(readsOf(stack, "live_dm_stop")).toBe(reads);
    expect(
      [...stack.slack.messages.values()].filter((message) => message.channel === "U0QUIET"),
    ).toHaveLength(0);
  });
});

describe("live cards: limits", () => {
  let stack: Stack;
  /** The app's clock runs with the real one, shifted by this (to pass WATCH_MAX_HOURS). */
  let shift = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      env: {
        WATCH_INTERVAL_MS: String(INTERVAL_MS),
        WATCH_MAX_RPS: "1",
        WATCH_MAX_HOURS: "1",
        // A share of 2 per person.
        WATCH_MAX_PER_WORKSPACE: "8",
      },
      clock: clockReading(() => new Date(Date.now() + shift)),
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("gives each person a fair share of the workspace's live cards, and says so on the card refused", async () => {
    for (const id of ["live_share_1", "live_share_2", "live_share_3"])
      stack.fake.invoices.set(id, unpaid(id));
    await postCard(stack, "live_share_1", "C0SHARE1", "U0GREEDY");
    await postCard(stack, "live_share_2", "C0SHARE2", "U0GREEDY");
    const refused = await postCard(stack, "live_share_3", "C0SHARE3", "U0GREEDY");
    expect(text(refused)).toContain("you already have live cards on 2 invoices");
    expect(buttonIds(refused.blocks)).not.toContain("invoice_stop_watch");
    // Someone else still gets a live card, and joining an invoice already watched is never refused.
    const other = await postCard(stack, "live_share_3", "C0SHARE4", "U0MODEST");
    expect(buttonIds(other.blocks)).toContain("invoice_stop_watch");
    const joined = await postCard(stack, "live_share_1", "C0SHARE5", "U0GREEDY");
    expect(buttonIds(joined.blocks)).toContain("invoice_stop_watch");
  });

  it("keeps all watch reads of one cash register within WATCH_MAX_RPS", async () => {
    const ids = Array.from({ length: 4 }, (_, index) => `live_budget_${index}`);
    for (const [index, id] of ids.entries()) {
      stack.fake.invoices.set(id, unpaid(id));
      await postCard(stack, id, `C0BUDGET${index}`, `U0BUDGET${index}`);
    }
    const start = Date.now();
    const watchReads = () =>
      stack.fake.requests.filter((request) => request.at >= start && ids.includes(String(request.body?.id)))
        .length;
    await expect.poll(watchReads, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const seconds = (Date.now() - start) / 1000;
    // Five watches due every 100 ms would make about 50 reads a second without the budget.
    expect(watchReads()).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it("says when a workspace has reached WATCH_MAX_PER_WORKSPACE", async () => {
    stack.fake.invoices.set("live_over", unpaid("live_over"));
    stack.fake.invoices.set("live_over2", unpaid("live_over2"));
    await postCard(stack, "live_over", "C0OVER1", "U0OVER1");
    const card = await postCard(stack, "live_over2", "C0OVER2", "U0OVER2");
    expect(card.updates).toBe(0);
    expect(text(card)).toContain("already has 8 invoices being watched");
    expect(buttonIds(card.blocks)).not.toContain("invoice_stop_watch");
  });

  it("stops after WATCH_MAX_HOURS, saying so on the card", async () => {
    const card = stack.slack.messages.get(
      [...stack.slack.messages.keys()].find((key) => key.startsWith("C0BUDGET0:")) ?? "",
    );
    shift += 3_600_000 + 60_000;
    await stack.slack.waitForMessages(() => text(card).includes("stopped watching this invoice after 1 h"));
    expect(stack.slack.threadOf("C0BUDGET0", card?.ts ?? "")).toHaveLength(0);
  });
});
