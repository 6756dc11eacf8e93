/**
 * The payment feed per cash register, end to end through the real app: two registers, two channels
 * each bound to one (`/invoice use`), each made a feed there; a payment of each register is posted
 * only in its own feed (read with its own login), the Settings button and the form keep to the
 * feed's register, `/invoice status` lists both feeds by register, one register's failing key never
 * holds up the other's feed, and `unsubscribe` stops only the channel's register's feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN } from "../../sandbox/fake-payments.js";
import { connectShopTwo, SHOP2, twoRegisterService } from "../../sandbox/second-register.js";
import { type PostedMessage, SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { FEED_FIELDS } from "../../src/blocks/feed-form.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { askIn, invoiceMaker } from "../support/feed-e2e.js";

const ADMIN = "U0ADMIN";
const MAIN_FEED = "C0MAINFEED";
const SHOP2_FEED = "C0SHOPFEED";
const text = (body: unknown) => JSON.stringify(body);

// Each register's own invoices: an invoice with no login would be every register's in the sandbox.
const mainInvoice = invoiceMaker("7161", "RegFeedMain", { login: SANDBOX_LOGIN });
const shopInvoice = invoiceMaker("7162", "RegFeedShop", { login: SHOP2.login, amount: "4200.50" });

/** The feed's posts about `id` in `channel` (not its welcome, not a thread). */
const postsOf = (stack: Stack, channel: string, id: string): PostedMessage[] =>
  [...stack.slack.messages.values()].filter(
    (m) => m.channel === channel && !m.threadTs && m.text.includes(`Invoice ${id}`),
  );
const historyLogins = (stack: Stack, from: number) =>
  new Set(
    stack.fake.requests
      .slice(from)
      .filter((request) => request.path.endsWith("/history/payments/"))
      .map((request) => (request.body as { auth_login?: string }).auth_login),
  );
const setShopTwoSecret = (stack: Stack, secret: string) => connectShopTwo(stack, secret);

