import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_IDS, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import type { SlackApiCall } from "../../sandbox/slack.js";
import {
  SANDBOX_BOT_TOKEN,
  SANDBOX_CREDENTIALS_KEY,
  SANDBOX_SIGNING_SECRET,
  Stack,
} from "../../sandbox/stack.js";
import { expectUnfurlWithinBlockKitLimits } from "../support/block-kit-limits.js";

const link = (id: string) => `https://pay.crystalpay.io/?i=${id}`;
const UNPAID = "715308958_rPwTzvsvCm";
const PAID = "715308962_PaidInFull";
const UNKNOWN = "000000000_DoesNotExist";
const SAMPLE_IDS = [
  UNPAID,
  "715308959_ProcessingBtc",
  "715308960_WrongAmount",
  "715308961_FailedPay",
  PAID,
  "715308963_Unavailable",
  "715308964_ExpiredUnpaid",
];

type LogLine = Record<string, unknown>;

/** The one log line of an event, once it is written (the handler's last step). */
async function handled(stack: Stack, eventId: string): Promise<LogLine> {
  const lines = () => stack.logEntries().filter((entry) => entry.eventId === eventId);
  await expect.poll(() => lines().length, { timeout: 10_000 }).toBe(1);
  const [line] = lines();
  expect(line).toMatchObject({ event: "link_shared", msg: "event handled" });
  return line ?? {};
}

