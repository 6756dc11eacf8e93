import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, type SampleInvoice } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { stackInItsOwnProcess } from "../support/app-process.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { askIn as askInChannel, feedPosts, invoiceMaker } from "../support/feed-e2e.js";
import { clockReading } from "../support/manual-clock.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const FEED = "C0PAYMENTS";

/** An invoice the cash register made just now (after the subscription), not paid yet. */
const makeInvoice = invoiceMaker("7153", "FeedFresh");
let made = 0;
const freshInvoice = (stack: Stack, overrides: Partial<SampleInvoice> = {}) => {
  made += 1;
  return makeInvoice(stack, { description: `Order <#${made}> & co`, ...overrides });
};
const feedMessages = (stack: Stack, channel = FEED): PostedMessage[] => feedPosts(stack, channel);
const about = (stack: Stack, id: string, channel = FEED) => feedPosts(stack, channel, id);
const askIn = (stack: Stack, text: string, channelId: string, userId = ADMIN) =>
  askInChannel(stack, text, channelId, userId);

describe("the payment feed", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { FEED_INTERVAL_MS: "200", WATCH_INTERVAL_MS: "200", PAYMENTS_RATE_PER_SECOND: "0" },
      storeMemoMs: 0,
    });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("is for those who may connect the cash register: others are told who can", async () => {
    const { reply } = await stack.ask("subscribe", { userId: MEMBER, channelId: "C0MEMBERS" });
    expect(JSON.stringify(reply.body)).toContain(
      "Only workspace admins and owners can change which channels get the payment feed",
    );
    const status = await stack.ask("status", { userId: MEMBER });
    expect(JSON.stringify(status.reply.body)).toContain("Payment feed: none");
  });

  it("subscribes a channel: says so there, and invoices paid before are never posted", async () => {
    stack.fake.pay("715308958_rPwTzvsvCm"); // paid before anyone subscribed
    const reply = await askIn(stack, "subscribe", FEED);
    expect(JSON.stringify(reply.body)).toContain("This channel is now a payment feed");
    const welcome = [...stack.slack.messages.values()].find((m) => m.channel === FEED);
    expect(welcome?.text).toContain("<@U0ADMIN> made this channel Kassa's payment feed");
    await stack.pass("feed", 2); // a few passes
    expect(feedMessages(stack)).toHaveLength(0);
    const status = await stack.ask("status", { userId: ADMIN });
    expect(JSON.stringify(status.reply.body)).toContain(`<#${FEED}>: paid invoices`);
  });

  it("posts each payment once, with its amount and currency, the description escaped and a full-card button", async () => {
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 5000);
    await stack.pass("feed", 2);
    expect(about(stack, id)).toHaveLength(1);
    const message = about(stack, id)[0] as PostedMessage;
    expectWithinBlockKitLimits({ text: message.text, blocks: message.blocks });
    const json = JSON.stringify(message.blocks);
    expect(json).toContain(":white_check_mark: *Paid* · Invoice");
    expect(json).toContain("*Invoice amount*\\n2,500.00 RUB");
    expect(json).toContain("Order &lt;#");
    expect(json).not.toContain("<#1>");
    expect(message.text).toBe(`Invoice ${id}: Paid · 2,500.00 RUB`);

    const button = (
      message.blocks.find((block) => block.type === "actions") as { elements: Array<{ value: string }> }
    ).elements[0];
    const opened = await stack.press("invoice_open", button?.value ?? "", {
      channelId: FEED,
      userId: MEMBER,
    });
    expect(opened.reply.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(JSON.stringify(opened.reply.body)).toContain(`Invoice ${id}`);
  });

  it("posts a payment deep in the history, with sixty newer invoices above it and nothing new there", async () => {
    // Made two minutes ago, its page open an hour more; then sixty more, unpaid: it is on page 2.
    const deep = freshInvoice(stack, { createdAt: moscowTime(new Date(Date.now() - 120_000)) });
    const since = Date.now();
    const newer = Array.from({ length: 60 }, () => freshInvoice(stack));
    // Noted unpaid first: two reads of page 2 begun since (the first one's answer was taken in by
    // the time the next begins), not a guess at how long that takes.
    await expect
      .poll(
        () =>
          stack.fake.requests.filter(
            (request) =>
              request.at >= since && request.path.includes("history") && Number(request.body?.page) >= 2,
          ).length,
      )
      .toBeGreaterThanOrEqual(2);
    stack.fake.pay(deep);
    await stack.slack.waitForMessages(() => about(stack, deep).length === 1, 5000);
    await stack.pass("feed", 2);
    expect(about(stack, deep)).toHaveLength(1);
    expect(newer.some((id) => about(stack, id).length > 0)).toBe(false);
  });

  it("leaves an invoice with a live card in the feed's channel to the card: its thread tells the payment, once", async () => {
    const id = freshInvoice(stack);
    const { reply } = await stack.ask(id, { channelId: FEED, userId: MEMBER });
    const card = stack.slack.messages.get(`${FEED}:${String(reply.body.ts)}`);
    expect(card?.text).toContain(id);
    await stack.pass("feed", 2);
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => stack.slack.threadOf(FEED, card?.ts ?? "").length === 1, 5000);
    await stack.pass("feed", 2);
    expect(about(stack, id).filter((m) => m.ts !== card?.ts)).toHaveLength(0);
    expect(
      stack.logEntries().some((entry) => entry.outcome === "feed_left_to_card" && entry.invoice === id),
    ).toBe(true);
  });

  it("marks a test payment as such", async () => {
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(id);
    const invoice = stack.fake.invoices.get(id);
    if (invoice) invoice.method = "TEST";
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 5000);
    expect(JSON.stringify(about(stack, id)[0]?.blocks)).toContain("_Test payment_");
  });

  it("posts a payment made while Kassa was down once, after it starts", async () => {
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    await stack.stopApp();
    stack.fake.pay(id);
    await stack.startAgain();
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 5000);
    await stack.pass("feed", 2);
    expect(about(stack, id)).toHaveLength(1);
  });

  it("keeps a payment owed through Slack's 500s and posts it once when Slack is back", async () => {
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.slack.troubleChannel(FEED, { mode: "500", methods: ["chat.postMessage"], times: 3 });
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 8000);
    await stack.pass("feed", 2);
    expect(about(stack, id)).toHaveLength(1);
  });

  it("pauses with one note to the subscriber when the history cannot be read, and carries on without repeats", async () => {
    const dms = () => [...stack.slack.messages.values()].filter((m) => m.channel === ADMIN);
    const before = dms().length;
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.historyFault = "html502";
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => dms().length === before + 1, 5000);
    await stack.pass("feed", 2);
    expect(dms()).toHaveLength(before + 1);
    expect(dms().at(-1)?.text).toContain(`feed in <#${FEED}> is paused`);
    const status = await stack.ask("status", { userId: ADMIN });
    expect(JSON.stringify(status.reply.body)).toContain("*paused*");
    stack.fake.historyFault = null;
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 5000);
    // Said back once the history has read well a few times in a row (FEED_INTERVAL_MS apart).
    await stack.slack.waitForMessages(() => dms().length === before + 2, 5000);
    expect(dms().at(-1)?.text).toContain("running again");
    await stack.pass("feed", 2);
    expect(about(stack, id)).toHaveLength(1);
    expect(dms()).toHaveLength(before + 2);
  });

  it("stops when Kassa is no longer in the channel, says so once, and resumes on subscribe", async () => {
    const dms = () => [...stack.slack.messages.values()].filter((m) => m.channel === ADMIN);
    const before = dms().length;
    const id = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.slack.failChannel(FEED, "not_in_channel");
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => dms().length === before + 1, 5000);
    expect(dms().at(-1)?.text).toContain("has stopped: Kassa is no longer in that channel");
    await stack.pass("feed", 2);
    expect(dms()).toHaveLength(before + 1);
    stack.slack.failChannel(FEED, null);
    const reply = await askIn(stack, "subscribe", FEED);
    expect(JSON.stringify(reply.body)).toContain("running again");
    const later = freshInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(later);
    await stack.slack.waitForMessages(() => about(stack, later).length === 1, 5000);
  });

  it("`all` also posts new invoices; unsubscribe stops the feed", async () => {
    const reply = await askIn(stack, "subscribe all", "C0EVERYTHING");
    expect(JSON.stringify(reply.body)).toContain("This channel is now a payment feed");
    await stack.pass("feed", 2);
    const id = freshInvoice(stack);
    await stack.slack.waitForMessages(() => about(stack, id, "C0EVERYTHING").length === 1, 5000);
    expect(about(stack, id, "C0EVERYTHING")[0]?.text).toContain("new invoice");
    expect(about(stack, id)).toHaveLength(0); // the paid-only feed says nothing of it

    const gone = await stack.ask("unsubscribe", { userId: ADMIN, channelId: "C0EVERYTHING" });
    expect(JSON.stringify(gone.reply.body)).toContain("no longer gets the payment feed");
    const after = freshInvoice(stack);
    await stack.pass("feed", 2);
    expect(about(stack, after, "C0EVERYTHING")).toHaveLength(0);
    const none = await stack.ask("unsubscribe", { userId: ADMIN, channelId: "C0EVERYTHING" });
    expect(JSON.stringify(none.reply.body)).toContain("this channel is not a payment feed");
  });

  it("answers a bad mode with how to write it", async () => {
    const { reply } = await stack.ask("subscribe everything", { userId: ADMIN, channelId: FEED });
    expect(JSON.stringify(reply.body)).toContain("takes what to post, `paid` (the default), `failures`");
  });
});

