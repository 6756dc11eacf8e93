/**
 * Several cash registers in one workspace, end to end through the real app: each channel reads its
 * own register (an admin's `/invoice use`), a command may name another, an invoice of either is found
 * from any channel, replies say which register, and one register's failing key never holds up the
 * other. Stores of releases before registers keep working untouched (every other e2e test is one).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET, sampleInvoices } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const SHOP2_LOGIN = "shop2_register";
const SHOP2_SECRET = "shop2-secret-91c2e0";
const SHOP2_INVOICE = "902211334_ShopTwoInv";
const MAIN_CHANNEL = "C0MAINSHOP";
const SHOP2_CHANNEL = "C0SHOPTWO";

const text = (body: unknown) => JSON.stringify(body);
const moscow = (minutes: number) =>
  new Date(Date.now() + 3 * 3600_000 + minutes * 60_000).toISOString().slice(0, 19).replace("T", " ");
const loginsAsked = (stack: Stack, path: RegExp) =>
  stack.fake.requests
    .filter((request) => path.test(request.path))
    .map((request) => (request.body as { auth_login?: string }).auth_login);

describe("several cash registers in one workspace", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { BALANCE_CACHE_TTL_MS: "0" },
      // The CLI changes registers while the app runs: no memo of credentials or directories.
      storeMemoMs: 0,
      fake: {
        accounts: { [SANDBOX_LOGIN]: SANDBOX_SECRET, [SHOP2_LOGIN]: SHOP2_SECRET },
        invoices: [
          ...sampleInvoices(),
          {
            id: SHOP2_INVOICE,
            state: "payed",
            currency: "RUB",
            amount: "4200.50",
            // The service's time (Moscow), an hour from now: the newest in shop2's history.
            createdAt: moscow(60),
            expiredAt: moscow(24 * 60),
            description: "Shop two order",
            login: SHOP2_LOGIN,
          },
        ],
      },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    const added = await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        SANDBOX_TEAM.id,
        "--register",
        "shop2",
        "--login",
        SHOP2_LOGIN,
        "--secret",
        "-",
      ],
      SHOP2_SECRET,
    );
    expect(added.code).toBe(0);
    stack.fake.balancesOf.set(SHOP2_LOGIN, [
      { code: "CARDRUBP2P", name: "Card RUB P2P", currency: "RUB", amount: "777.1", accuracy: 2 },
    ]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("a member may not choose a channel's register; an admin may, and the channel is told", async () => {
    const refused = await stack.ask("use shop2", { userId: MEMBER, channelId: SHOP2_CHANNEL });
    expect(text(refused.reply.body)).toContain("Only a workspace admin can choose a channel's register");
    const { reply } = await stack.ask("use shop2", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(reply.body.response_type).toBe("in_channel");
    expect(text(reply.body)).toContain(`<@${ADMIN}> made *shop2* this channel's register`);
    const asked = await stack.ask("use", { userId: MEMBER, channelId: SHOP2_CHANNEL });
    expect(text(asked.reply.body)).toContain("This channel uses the register *shop2*.");
    const unknown = await stack.ask("use shop3", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(unknown.reply.body)).toContain("no register named *shop3*");
  });

  it("/balance in each channel shows its own register's, and says which", async () => {
    const shop2 = await stack.ask("", { command: "/balance", userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(shop2.reply.body)).toContain("*777.10 RUB*");
    expect(text(shop2.reply.body)).not.toContain("12,345.67");
    expect(text(shop2.reply.body)).toContain("Register: *shop2* (this channel's register)");
    expectWithinBlockKitLimits(shop2.reply.body);
    const main = await stack.ask("", { command: "/balance", userId: ADMIN, channelId: MAIN_CHANNEL });
    expect(text(main.reply.body)).toContain("*12,345.67 RUB*");
    expect(text(main.reply.body)).not.toContain("777.10");
    expect(text(main.reply.body)).toContain("Register: *main* (this channel has no register set");
    const named = await stack.ask("shop2", { command: "/balance", userId: ADMIN, channelId: MAIN_CHANNEL });
    expect(text(named.reply.body)).toContain("*777.10 RUB*");
    expect(text(named.reply.body)).toContain("Register: *shop2* (named in the command)");
    expect(loginsAsked(stack, /\/balance\/(info|list)\/$/)).toEqual([
      SHOP2_LOGIN,
      SANDBOX_LOGIN,
      SHOP2_LOGIN,
    ]);
  });

  it("finds the second register's invoice from the first's channel, names it, and Refresh reads it there", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask(SHOP2_INVOICE, { userId: MEMBER, channelId: MAIN_CHANNEL });
    const card = text(reply.body);
    expect(card).toContain(`shop2 · `);
    expect(card).toContain("4,200.50");
    const asked = stack.fake.requests
      .slice(before)
      .filter((request) => request.path.endsWith("/invoice/info/"));
    expect(asked.map((request) => (request.body as { auth_login?: string }).auth_login)).toEqual([
      SANDBOX_LOGIN,
      SHOP2_LOGIN,
    ]);
    const blocks = (reply.body.blocks ?? []) as Array<{
      elements?: Array<{ action_id?: string; value?: string }>;
    }>;
    const refresh = blocks
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === "invoice_refresh");
    expect(JSON.parse(refresh?.value ?? "{}")).toMatchObject({ id: SHOP2_INVOICE, r: "shop2" });
    const pressed = await stack.press("invoice_refresh", refresh?.value ?? "", {
      userId: MEMBER,
      channelId: MAIN_CHANNEL,
    });
    expect(text(pressed.reply.body)).toContain("shop2 · ");
    const last = stack.fake.requests.at(-1);
    expect((last?.body as { auth_login?: string } | undefined)?.auth_login).toBe(SHOP2_LOGIN);
  });

  it("a register named first picks it for /paymethods and /invoice list, and page buttons keep it", async () => {
    const methods = await stack.ask("shop2", {
      command: "/paymethods",
      userId: MEMBER,
      channelId: MAIN_CHANNEL,
    });
    expect(text(methods.reply.body)).toContain("Register: *shop2* (named in the command)");
    // Read with shop2's login (when the invoice card above named its method, or now), never main's for it.
    expect(loginsAsked(stack, /\/method\/list\/$/)).toContain(SHOP2_LOGIN);
    const blocks = (methods.reply.body.blocks ?? []) as Array<{ elements?: Array<{ value?: string }> }>;
    const values = blocks.flatMap((block) => block.elements ?? []).map((element) => element.value ?? "");
    for (const value of values.filter((v) => v.startsWith("{")))
      expect(JSON.parse(value)).toMatchObject({ r: "shop2" });
    const list = await stack.ask("shop2 list", { userId: MEMBER, channelId: MAIN_CHANNEL });
    expect(text(list.reply.body)).toContain(SHOP2_INVOICE);
    expect(loginsAsked(stack, /\/history\/payments\/$/)).toEqual([SHOP2_LOGIN]);
    // Its rows' Open buttons read the invoice in shop2 too.
    const rows = (list.reply.body.blocks ?? []) as Array<{ accessory?: { value?: string } }>;
    const open = rows.map((block) => block.accessory?.value).filter((value) => value !== undefined);
    expect(open.length).toBeGreaterThan(0);
    for (const value of open) expect(JSON.parse(value)).toMatchObject({ r: "shop2" });
    expect(text(list.reply.body)).toContain("Register: *shop2*");
  });

  it("/invoice summary reports the channel's register, read with its credentials", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("summary today", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(reply.body)).toContain("Register: *shop2* (this channel's register)");
    const history = stack.fake.requests
      .slice(before)
      .filter((request) => request.path.endsWith("/history/payments/"));
    expect(history.length).toBeGreaterThan(0);
    for (const request of history)
      expect((request.body as { auth_login?: string }).auth_login).toBe(SHOP2_LOGIN);
  });

  it("/invoice status lists every register with its state and channels", async () => {
    const { reply } = await stack.ask("status", { userId: ADMIN, channelId: MAIN_CHANNEL });
    const all = text(reply.body);
    expect(all).toContain("*Cash registers*");
    expect(all).toMatch(/• \*main\*: connected \(`[^`]+`\), instant notifications off, connected by the CLI/);
    expect(all).toContain(`• *shop2*: connected`);
    expect(all).toContain(`used in <#${SHOP2_CHANNEL}>`);
    expect(all).not.toContain(SHOP2_SECRET);
  });

  it("one register's failing key leaves the other working, and its invoices still found", async () => {
    await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        SANDBOX_TEAM.id,
        "--register",
        "shop2",
        "--login",
        SHOP2_LOGIN,
        "--secret",
        "-",
      ],
      "a-wrong-secret",
    );
    const failing = await stack.ask("", { command: "/balance", userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(failing.reply.body)).not.toContain("777.10");
    expect(failing.reply.body.response_type).toBe("ephemeral");
    const main = await stack.ask("main", { command: "/balance", userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(main.reply.body)).toContain("*12,345.67 RUB*");
    const found = await stack.ask("715308958_rPwTzvsvCm", { userId: MEMBER, channelId: SHOP2_CHANNEL });
    expect(text(found.reply.body)).toContain("main · ");
    expect(text(found.reply.body)).toContain("1,500");
  });

  it("removing a register sends its channels back to main and leaves main as it was", async () => {
    expect(
      (await stack.cli(["credentials", "remove", "--team", SANDBOX_TEAM.id, "--register", "shop2"])).code,
    ).toBe(0);
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(reply.body)).toContain("*12,345.67 RUB*");
    // One register again: replies are as they were before registers.
    expect(text(reply.body)).not.toContain("Register:");
  });
});