function unfurlsOf(call: SlackApiCall | undefined): Record<string, unknown> {
  const raw = call?.body.unfurls;
  return typeof raw === "string" ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

const invoiceReads = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/"));

/** Nothing reached the channel or anyone in it: no message, no ephemeral note, no response_url reply. */
function expectNothingPosted(stack: Stack): void {
  for (const method of ["chat.postMessage", "chat.postEphemeral", "chat.update"])
    expect(stack.slack.callsOf(method)).toEqual([]);
  expect(stack.slack.replies).toEqual([]);
}

describe("payment links unfurl (connected workspace)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v2", fake: { slowMs: 300 } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("unfurls each payment link into a compact card, keyed by the exact URL, with the bot token", async () => {
    const urls = [link(UNPAID), `${link(PAID)}&m=BITCOIN`];
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks(urls);
    // Bolt acknowledges at once, with an empty 200.
    expect(result.status).toBe(200);
    expect(result.body).toBe("");
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "ok",
      unfurled: 2,
      links: 2,
      user: "U0FINANCE1",
      channel: "C0FINANCE",
      invoices: [
        { id: UNPAID, outcome: "ok" },
        { id: PAID, outcome: "ok" },
      ],
    });
    expect(line.latencyMs).toEqual(expect.any(Number));
    const calls = stack.slack.callsOf("chat.unfurl").slice(before);
    expect(calls).toHaveLength(1);
    const call = calls[0];
    expect(call?.token).toBe(SANDBOX_BOT_TOKEN);
    expect(call?.body).toMatchObject({ source: "conversations_history", unfurl_id: expect.any(String) });
    const unfurls = unfurlsOf(call);
    expect(Object.keys(unfurls)).toEqual(urls);
    for (const unfurl of Object.values(unfurls)) expectUnfurlWithinBlockKitLimits(unfurl);
    const unpaid = JSON.stringify(unfurls[link(UNPAID)]);
    expect(unpaid).toContain("Not paid");
    expect(unpaid).toContain("*Amount:* 1,500.00 RUB");
    expect(unpaid).toContain("open_payment_page");
    const paid = JSON.stringify(unfurls[urls[1] ?? ""]);
    expect(paid).toContain(":white_check_mark: Paid");
    // The paid sample's description holds <!channel>; the unfurl does not show descriptions at all.
    expect(paid).not.toContain("channel");
    expectNothingPosted(stack);
  });

  it("acknowledges before reading: a slow payment service delays the unfurl, not the ack", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(FAULT_IDS.slow)]);
    expect(result.status).toBe(200);
    // Slack has its 200 while the service is still answering: nothing handled or unfurled yet.
    expect(stack.logEntries().filter((entry) => entry.eventId === result.eventId)).toEqual([]);
    expect(stack.slack.callsOf("chat.unfurl").length).toBe(before);
    expect(await handled(stack, result.eventId)).toMatchObject({ outcome: "ok", unfurled: 1 });
    expect(Object.keys(unfurlsOf(stack.slack.callsOf("chat.unfurl")[before]))).toEqual([
      link(FAULT_IDS.slow),
    ]);
  });

  it("unfurls a message still in the composer by its unfurl id", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(UNPAID)], { source: "composer" });
    await handled(stack, result.eventId);
    const call = stack.slack.callsOf("chat.unfurl")[before];
    expect(call?.body).toMatchObject({ source: "composer", unfurl_id: expect.stringMatching(/^U_/) });
    expect(call?.body.channel).toBeUndefined();
  });

  it("unfurls by channel and message ts when the event has no unfurl id", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.event({
      type: "link_shared",
      channel: "C0FINANCE",
      is_bot_user_member: true,
      user: "U0FINANCE1",
      message_ts: "1700000000.000200",
      links: [{ domain: "pay.crystalpay.io", url: link(UNPAID) }],
      event_ts: "1700000000.000200",
    });
    await handled(stack, result.eventId);
    const call = stack.slack.callsOf("chat.unfurl")[before];
    expect(call?.body).toMatchObject({ channel: "C0FINANCE", ts: "1700000000.000200" });
    expect(Object.keys(unfurlsOf(call))).toEqual([link(UNPAID)]);
  });

  it("handles a link_shared event Slack delivers again (a missed ack) once", async () => {
    const reads = invoiceReads(stack).length;
    const before = stack.slack.callsOf("chat.unfurl").length;
    const event = {
      type: "link_shared",
      channel: "C0FINANCE",
      is_bot_user_member: true,
      user: "U0FINANCE1",
      message_ts: "1700000000.000300",
      unfurl_id: "U_RETRIED",
      source: "conversations_history",
      links: [{ domain: "pay.crystalpay.io", url: link(PAID) }],
      event_ts: "1700000000.000300",
    };
    const first = await stack.event(event);
    await handled(stack, first.eventId);
    const again = await stack.event(event, { eventId: first.eventId, retryNum: 1 });
    expect(again.status).toBe(200);
    // A later, different event is handled: once it is, the retry has had its chance too.
    const next = await stack.shareLinks([link(UNKNOWN)]);
    await handled(stack, next.eventId);
    expect(stack.logEntries().filter((entry) => entry.eventId === first.eventId)).toHaveLength(1);
    expect(stack.slack.callsOf("chat.unfurl").length - before).toBe(1);
    expect(invoiceReads(stack).length - reads).toBe(2);
  });

  it("reads and unfurls only the first 5 payment links of a message", async () => {
    const urls = SAMPLE_IDS.map(link);
    const reads = invoiceReads(stack).length;
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks(urls);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({ outcome: "ok", links: 7, unfurled: 5 });
    expect(invoiceReads(stack).length - reads).toBe(5);
    expect(Object.keys(unfurlsOf(stack.slack.callsOf("chat.unfurl")[before]))).toEqual(urls.slice(0, 5));
  });

  it("ignores links that are not payment links, and reads nothing for them", async () => {
    const reads = invoiceReads(stack).length;
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([
      "https://pay.crystalpay.io/",
      "https://pay.crystalpay.io/faq?i=715308958_rPwTzvsvCm",
      "https://pay.crystalpay.io/?i=%3C!channel%3E",
      `https://pay.crystalpay.io/?i=${UNPAID}&redirect=https://evil.example`,
    ]);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({ outcome: "no_payment_links", links: 4 });
    expect(invoiceReads(stack).length).toBe(reads);
    expect(stack.slack.callsOf("chat.unfurl").length).toBe(before);
  });

  it("an event without the fields it needs: nothing read, a warning naming what is missing", async () => {
    const reads = invoiceReads(stack).length;
    const result = await stack.event({ type: "link_shared", channel: "C0FINANCE", user: "U0FINANCE1" });
    expect(result.status).toBe(200);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({ outcome: "bad_event", level: "warn" });
    expect(String(line.problem)).toContain("links");
    expect(invoiceReads(stack).length).toBe(reads);
  });

  it("an unknown invoice: no unfurl, no message, a log line saying so", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(UNKNOWN)]);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "invoice_not_found",
      invoices: [{ id: UNKNOWN, outcome: "invoice_not_found" }],
    });
    expect(line.level).toBe("info");
    expect(stack.slack.callsOf("chat.unfurl").length).toBe(before);
    expectNothingPosted(stack);
  });

  it("a service failure: no unfurl, no message, a warning with the upstream status", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(FAULT_IDS.html502)]);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "upstream_unreachable",
      invoices: [{ id: FAULT_IDS.html502, outcome: "upstream_unreachable", upstreamStatus: 502 }],
    });
    expect(line.level).toBe("warn");
    expect(stack.slack.callsOf("chat.unfurl").length).toBe(before);
    expectNothingPosted(stack);
  });

  it("an answer the app cannot read: no unfurl, an error line with the cause for the operator", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(FAULT_IDS.brokenJson)]);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "upstream_unexpected",
      invoices: [{ id: FAULT_IDS.brokenJson, outcome: "upstream_unexpected", reference: expect.any(String) }],
      err: expect.objectContaining({ type: "UnexpectedResponseError" }),
    });
    expect(line.level).toBe("error");
    expect(stack.slack.callsOf("chat.unfurl").length).toBe(before);
  });

  it("unfurls the links it could read and leaves the others as plain links", async () => {
    const before = stack.slack.callsOf("chat.unfurl").length;
    const result = await stack.shareLinks([link(UNKNOWN), link(UNPAID)]);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "partial",
      unfurled: 1,
      invoices: [
        { id: UNKNOWN, outcome: "invoice_not_found" },
        { id: UNPAID, outcome: "ok" },
      ],
    });
    expect(Object.keys(unfurlsOf(stack.slack.callsOf("chat.unfurl")[before]))).toEqual([link(UNPAID)]);
  });

  it("when Slack refuses the unfurl (e.g. a scope not granted yet), logs Slack's reason and posts nothing", async () => {
    stack.slack.failApi("chat.unfurl", "missing_scope");
    try {
      const result = await stack.shareLinks([link(UNPAID)]);
      const line = await handled(stack, result.eventId);
      expect(line).toMatchObject({ outcome: "unfurl_failed", slackError: "missing_scope", unfurled: 0 });
      expect(line.level).toBe("warn");
    } finally {
      stack.slack.failApi("chat.unfurl", null);
    }
    expectNothingPosted(stack);
  });

  it("writes one line per event, and never a secret or token", () => {
    const events = stack.logEntries().filter((entry) => entry.event === "link_shared");
    expect(new Set(events.map((entry) => entry.eventId)).size).toBe(events.length);
    expect(events.length).toBeGreaterThan(5);
    const everything = stack.logs.join("\n");
    for (const secret of [SANDBOX_SECRET, SANDBOX_SIGNING_SECRET, SANDBOX_BOT_TOKEN, SANDBOX_CREDENTIALS_KEY])
      expect(everything).not.toContain(secret);
  });
});

