/**
 * Weekly digests per cash register, end to end through the real app: main's set in one channel,
 * shop2's in the channel bound to it (`/invoice use shop2`) and, named in the command, in a third;
 * each posted once when Monday 09:00 comes, from its own register's history (read with its own
 * login), saying which register; and each register's feed's daily summary likewise. Stored digests
 * of main stay keyed by the team id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { connectShopTwo, SHOP2 } from "../../sandbox/second-register.js";
import { Stack } from "../../sandbox/stack.js";
import { askIn } from "../support/feed-e2e.js";
import { clockReading } from "../support/manual-clock.js";

const ADMIN = "U0ADMIN";
const MAIN_REPORTS = "C0MAINREPORTS";
const SHOP2_REPORTS = "C0SHOPREPORTS";
const NAMED_REPORTS = "C0NAMEDREPORTS";

/** The next Monday after today, 08:59:00 in Moscow (UTC+3): a clock the test moves on. */
function nextMonday(): Date {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7 || 7));
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 5, 59, 0));
}

describe("weekly digests, per cash register", () => {
  let stack: Stack;
  let clock = nextMonday();
  const now = () => clock;
  const weekly = (channel: string) =>
    [...stack.slack.messages.values()].filter(
      (message) =>
        message.channel === channel && JSON.stringify(message.blocks).includes("Invoices in the week from"),
    );

  beforeAll(async () => {
    stack = await Stack.start({
      clock: clockReading(now),
      env: { DIGEST_INTERVAL_MS: "150", FEED_INTERVAL_MS: "200" },
      storeMemoMs: 0,
      fake: {
        accounts: { [SANDBOX_LOGIN]: SANDBOX_SECRET, [SHOP2.login]: SHOP2.secret },
        // Each register's own history (an invoice with no login would be every register's).
        invoices: [
          ...sampleHistory({ now: clock, days: 20, perDay: 15, seed: 9, login: SANDBOX_LOGIN }),
          ...sampleHistory({
            now: clock,
            days: 20,
            perDay: 3,
            seed: 4,
            login: SHOP2.login,
            firstId: 730_000_000,
          }),
        ],
      },
    });
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
    await connectShopTwo(stack);
    await stack.ask("use shop2", { userId: ADMIN, channelId: SHOP2_REPORTS });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const setDigest = async (text: string, channelId: string) => {
    const ack = await stack.command(text, { userId: ADMIN, channelId });
    return JSON.stringify((await stack.slack.waitForReply(ack.responseId, { count: 2 })).body);
  };

  it("is set per register: the channel's, or the one the command names; the channel is told which", async () => {
    expect(await setDigest("digest 09:00 weekly", MAIN_REPORTS)).toContain("Register: *main*");
    const shop = await setDigest("digest 09:00 weekly", SHOP2_REPORTS);
    expect(shop).toContain("Every Monday at 09:00 (Europe/Moscow)");
    expect(shop).toContain("Register: *shop2* (this channel's register)");
    expect(await setDigest("shop2 digest 09:00 weekly", NAMED_REPORTS)).toContain(
      "Register: *shop2* (named in the command)",
    );
    const note = [...stack.slack.messages.values()].find((message) => message.channel === SHOP2_REPORTS);
    expect(note?.text).toMatch(/^Register \*shop2\*: :calendar: <@U0ADMIN> set up Kassa's weekly report/);
  });

  it("posts each register's week once, from its own history, saying which register", async () => {
    await stack.pass("digests");
    expect(weekly(MAIN_REPORTS)).toHaveLength(0);
    const before = stack.fake.requests.length;
    clock = new Date(clock.getTime() + 90_000);
    await stack.slack.waitForMessages(
      () => [MAIN_REPORTS, SHOP2_REPORTS, NAMED_REPORTS].every((channel) => weekly(channel).length > 0),
      20_000,
    );
    await stack.pass("digests", 2); // more passes: still one each
    for (const channel of [MAIN_REPORTS, SHOP2_REPORTS, NAMED_REPORTS])
      expect(weekly(channel)).toHaveLength(1);

    const main = weekly(MAIN_REPORTS)[0];
    const shop = weekly(SHOP2_REPORTS)[0];
    expect(main?.text).toMatch(/^main · Invoices in the week from/);
    expect(shop?.text).toMatch(/^shop2 · Invoices in the week from/);
    expect(JSON.stringify(shop?.blocks)).toContain("Register *shop2*");
    expect(JSON.stringify(main?.blocks)).toContain("Register *main*");
    // Two registers' weeks, two different sets of figures; the two shop2 digests tell the same one.
    expect(shop?.text.replace(/^shop2 · /, "")).not.toBe(main?.text.replace(/^main · /, ""));
    expect(weekly(NAMED_REPORTS)[0]?.text).toBe(shop?.text);
    const logins = new Set(
      stack.fake.requests
        .slice(before)
        .filter((request) => request.path.endsWith("/history/payments/"))
        .map((request) => (request.body as { auth_login?: string }).auth_login),
    );
    expect(logins).toEqual(new Set([SANDBOX_LOGIN, SHOP2.login]));
    const charts = await stack.slack.files.waitFor(3, 20_000);
    expect(charts.filter((file) => file.channel === SHOP2_REPORTS).map((file) => file.title)).toEqual([
      expect.stringMatching(/shop2 · Invoices in the week from/),
    ]);
  });

  it("`off` stops only the channel's register's digest", async () => {
    const { reply } = await stack.ask("digest off weekly", { userId: ADMIN, channelId: SHOP2_REPORTS });
    expect(JSON.stringify(reply.body)).toContain("The weekly report in this channel is off.");
    const main = await stack.ask("shop2 digest off weekly", { userId: ADMIN, channelId: MAIN_REPORTS });
    expect(JSON.stringify(main.reply.body)).toContain("This channel has no weekly report; nothing changed.");
    const still = await stack.ask("main digest off weekly", { userId: ADMIN, channelId: MAIN_REPORTS });
    expect(JSON.stringify(still.reply.body)).toContain("The weekly report in this channel is off.");
  });

  it("each register's feed has its own daily summary, counted from its own history, saying which register", async () => {
    const daily = (channel: string) =>
      [...stack.slack.messages.values()].filter(
        (message) => message.channel === channel && message.text.includes("Invoices yesterday"),
      );
    for (const [words, channel] of [
      ["subscribe", MAIN_REPORTS],
      ["subscribe", SHOP2_REPORTS],
    ] as const)
      expect(JSON.stringify((await askIn(stack, words, channel, ADMIN)).body)).toContain("payment feed");
    // Kassa's clock stands at Monday 09:00:30 Moscow (moved on above): the summaries are due at 09:30.
    expect(
      JSON.stringify(
        (await stack.ask("digest 09:30", { userId: ADMIN, channelId: MAIN_REPORTS })).reply.body,
      ),
    ).toContain("Register: *main*");
    const shopSet = await stack.ask("digest 09:30", { userId: ADMIN, channelId: SHOP2_REPORTS });
    expect(JSON.stringify(shopSet.reply.body)).toContain("Register: *shop2* (this channel's register)");
    await stack.pass("feed");
    expect(daily(MAIN_REPORTS)).toHaveLength(0);
    const before = stack.fake.requests.length;
    clock = new Date(clock.getTime() + 31 * 60_000);
    await stack.slack.waitForMessages(
      () => daily(MAIN_REPORTS).length > 0 && daily(SHOP2_REPORTS).length > 0,
      10_000,
    );
    await stack.pass("feed", 2);
    expect(daily(MAIN_REPORTS)).toHaveLength(1);
    expect(daily(SHOP2_REPORTS)).toHaveLength(1);
    const main = daily(MAIN_REPORTS)[0];
    const shop = daily(SHOP2_REPORTS)[0];
    expect(main?.text).toMatch(/^main · Invoices yesterday/);
    expect(shop?.text).toMatch(/^shop2 · Invoices yesterday/);
    expect(JSON.stringify(shop?.blocks)).toContain("Register *shop2*");
    expect(shop?.text.replace(/^shop2 · /, "")).not.toBe(main?.text.replace(/^main · /, ""));
    const logins = new Set(
      stack.fake.requests
        .slice(before)
        .filter((request) => request.path.endsWith("/history/payments/"))
        .map((request) => (request.body as { auth_login?: string }).auth_login),
    );
    expect(logins).toEqual(new Set([SANDBOX_LOGIN, SHOP2.login]));
  });
});
