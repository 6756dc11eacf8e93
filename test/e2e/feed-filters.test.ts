import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { FEED_FIELDS } from "../../src/blocks/feed-form.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { askIn as askInChannel, feedPosts, invoiceMaker } from "../support/feed-e2e.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const ANNA = "U0ANNA";

/** An unpaid invoice the cash register made just now (after the subscriptions), expiring in an hour. */
const freshInvoice = invoiceMaker("7154", "FeedRoute");
const about = (stack: Stack, id: string, channel: string) => feedPosts(stack, channel, id);
const setState = (stack: Stack, id: string, state: string) => {
  const invoice = stack.fake.invoices.get(id);
  if (invoice) invoice.state = state;
};
const askIn = (stack: Stack, text: string, channelId: string, userId = ADMIN) =>
  askInChannel(stack, text, channelId, userId);

describe("feed routing: filters, failures, expiry and mentions (issue 32)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { FEED_INTERVAL_MS: "200" }, storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("`subscribe paid over 10000`: a 15,000 payment is posted, saying why; a 5,000 one is not", async () => {
    const reply = await askIn(stack, "subscribe paid over 10000", "C0BIG");
    expect(JSON.stringify(reply.body)).toContain(
      "This channel is now a payment feed: paid invoices from 10,000 RUB",
    );
    const small = freshInvoice(stack, { amount: "5000" });
    const big = freshInvoice(stack, { amount: "15000" });
    await stack.pass("feed", 2);
    stack.fake.pay(small);
    stack.fake.pay(big);
    await stack.slack.waitForMessages(() => about(stack, big, "C0BIG").length === 1, 5000);
    await stack.pass("feed", 2);
    expect(about(stack, big, "C0BIG")).toHaveLength(1);
    expect(about(stack, small, "C0BIG")).toHaveLength(0);
    const message = about(stack, big, "C0BIG")[0] as PostedMessage;
    expect(message.text).toBe(`Invoice ${big}: Paid · 15,000.00 RUB`);
    expect(JSON.stringify(message.blocks)).toContain(
      ":mag: This channel gets paid invoices from 10,000 RUB.",
    );
    const status = await stack.ask("status", { userId: ADMIN });
    expect(JSON.stringify(status.reply.body)).toContain("<#C0BIG>: paid invoices from 10,000 RUB");
  });

  it("`subscribe failures`: failed, wrong-amount and expired unpaid invoices, each once; no payment, and no expiry of one paid in time", async () => {
    const reply = await askIn(stack, "subscribe failures", "C0OPS");
    expect(JSON.stringify(reply.body)).toContain("failed, wrong-amount, and expired unpaid invoices");
    // 4 to 5 s ahead in the service's whole seconds: time enough to pay one before it expires,
    // however slow the machine.
    const soon = () => moscowTime(new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000));
    const failed = freshInvoice(stack);
    const wrong = freshInvoice(stack, { amount: "7000" });
    const expiring = freshInvoice(stack, { amount: "3300", expiredAt: soon() });
    const paidInTime = freshInvoice(stack, { expiredAt: soon() });
    const paid = freshInvoice(stack);
    await stack.pass("feed", 2);
    setState(stack, failed, "failed");
    setState(stack, wrong, "wrongamount");
    stack.fake.pay(paid);
    stack.fake.pay(paidInTime);
    await stack.slack.waitForMessages(
      () => [failed, wrong, expiring].every((id) => about(stack, id, "C0OPS").length === 1),
      12_000,
    );
    await stack.pass("feed", 2);
    for (const id of [failed, wrong, expiring]) expect(about(stack, id, "C0OPS"), id).toHaveLength(1);
    expect(about(stack, paid, "C0OPS")).toHaveLength(0);
    expect(about(stack, paidInTime, "C0OPS")).toHaveLength(0);
    const expired = about(stack, expiring, "C0OPS")[0] as PostedMessage;
    expectWithinBlockKitLimits({ text: expired.text, blocks: expired.blocks });
    expect(expired.text).toBe(`Invoice ${expiring}: expired unpaid · 3,300.00 RUB`);
    expect(JSON.stringify(expired.blocks)).toContain(":alarm_clock: *Expired unpaid*");
    expect(JSON.stringify(expired.blocks)).toContain("invoice_open"); // the button to its card
    expect(about(stack, failed, "C0OPS")[0]?.text).toContain(": Payment failed");
    // The paid-only feed above says nothing of failures or expiries.
    for (const id of [failed, wrong, expiring]) expect(about(stack, id, "C0BIG")).toHaveLength(0);
  });

  it("the feed form: only those who may subscribe; saved with a person and an amount, a payment above it mentions them in the text, one below does not; a description's <!channel> stays text", async () => {
    const member = await stack.ask("feed", { userId: MEMBER, channelId: "C0SALES" });
    expect(JSON.stringify(member.reply.body)).toContain("change which channels get the payment feed");

    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("feed", { userId: ADMIN, channelId: "C0SALES" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const opened = stack.slack.callsOf("views.open").at(-1)?.body.view;
    const view: Record<string, unknown> = typeof opened === "string" ? JSON.parse(opened) : {};
    expect(view.callback_id).toBe("kassa_feed_form");
    expect(JSON.stringify(view)).toContain('"value":"BITCOIN"'); // the register's methods
    const values = {
      [FEED_FIELDS.events]: { ticked: ["paid"] },
      [FEED_FIELDS.minRub]: { value: "10000" },
      [FEED_FIELDS.tests]: { selected: "include" },
      [FEED_FIELDS.people]: { users: [ANNA] },
      [FEED_FIELDS.when]: { ticked: ["payments"] },
      [FEED_FIELDS.mentionMin]: { value: "50000" },
    };
    const refused = await stack.submitView({ view, values, userId: MEMBER });
    expect(JSON.stringify(refused.json)).toContain(
      "Only workspace admins and owners can change payment feeds",
    );
    const bad = await stack.submitView({
      view,
      values: { ...values, [FEED_FIELDS.minRub]: { value: "ten" } },
    });
    expect(bad.json).toMatchObject({ response_action: "errors" });
    const saved = await stack.submitView({ view, values });
    expect(saved.status).toBe(200);
    expect(saved.json).toBeNull(); // closed
    const welcome = [...stack.slack.messages.values()].find((m) => m.channel === "C0SALES");
    expect(welcome?.text).toContain(
      `gets paid invoices from 10,000 RUB, mentions <@${ANNA}> from 50,000 RUB, one message each`,
    );

    const above = freshInvoice(stack, {
      amount: "60000",
      description: "Big order <!channel> <@U0BOSS> & co",
    });
    const below = freshInvoice(stack, { amount: "20000" });
    const tiny = freshInvoice(stack, { amount: "5000" });
    await stack.pass("feed", 2);
    for (const id of [above, below, tiny]) stack.fake.pay(id);
    await stack.slack.waitForMessages(
      () => about(stack, above, "C0SALES").length === 1 && about(stack, below, "C0SALES").length === 1,
      5000,
    );
    await stack.pass("feed", 2);
    expect(about(stack, tiny, "C0SALES")).toHaveLength(0);
    const loud = about(stack, above, "C0SALES")[0] as PostedMessage;
    expectWithinBlockKitLimits({ text: loud.text, blocks: loud.blocks });
    expect(loud.text).toBe(`Invoice ${above}: Paid · 60,000.00 RUB · <@${ANNA}>`);
    const blocks = JSON.stringify(loud.blocks);
    expect(blocks).toContain("Big order &lt;!channel&gt; &lt;@U0BOSS&gt; &amp; co");
    expect(blocks).not.toContain("<!channel>");
    expect(blocks).not.toContain("<@U0BOSS>");
    expect(blocks).toContain(`<@${ANNA}>: a payment of at least 50,000 RUB.`);
    const quiet = about(stack, below, "C0SALES")[0] as PostedMessage;
    expect(quiet.text).toBe(`Invoice ${below}: Paid · 20,000.00 RUB`);
    expect(JSON.stringify(quiet.blocks)).not.toContain(ANNA);

    const status = await stack.ask("status", { userId: ADMIN });
    const said = JSON.stringify(status.reply.body);
    expect(said).toContain(`<#C0SALES>: paid invoices from 10,000 RUB, mentions <@${ANNA}> from 50,000 RUB`);
    expect(said).toContain("kassa_feed_settings");
  });

  it("Settings on the welcome message opens the form again; App Home lists each feed in words", async () => {
    const welcome = [...stack.slack.messages.values()].find((m) => m.channel === "C0SALES");
    const settings = (welcome?.blocks ?? [])
      .flatMap((block) => ("elements" in block && Array.isArray(block.elements) ? block.elements : []))
      .find((element) => element?.action_id === "kassa_feed_settings");
    expect(settings).toBeDefined();
    const before = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_feed_settings", String(settings?.value), {
      userId: ADMIN,
      channelId: "C0SALES",
    });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    expect(JSON.stringify(stack.slack.callsOf("views.open").at(-1)?.body.view)).toContain(ANNA);

    await stack.event({ type: "app_home_opened", user: ADMIN, channel: "D0HOME", tab: "home" });
    await expect.poll(() => stack.slack.callsOf("views.publish").length).toBeGreaterThan(0);
    const home = JSON.stringify(stack.slack.callsOf("views.publish").at(-1)?.body.view);
    expect(home).toContain("<#C0OPS>: failed, wrong-amount, and expired unpaid invoices");
    expect(home).toContain(`<#C0SALES>: paid invoices from 10,000 RUB, mentions <@${ANNA}> from 50,000 RUB`);

    // The same Settings on App Home (no response_url there): the form for an admin; for someone who
    // may not change feeds, the tab is published again and nothing opens.
    const opened = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_feed_settings", String(settings?.value), { userId: ADMIN, onHome: true });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
    const publishedFor = (user: string) =>
      stack.slack.callsOf("views.publish").filter((call) => call.body.user_id === user).length;
    const annaBefore = publishedFor(ANNA);
    await stack.action("kassa_feed_settings", String(settings?.value), { userId: ANNA, onHome: true });
    await expect.poll(() => publishedFor(ANNA)).toBe(annaBefore + 1);
    expect(stack.slack.callsOf("views.open").length).toBe(opened + 1);
  });

  it("a filter change never replays old invoices, and an owed message the new filter refuses is never posted", async () => {
    await askIn(stack, "subscribe", "C0SWITCH");
    const failedBefore = freshInvoice(stack);
    await stack.pass("feed", 2);
    setState(stack, failedBefore, "failed");
    await stack.pass("feed", 2); // seen under `paid`: not news there
    await askIn(stack, "subscribe failures", "C0SWITCH");
    const failedAfter = freshInvoice(stack);
    await stack.pass("feed", 2);
    setState(stack, failedAfter, "failed");
    await stack.slack.waitForMessages(() => about(stack, failedAfter, "C0SWITCH").length === 1, 5000);
    expect(about(stack, failedBefore, "C0SWITCH")).toHaveLength(0);

    // A payment owed while Slack refuses the channel's messages; then the feed changes to failures only.
    await askIn(stack, "subscribe paid", "C0SWITCH");
    stack.slack.troubleChannel("C0SWITCH", { mode: "500", methods: ["chat.postMessage"], times: 3 });
    const owed = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(owed);
    await expect
      .poll(() => stack.logEntries().some((e) => e.outcome === "feed_post_failed" && e.invoice === owed), {
        timeout: 5000,
      })
      .toBe(true);
    await askIn(stack, "subscribe failures", "C0SWITCH");
    await expect
      .poll(
        () =>
          stack
            .logEntries()
            .some((e) => e.outcome === "feed_skipped" && e.invoice === owed && e.reason === "filter"),
        { timeout: 5000 },
      )
      .toBe(true);
    await stack.pass("feed", 2);
    expect(about(stack, owed, "C0SWITCH")).toHaveLength(0);
    expect(about(stack, failedBefore, "C0SWITCH")).toHaveLength(0);
  });

  it("takes the words in Russian, and says the feed in Russian", async () => {
    await stack.ask("language ru", { userId: ADMIN });
    const reply = await askIn(stack, "subscribe сбои от 1 000", "C0RU");
    expect(JSON.stringify(reply.body)).toContain(
      "неоплаченные из-за ошибки, оплаченные на неверную сумму и истёкшие неоплаченные счета от 1\u00a0000 RUB",
    );
    const usage = await stack.ask("subscribe всякое", { userId: ADMIN, channelId: "C0RU" });
    expect(JSON.stringify(usage.reply.body)).toContain("принимает, что публиковать");
    await stack.ask("language en", { userId: ADMIN });
  });
});