describe("the payment feed with API v3 (report/invoice/history)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3", env: { FEED_INTERVAL_MS: "200" }, storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("posts a payment once, its amount in the invoice currency", async () => {
    await askIn(stack, "subscribe", FEED);
    const id = freshInvoice(stack, { currency: "USD", amount: "100" });
    await stack.pass("feed", 2);
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => about(stack, id).length === 1, 5000);
    expect(JSON.stringify(about(stack, id)[0]?.blocks)).toContain("*Invoice amount*\\n100.00 USD");
    await stack.pass("feed", 2);
    expect(about(stack, id)).toHaveLength(1);
    expect(stack.fake.requests.some((request) => request.path === "/v3/report/invoice/history/")).toBe(true);
  });
});

describe("the daily summary in a feed channel (/invoice digest)", () => {
  let stack: Stack;
  let offsetMs = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { FEED_INTERVAL_MS: "200" },
      storeMemoMs: 0,
      clock: clockReading(() => new Date(Date.now() + offsetMs)),
    });
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("is set by an admin in a feed channel, then posted once a day at its time, in the asker's timezone", async () => {
    const notFeed = await stack.ask("digest 09:00", { userId: ADMIN, channelId: "C0NOFEED" });
    expect(JSON.stringify(notFeed.reply.body)).toContain("Type `/invoice subscribe` here first");
    const member = await stack.ask("digest 09:00", { userId: MEMBER, channelId: FEED });
    expect(JSON.stringify(member.reply.body)).toContain(
      "Only workspace admins and owners can set the daily summary",
    );

    await askIn(stack, "subscribe", FEED);
    // The start of a minute 90 to 150 s from now, Moscow time: never reached while the test sets it
    // up, however slow the machine; the app's clock is then moved just past it.
    const target = Math.ceil((Date.now() + 90_000) / 60_000) * 60_000;
    const inAMinute = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Moscow",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(target));
    const set = await stack.ask(`digest ${inAMinute}`, { userId: ADMIN, channelId: FEED });
    expect(JSON.stringify(set.reply.body)).toContain(
      `Each day at ${inAMinute} (Europe/Moscow) this channel gets yesterday's summary`,
    );
    const status = await stack.ask("status", { userId: ADMIN });
    expect(JSON.stringify(status.reply.body)).toContain(
      `yesterday's summary daily at ${inAMinute} Europe/Moscow`,
    );

    const digests = () =>
      [...stack.slack.messages.values()].filter(
        (m) => m.channel === FEED && m.text.startsWith("Invoices yesterday"),
      );
    await stack.pass("feed", 2);
    expect(digests()).toHaveLength(0); // not yet its time
    offsetMs = target - Date.now() + 1000;
    await stack.slack.waitForMessages(() => digests().length === 1, 5000);
    await stack.pass("feed", 2);
    expect(digests()).toHaveLength(1); // once that day
    expect(JSON.stringify(digests()[0]?.blocks)).toContain("`/invoice digest off` here stops it");

    const off = await stack.ask("digest off", { userId: ADMIN, channelId: FEED });
    expect(JSON.stringify(off.reply.body)).toContain("The daily summary in this channel is off");
  });
});