describe("the payment feed, per cash register", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { FEED_INTERVAL_MS: "200", WATCH_INTERVAL_MS: "200" },
      // The CLI changes registers while the app runs: no memo of credentials or directories.
      storeMemoMs: 0,
      fake: twoRegisterService([]),
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    await connectShopTwo(stack);
    const bound = await stack.ask("use shop2", { userId: ADMIN, channelId: SHOP2_FEED });
    expect(text(bound.reply.body)).toContain("*shop2*");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("`/invoice subscribe` makes each channel a feed of its own register, and the channel is told which", async () => {
    const main = await askIn(stack, "subscribe", MAIN_FEED, ADMIN);
    expect(text(main.body)).toContain("This channel is now a payment feed");
    expect(text(main.body)).toContain("Register: *main*");
    const shop = await askIn(stack, "subscribe", SHOP2_FEED, ADMIN);
    expect(text(shop.body)).toContain("This channel is now a payment feed");
    expect(text(shop.body)).toContain("Register: *shop2* (this channel's register)");
    const welcome = [...stack.slack.messages.values()].find((m) => m.channel === SHOP2_FEED);
    expect(welcome?.text).toContain(
      "Register *shop2*: :incoming_envelope: <@U0ADMIN> made this channel Kassa's payment feed",
    );
    const status = await stack.ask("status", { userId: ADMIN, channelId: MAIN_FEED });
    expect(text(status.reply.body)).toContain(`<#${MAIN_FEED}> (Register *main*): paid invoices`);
    expect(text(status.reply.body)).toContain(`<#${SHOP2_FEED}> (Register *shop2*): paid invoices`);
  });

  it("posts each register's payment only in its own feed, read with its own login, naming the register", async () => {
    const fromMain = mainInvoice(stack);
    const fromShop = shopInvoice(stack);
    await stack.pass("feed", 2);
    const before = stack.fake.requests.length;
    stack.fake.pay(fromMain);
    stack.fake.pay(fromShop);
    await stack.slack.waitForMessages(
      () =>
        postsOf(stack, MAIN_FEED, fromMain).length === 1 && postsOf(stack, SHOP2_FEED, fromShop).length === 1,
      8000,
    );
    await stack.pass("feed", 2); // several more turns: still once each, and never in the other's feed
    expect(postsOf(stack, MAIN_FEED, fromMain)).toHaveLength(1);
    expect(postsOf(stack, SHOP2_FEED, fromShop)).toHaveLength(1);
    expect(postsOf(stack, SHOP2_FEED, fromMain)).toHaveLength(0);
    expect(postsOf(stack, MAIN_FEED, fromShop)).toHaveLength(0);
    expect(historyLogins(stack, before)).toEqual(new Set([SANDBOX_LOGIN, SHOP2.login]));

    const shop = postsOf(stack, SHOP2_FEED, fromShop)[0] as PostedMessage;
    expectWithinBlockKitLimits({ text: shop.text, blocks: shop.blocks });
    expect(shop.text).toBe(`shop2 · Invoice ${fromShop}: Paid · 4,200.50 RUB`);
    expect(text(shop.blocks)).toContain("*shop2* · :white_check_mark: *Paid*");
    // Its full-card button reads the invoice in shop2 (main has no such invoice).
    const button = (
      shop.blocks.find((block) => block.type === "actions") as { elements: Array<{ value: string }> }
    ).elements[0];
    expect(JSON.parse(button?.value ?? "{}")).toMatchObject({ t: SANDBOX_TEAM.id, r: "shop2" });
    const opened = await stack.press("invoice_open", button?.value ?? "", {
      channelId: SHOP2_FEED,
      userId: ADMIN,
    });
    expect(text(opened.reply.body)).toContain(`shop2 · Invoice ${fromShop}`);
    expect(postsOf(stack, MAIN_FEED, fromMain)[0]?.text).toBe(
      `main · Invoice ${fromMain}: Paid · 2,500.00 RUB`,
    );
  });

  it("the Settings button and the form keep to the feed's register", async () => {
    const welcome = [...stack.slack.messages.values()].find((m) => m.channel === SHOP2_FEED);
    const actions = welcome?.blocks.find((block) => block.type === "actions") as
      | { elements: Array<{ value: string }> }
      | undefined;
    const button = actions?.elements[0];
    expect(JSON.parse(button?.value ?? "{}")).toMatchObject({ c: SHOP2_FEED, r: "shop2" });
    const before = stack.slack.callsOf("views.open").length;
    const pressed = await stack.action("kassa_feed_settings", button?.value ?? "", {
      channelId: SHOP2_FEED,
      userId: ADMIN,
    });
    expect(pressed.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const raw = stack.slack.callsOf("views.open").at(-1)?.body.view;
    const view: Record<string, unknown> = typeof raw === "string" ? JSON.parse(raw) : {};
    expect(JSON.parse(String(view.private_metadata))).toEqual({
      t: SANDBOX_TEAM.id,
      c: SHOP2_FEED,
      r: "shop2",
    });
    expect(text(view)).toContain("Register *shop2*: ");
    const saved = await stack.submitView({
      view,
      values: {
        [FEED_FIELDS.events]: { ticked: ["paid"] },
        [FEED_FIELDS.minRub]: { value: "3000" },
        [FEED_FIELDS.tests]: { selected: "include" },
      },
      userId: ADMIN,
    });
    expect(saved.status).toBe(200);
    const status = await stack.ask("status", { userId: ADMIN, channelId: MAIN_FEED });
    expect(text(status.reply.body)).toContain(
      `<#${SHOP2_FEED}> (Register *shop2*): paid invoices from 3,000 RUB`,
    );
    expect(text(status.reply.body)).toContain(`<#${MAIN_FEED}> (Register *main*): paid invoices"`);
  });

  it("one register's failing key pauses only its own feed; the other's payments go on, and the paused one catches up", async () => {
    await setShopTwoSecret(stack, "a-wrong-secret");
    // A turn under way may still have read the right secret: counted from after it.
    await stack.pass("feed");
    const failingFrom = stack.fake.requests.length;
    const stuck = shopInvoice(stack);
    const fromMain = mainInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(stuck);
    stack.fake.pay(fromMain);
    await stack.slack.waitForMessages(() => postsOf(stack, MAIN_FEED, fromMain).length === 1, 8000);
    await stack.pass("feed", 2);
    expect(postsOf(stack, SHOP2_FEED, stuck)).toHaveLength(0);
    // shop2's feed did read meanwhile, with the wrong secret: refused each time.
    const refused = stack.fake.requests
      .slice(failingFrom)
      .filter((request) => (request.body as { auth_login?: string }).auth_login === SHOP2.login);
    expect(refused.length).toBeGreaterThan(0);
    for (const request of refused)
      expect((request.body as { auth_secret?: string }).auth_secret).toBe("a-wrong-secret");
    // Its subscriber is told once, naming the register; main's feed is not paused.
    const notes = () =>
      [...stack.slack.messages.values()].filter(
        (m) => m.channel === ADMIN && m.text.includes("payment feed in"),
      );
    expect(notes().map((m) => m.text)).toEqual([
      `Register *shop2*: :pause_button: Kassa's payment feed in <#${SHOP2_FEED}> is paused: the payment service's invoice history could not be read. Kassa keeps trying and carries on by itself once it can; nothing is posted twice.`,
    ]);
    await setShopTwoSecret(stack, SHOP2.secret);
    await stack.slack.waitForMessages(() => postsOf(stack, SHOP2_FEED, stuck).length === 1, 15_000);
    await stack.slack.waitForMessages(() => notes().length === 2, 5000);
    expect(notes()[1]?.text).toMatch(/^Register \*shop2\*: .*<#C0SHOPFEED>/);
    expect(postsOf(stack, MAIN_FEED, stuck)).toHaveLength(0);
    expect(postsOf(stack, MAIN_FEED, fromMain)).toHaveLength(1);
  });

  it("`unsubscribe` in a channel stops its register's feed only; `/invoice shop2 unsubscribe` elsewhere finds none", async () => {
    const elsewhere = await askIn(stack, "shop2 unsubscribe", MAIN_FEED, ADMIN);
    expect(text(elsewhere.body)).toContain("Nothing was changed: this channel is not a payment feed");
    expect(text(elsewhere.body)).toContain("Register: *shop2* (named in the command)");
    const removed = await askIn(stack, "unsubscribe", SHOP2_FEED, ADMIN);
    expect(text(removed.body)).toContain("Register: *shop2* (this channel's register)");
    const status = await stack.ask("status", { userId: ADMIN, channelId: MAIN_FEED });
    expect(text(status.reply.body)).not.toContain(`<#${SHOP2_FEED}> (Register`);
    expect(text(status.reply.body)).toContain(`<#${MAIN_FEED}> (Register *main*)`);
    const fromShop = shopInvoice(stack);
    const fromMain = mainInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(fromShop);
    stack.fake.pay(fromMain);
    await stack.slack.waitForMessages(() => postsOf(stack, MAIN_FEED, fromMain).length === 1, 8000);
    await stack.pass("feed", 2);
    expect(postsOf(stack, SHOP2_FEED, fromShop)).toHaveLength(0);
  });

  it("a register kept to chosen channels has its feed there only: elsewhere it is refused, and a feed made before stays quiet", async () => {
    const ELSEWHERE = "C0ELSEWHERE";
    await askIn(stack, "subscribe", SHOP2_FEED, ADMIN);
    const before = await askIn(stack, "shop2 subscribe", ELSEWHERE, ADMIN);
    expect(text(before.body)).toContain("This channel is now a payment feed");
    // The earlier tests' shop2 invoices may be made in the second of this subscription, which counts
    // as after it: let the feed post them now, not while a command waits for its reply in this channel.
    await stack.pass("feed", 2);
    // An admin keeps shop2 to its channel in its connect form.
    const kept = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id, r: "shop2" }),
      },
      values: {
        register: { value: "shop2" },
        register_channels: { conversations: [SHOP2_FEED] },
        login: { value: SHOP2.login },
        secret: { value: null },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(kept.status).toBe(200);
    const refused = await stack.ask("shop2 subscribe", { userId: ADMIN, channelId: "C0THIRD" });
    expect(text(refused.reply.body)).toContain(`The register *shop2* is used only in <#${SHOP2_FEED}>`);
    const form = await stack.ask("shop2 feed", { userId: ADMIN, channelId: ELSEWHERE });
    expect(text(form.reply.body)).toContain("is used only in");
    const welcome = [...stack.slack.messages.values()].filter((m) => m.channel === ELSEWHERE).at(0);
    const actions = welcome?.blocks.find((block) => block.type === "actions") as
      | { elements: Array<{ value: string }> }
      | undefined;
    const settings = await stack.press("kassa_feed_settings", actions?.elements[0]?.value ?? "", {
      channelId: ELSEWHERE,
      userId: ADMIN,
    });
    expect(text(settings.reply.body)).toContain("is used only in");

    const paid = shopInvoice(stack);
    await stack.pass("feed", 2);
    stack.fake.pay(paid);
    await stack.slack.waitForMessages(() => postsOf(stack, SHOP2_FEED, paid).length === 1, 8000);
    await stack.pass("feed", 2);
    expect(postsOf(stack, ELSEWHERE, paid)).toHaveLength(0);
  });
});