describe("payment links in a workspace that is not connected", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ connect: false });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("no read, no unfurl, no message in the channel: one log line", async () => {
    const result = await stack.shareLinks([link(UNPAID), link(PAID)]);
    expect(result.status).toBe(200);
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({ outcome: "not_connected", unfurled: 0 });
    expect(stack.fake.requests).toEqual([]);
    expect(stack.slack.callsOf("chat.unfurl")).toEqual([]);
    expectNothingPosted(stack);
  });
});

describe("payment links and the rate limits", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { RATE_LIMIT_USER_PER_MIN: "2", RATE_LIMIT_TEAM_PER_MIN: "0" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("count each read like a command: past the limit nothing more is read, and commands are limited too", async () => {
    const urls = SAMPLE_IDS.slice(0, 3).map(link);
    const result = await stack.shareLinks(urls, { userId: "U0PASTER" });
    const line = await handled(stack, result.eventId);
    expect(line).toMatchObject({
      outcome: "partial",
      unfurled: 2,
      invoices: [
        { id: SAMPLE_IDS[0], outcome: "ok" },
        { id: SAMPLE_IDS[1], outcome: "ok" },
        { id: SAMPLE_IDS[2], outcome: "rate_limited" },
      ],
    });
    expect(invoiceReads(stack)).toHaveLength(2);
    expect(Object.keys(unfurlsOf(stack.slack.callsOf("chat.unfurl")[0]))).toEqual(urls.slice(0, 2));
    expect(stack.slack.replies).toEqual([]);

    const { reply } = await stack.ask(UNPAID, { userId: "U0PASTER" });
    expect(JSON.stringify(reply.body)).toMatch(/slow down/i);
    const later = await stack.shareLinks([link(UNPAID)], { userId: "U0PASTER" });
    expect(await handled(stack, later.eventId)).toMatchObject({ outcome: "rate_limited", unfurled: 0 });
    expect(stack.slack.callsOf("chat.unfurl")).toHaveLength(1);
  });
});