describe("the feed and kill -9", () => {
  let stack: Stack | undefined;
  let child: ChildProcess | undefined;
  let next: RunningServer | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await next?.stop();
    await stack?.stop();
  });

  it("a process killed while Slack holds the feed message leaves it owed; the next process posts it, once", async () => {
    // `npm start`'s own entry point, in a process of its own, so it can be stopped or killed outright.
    const started = await stackInItsOwnProcess({ FEED_INTERVAL_MS: "200", SLACK_TIMEOUT_MS: "60000" });
    const running = started.stack;
    child = started.child;
    stack = running;
    running.slack.users[ADMIN] = { is_admin: true };
    await askIn(running, "subscribe", FEED);
    const id = freshInvoice(running);
    // The process runs elsewhere, so no pass can be asked of it: seen unpaid once its history is read.
    const madeAt = Date.now();
    const readSince = () =>
      running.fake.requests.filter((request) => request.at > madeAt && request.path.includes("history"))
        .length;
    await expect.poll(readSince).toBeGreaterThan(0);
    running.slack.troubleChannel(FEED, { mode: "hang", methods: ["chat.postMessage"], times: 1 });
    running.fake.pay(id);
    const held = () =>
      running.slack
        .callsOf("chat.postMessage")
        .filter((call) => call.body.channel === FEED && String(call.body.text).includes(id)).length;
    await expect.poll(held, { timeout: 10_000 }).toBe(1);
    child?.kill("SIGKILL");
    await new Promise((resolve) => child?.on("exit", resolve));
    expect(about(running, id)).toHaveLength(0);

    // Once the dead process's claim on the workspace has run out (10 s at most after its last
    // renewal): the next process's clock is past it, so the test does not wait it out.
    next = await startServer(running.env, {
      logDestination: { write: () => {} },
      storeMemoMs: 0,
      clock: clockReading(() => new Date(Date.now() + 11_000)),
    });
    await running.slack.waitForMessages(() => about(running, id).length === 1, 15_000);
    await next.passes.feed();
    await next.passes.feed();
    expect(about(running, id)).toHaveLength(1);
  }, 40_000);
});
