import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FunctionCompletion } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack, type StepRun } from "../../sandbox/stack.js";
import { linkKey, readLink } from "../../src/links/record.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { openStore } from "../../src/store/keyv.js";

// Kassa's Workflow Builder steps through the real app: signed function_executed events in, and
// functions.completeSuccess / completeError out, as Slack's stand-in records them.

const ADMIN = "U0ADMIN";
const PERSON = "U0FINANCE1";

type View = { blocks: Array<{ block_id?: string; element?: Record<string, unknown> }> };

describe("workflow steps (function_executed)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { WATCH_INTERVAL_MS: "100" }, storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Runs a step and waits for the run's end as Slack records it. */
  async function run(
    step: StepRun,
  ): Promise<{ end: FunctionCompletion; token: string; executionId: string }> {
    const sent = await stack.runStep(step);
    expect(sent.status).toBe(200);
    const [end] = await stack.slack.waitForCompletion(sent.executionId);
    if (!end) throw new Error("no completion");
    return { end, token: sent.token, executionId: sent.executionId };
  }
  const status = (invoice: unknown) => run({ callbackId: "invoice_status", inputs: { invoice } });
  const create = (inputs: Record<string, unknown>, extra: Partial<StepRun> = {}) =>
    run({ callbackId: "create_invoice", inputs, ...extra });
  const createRequests = () => stack.fake.requests.filter((r) => r.path.endsWith("/invoice/create/")).length;

  /** The connect form as an admin saves it, with workflows allowed to create invoices or not. */
  async function allowWorkflows(choice: "on" | "off"): Promise<void> {
    const opened = stack.slack.callsOf("views.open").length;
    await stack.command("connect", { userId: ADMIN });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
    const body = stack.slack.callsOf("views.open").at(-1)?.body ?? {};
    const view = (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as View;
    expect(view.blocks.some((block) => block.block_id === "workflow_creates")).toBe(true);
    const saved = await stack.submitView({
      view: view,
      userId: ADMIN,
      values: {
        login: { value: "sandbox_register" },
        secret: { value: null },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
        workflow_creates: { selected: choice },
      },
    });
    expect(saved.json).toMatchObject({ response_action: "update" });
  }

  it("Invoice status: completes with the invoice's state and amounts, on the run's own function token", async () => {
    const { end, token } = await status("715308966_PaidBitcoin");
    expect(end.outcome).toBe("success");
    expect(end.token).toBe(token);
    expect(token).toMatch(/^xwfp-/);
    expect(end.outputs).toEqual({
      invoice_id: "715308966_PaidBitcoin",
      state: "payed",
      state_label: "Paid",
      is_paid: true,
      amount: "100",
      currency: "RUB",
      amount_text: "100.00 RUB",
      paid_amount: "0.1",
      paid_currency: "BTC",
      method: "BITCOIN",
      payment_url: "https://pay.crystalpay.io/?i=715308966_PaidBitcoin",
    });
    // The run's one log line follows its end.
    await expect
      .poll(() => stack.logEntries().find((entry) => entry.step === "invoice_status"))
      .toMatchObject({ outcome: "completed", team: "T0SANDBOX", state: "payed" });
  });

  it("Invoice status: takes a payment link, says expired for an unpaid invoice past its expiry, gives no paid amount before payment", async () => {
    const byLink = await status("https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm");
    expect(byLink.end.outputs).toMatchObject({ state: "notpayed", state_label: "Not paid", is_paid: false });
    expect(byLink.end.outputs).not.toHaveProperty("paid_amount");
    const expired = await status("715308964_ExpiredUnpaid");
    expect(expired.end.outputs).toMatchObject({ state: "expired", state_label: "Expired", is_paid: false });
  });

  it("Invoice status: an unknown invoice, an input that is none, and a workspace without a cash register each fail with what to do", async () => {
    const unknown = await status("715300000_NoSuchOne");
    expect(unknown.end).toMatchObject({ outcome: "error" });
    expect(unknown.end.error).toContain("has no invoice 715300000_NoSuchOne");
    const none = await status("please look at order 7");
    expect(none.end.error).toContain("give an invoice id");
    const elsewhere = await run({
      callbackId: "invoice_status",
      inputs: { invoice: "715308958_rPwTzvsvCm" },
      teamId: "T0NOTCONNECTED",
    });
    expect(elsewhere.end.error).toContain("has not connected its cash register");
    expect(elsewhere.end.error).toContain("/invoice connect");
  });

  it("Create invoice: refused while the workspace has not allowed workflows to create; nothing is sent", async () => {
    const before = createRequests();
    const { end } = await create({ amount: "1500" });
    expect(end.outcome).toBe("error");
    expect(end.error).toContain("workflows may not create invoices");
    expect(end.error).toContain("/invoice connect");
    expect(createRequests()).toBe(before);
  });

  it("Create invoice: once an admin allows it, creates one invoice, posts its live card, completes with its id, link and amount; the card turns Paid and tells the person", async () => {
    await allowWorkflows("on");
    const said = await stack.ask("status", { userId: PERSON });
    expect(JSON.stringify(said.reply.body)).toContain("Workflows may create invoices");
    const before = stack.fake.created.length;
    const { end, token } = await create({
      amount: "1500.50",
      currency: "RUB",
      description: "Order 7",
      lifetime_minutes: 30,
      channel_id: "C0STEPS",
      notify_user: PERSON,
    });
    expect(end.outcome).toBe("success");
    expect(stack.fake.created).toHaveLength(before + 1);
    const id = stack.fake.created.at(-1) ?? "";
    expect(end.outputs).toEqual({
      invoice_id: id,
      payment_url: `https://pay.crystalpay.io/?i=${id}`,
      amount: "1500.5",
      currency: "RUB",
      amount_text: "1,500.50 RUB",
      card_posted: true,
    });
    const request = stack.fake.requests.find((r) => r.path.endsWith("/invoice/create/") && r.body?.amount);
    expect(request?.body).toMatchObject({ amount: "1500.5", lifetime: 30, description: "Order 7" });
    // The card went out before the run ended, on the run's token; the watcher keeps it current.
    const post = stack.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0STEPS");
    expect(post?.token).toBe(token);
    const card = [...stack.slack.messages.values()].find((m) => m.channel === "C0STEPS" && !m.threadTs);
    if (!card) throw new Error("no card posted");
    expect(JSON.stringify(card.blocks)).toContain("Live: Kassa is watching this invoice");
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0STEPS", card.ts).length === 1);
    expect(card.text).toContain("Paid");
    expect(stack.slack.threadOf("C0STEPS", card.ts)[0]?.text).toContain(`<@${PERSON}> Invoice ${id}`);
  });

  it("Create invoice: a repeated delivery of the same run creates nothing more and ends the run once", async () => {
    const before = stack.fake.created.length;
    const first = await create({ amount: "42" });
    expect(first.end.outcome).toBe("success");
    // Slack's retry of the same event, then the same run in another envelope.
    const again = await stack.runStep({
      callbackId: "create_invoice",
      inputs: { amount: "42" },
      executionId: first.executionId,
      retryNum: 1,
    });
    expect(again.status).toBe(200);
    await expect
      .poll(() =>
        stack.logEntries().filter((e) => e.execution === first.executionId && e.outcome === "duplicate"),
      )
      .toHaveLength(1);
    expect(stack.fake.created).toHaveLength(before + 1);
    expect(stack.slack.functionCompletions.filter((c) => c.executionId === first.executionId)).toHaveLength(
      1,
    );
  });

  it("Create invoice: runs at the same moment with one run id create one invoice", async () => {
    const before = stack.fake.created.length;
    const runs = await Promise.all(
      [0, 1, 2].map((n) =>
        stack.runStep({
          callbackId: "create_invoice",
          inputs: { amount: "7" },
          executionId: "FxSAMETIME",
          eventId: `EvSame${n}`,
        }),
      ),
    );
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
    await stack.slack.waitForCompletion("FxSAMETIME");
    await expect.poll(() => stack.logEntries().filter((e) => e.execution === "FxSAMETIME").length).toBe(3);
    expect(stack.fake.created).toHaveLength(before + 1);
    expect(stack.slack.functionCompletions.filter((c) => c.executionId === "FxSAMETIME")).toHaveLength(1);
  });

  it("Create invoice: a bad amount fails with what to fix and sends nothing; a float is never rounded into an amount", async () => {
    const before = createRequests();
    const typed = await create({ amount: "12,5e3", currency: "RUB" });
    expect(typed.end.outcome).toBe("error");
    expect(typed.end.error).toContain("Amount “12,5e3”");
    expect(typed.end.error).toContain("Change the step's inputs in Workflow Builder");
    const float = await create({ amount: 0.1 + 0.2 });
    expect(float.end.error).toContain("Amount “0.30000000000000004”");
    const currency = await create({ amount: "10", currency: "GBP", lifetime_minutes: 0 });
    expect(currency.end.error).toContain("Currency “GBP”: Use one of RUB, USD, EUR, BTC, USDT");
    expect(currency.end.error).toContain("Enter whole minutes from 1 to 4320");
    const missing = await create({ description: "no amount" });
    expect(missing.end.error).toContain("Amount: Enter the amount.");
    expect(createRequests()).toBe(before);
  });

  it("Create invoice: a reminder before expiry (1h or 6h) kept with the link; anything else says what to write", async () => {
    const before = createRequests();
    const wrong = await create({ amount: "10", currency: "RUB", remind: "2h" });
    expect(wrong.end.error).toContain("Remind before expiry “2h”: Use 1h or 6h");
    const short = await create({ amount: "10", currency: "RUB", lifetime_minutes: 30, remind: "1h" });
    expect(short.end.error).toContain("more than 60 minutes");
    expect(createRequests()).toBe(before);
    const made = await create({ amount: "10", currency: "RUB", lifetime_minutes: 120, remind: "1h" });
    expect(made.end.outcome).toBe("success");
    const sent = stack.fake.requests.filter((r) => r.path.endsWith("/invoice/create/")).at(-1);
    const ref = /kassa:([a-z2-7]{10})/.exec(String(sent?.body?.extra ?? ""))?.[1] ?? "";
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const record = await readLink(await openClaimBoard(store), linkKey(SANDBOX_TEAM.id, ref));
      expect(record).toMatchObject({ via: "step", remind: 60 });
    } finally {
      await store.close();
    }
  });

  it("Create invoice: the service's refusal and the service down each end the run honestly", async () => {
    stack.fake.createFault = "refuse";
    const refused = await create({ amount: "10" });
    expect(refused.end.error).toMatch(/^The payment service refused the invoice: “.+”\. Nothing was created/);
    stack.fake.createFault = "html502";
    const down = await create({ amount: "10" });
    expect(down.end.error).toContain("Kassa could not tell whether the invoice was created");
    expect(down.end.error).toMatch(/Reference: \S+$/);
    stack.fake.createFault = null;
    await expect
      .poll(() => stack.logEntries().find((e) => e.step === "create_invoice" && e.reason === "create_failed"))
      .toMatchObject({ outcome: "failed", level: "error" });
  });

  it.each([
    ["channel_not_found", "Kassa is not a member of the channel, or cannot see it"],
    ["is_archived", "the channel is archived"],
    ["not_in_channel", "Kassa is not a member of the channel, or cannot see it"],
  ])(
    "Create invoice: a card Slack refuses (%s) is said in the outputs; the invoice stands",
    async (code, why) => {
      const channel = `C0${code.replace(/_/g, "").toUpperCase()}`;
      stack.slack.failChannel(channel, code);
      try {
        const before = stack.fake.created.length;
        const { end } = await create({ amount: "250", channel_id: channel });
        expect(end.outcome).toBe("success");
        expect(stack.fake.created).toHaveLength(before + 1);
        const id = stack.fake.created.at(-1) ?? "";
        expect(end.outputs).toMatchObject({
          invoice_id: id,
          payment_url: `https://pay.crystalpay.io/?i=${id}`,
          card_posted: false,
        });
        expect(String(end.outputs?.card_problem)).toContain(
          `Kassa could not post the invoice's card: ${why}`,
        );
        expect(String(end.outputs?.card_problem)).toContain("The invoice was created");
      } finally {
        stack.slack.failChannel(channel, null);
      }
    },
  );

  it("Create invoice: an invoice that cannot be read back gets no card, says so, and stands", async () => {
    stack.fake.invoiceFault = "html502";
    try {
      const posts = stack.slack.callsOf("chat.postMessage").length;
      const { end } = await create({ amount: "75", channel_id: "C0STEPS" });
      expect(end.outcome).toBe("success");
      expect(end.outputs).toMatchObject({ invoice_id: stack.fake.created.at(-1), card_posted: false });
      expect(String(end.outputs?.card_problem)).toContain(
        "the payment service did not show the new invoice back in time",
      );
      expect(stack.slack.callsOf("chat.postMessage").length).toBe(posts);
    } finally {
      stack.fake.invoiceFault = null;
    }
  });

  it("Create invoice: without a channel no card is posted; in a Russian workspace failures read in Russian", async () => {
    const posts = stack.slack.callsOf("chat.postMessage").length;
    const quiet = await create({ amount: "99.9", currency: "USD" });
    expect(quiet.end.outcome).toBe("success");
    expect(quiet.end.outputs).toMatchObject({ currency: "RUB", card_posted: false });
    expect(quiet.end.outputs).not.toHaveProperty("card_problem");
    expect(quiet.end.outputs?.amount).not.toBe("99.9");
    expect(stack.slack.callsOf("chat.postMessage").length).toBe(posts);

    await stack.ask("language ru", { userId: ADMIN });
    const russian = await create({ amount: "abc" });
    expect(russian.end.error).toContain("Kassa не создала счёт. Сумма «abc»");
    const state = await status("715308966_PaidBitcoin");
    expect(state.end.outputs).toMatchObject({ state_label: "Оплачен", amount_text: "100,00 RUB" });
    await stack.ask("language en", { userId: ADMIN });
    await allowWorkflows("off");
    const refused = await create({ amount: "10" });
    expect(refused.end.error).toContain("workflows may not create invoices");
  });
});
