import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sampleBalances, sampleRates } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

type Message = { response_type?: string; text?: string; blocks?: Array<Record<string, unknown>> };
const message = (body: Record<string, unknown>) => body as Message;
const text = (body: Record<string, unknown>) => JSON.stringify(body);

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const OPERATOR_PICK = "U0LISTED";

const balanceCalls = (stack: Stack) =>
  stack.fake.requests.filter((request) => /\/balance\/(info|list)\/$/.test(request.path)).length;
const tickerCalls = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/ticker/get/")).length;

/** Submits the connect modal as an admin, keeping the stored secret, with a balance choice. */
async function chooseBalanceViewers(stack: Stack, choice: "admins" | "everyone") {
  const submitted = await stack.submitView({
    view: {
      callback_id: "kassa_connect",
      private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
    },
    values: {
      login: { value: "sandbox_register" },
      secret: { value: null },
      api_version: { selected: stack.env.PAYMENTS_API_VERSION ?? "v2" },
      visibility: { selected: "channel" },
      balance_visibility: { selected: choice },
    },
    userId: ADMIN,
  });
  expect(submitted.status).toBe(200);
  expect(submitted.json?.response_action).toBe("update");
}

// 12345.67 + 100 RUB, (0.00005 + 0.0000001) BTC × 8123456.78, 150.25 USDT × 95.2328
// = 12445.67 + 406.98518... + 14308.72820 = 27161.38 (to kopecks)
const SAMPLE_TOTAL = "27,161.38 RUB";

describe("/balance end to end (v2)", () => {
  let stack: Stack;
  beforeAll(async () => {
    // No cache here, so each test sees the fake as it set it; the cache has its own suite below.
    stack = await Stack.start({
      env: { ADMIN_USER_IDS: OPERATOR_PICK, BALANCE_CACHE_TTL_MS: "0" },
      // Just past the 2 s the reply waits for rates (RATES_BUDGET_MS).
      fake: { slowMs: 2100 },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });
  afterEach(() => {
    stack.fake.balances = sampleBalances();
    stack.fake.rates = sampleRates();
    stack.fake.balanceFault = null;
    stack.fake.tickerFault = null;
  });

  it("shows an admin the balances, exact, non-zero first, and the approximate total in RUB", async () => {
    const { ack, reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(ack.status).toBe(200);
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    const all = text(reply.body);
    // v2 balances give codes only: each is named from the workspace's method list.
    expect(all).toContain("*Card RUB P2P* `CARDRUBP2P`: *12,345.67 RUB*");
    expect(all).toContain("*Bitcoin* `BITCOIN`: *0.00005 BTC*");
    expect(all).toContain("*BTC (CryptoBot)* `BTCCRYPTOBOT`: *0.0000001 BTC*");
    expect(all).toContain("*USDT TRC-20* `USDTTRC`: *150.25 USDT*");
    expect(all).toContain("Empty (0): `BITCOINCASH`, `TRON`, `CRYSTALPAY`.");
    expect(all).toContain(`*Total ≈ ${SAMPLE_TOTAL}* _(approximate)_`);
    expect(all).toMatch(/rouble rate read <!date\^\d+\^/);
    expect(all).not.toMatch(/\de-\d/);
    expectWithinBlockKitLimits(reply.body);
    // The rates asked for are those of non-zero balances other than roubles.
    const ticker = stack.fake.requests.filter((request) => request.path === "/v2/ticker/get/").at(-1);
    expect(ticker?.body?.tickers).toEqual(["BTC", "USDT"]);
  });

  it("writes one log line per command, with the outcome and no secret", async () => {
    const before = stack.logEntries().filter((entry) => entry.command === "/balance").length;
    await stack.ask("", { command: "/balance", userId: ADMIN });
    await expect
      .poll(() => stack.logEntries().filter((entry) => entry.command === "/balance").length)
      .toBe(before + 1);
    const line = stack
      .logEntries()
      .filter((entry) => entry.command === "/balance")
      .at(-1);
    expect(line).toMatchObject({
      team: SANDBOX_TEAM.id,
      user: ADMIN,
      outcome: "ok",
      manager: "admin",
      balances: 8,
      rates: "ok",
      upstreamStatus: 200,
    });
    expect(stack.logs.join("\n")).not.toContain("sandbox-secret");
  });

  it("lets the people ADMIN_USER_IDS lists see it too", async () => {
    const { reply } = await stack.ask("", { command: "/balance", userId: OPERATOR_PICK });
    expect(text(reply.body)).toContain("Total ≈");
  });

  it("refuses a member politely, naming who can, without asking the payment service", async () => {
    const before = balanceCalls(stack);
    const { reply } = await stack.ask("", { command: "/balance", userId: MEMBER });
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    expect(body.text).toContain("Only workspace admins and owners can see the cash register's balance");
    expect(text(reply.body)).toContain("the person who installed Kassa");
    expect(text(reply.body)).not.toContain("RUB");
    expect(balanceCalls(stack)).toBe(before);
  });

  it("refuses when Slack cannot say who is an admin", async () => {
    stack.slack.usersInfoError = "missing_scope";
    try {
      const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
      expect(message(reply.body).text).toContain("Only workspace admins");
    } finally {
      stack.slack.usersInfoError = null;
    }
  });

  it("shows a member the balances once an admin lets everyone see them, and stops when set back", async () => {
    await chooseBalanceViewers(stack, "everyone");
    try {
      const { reply } = await stack.ask("", { command: "/balance", userId: MEMBER });
      expect(message(reply.body).response_type).toBe("ephemeral");
      expect(text(reply.body)).toContain("*12,345.67 RUB*");
      const help = await stack.ask("help", { command: "/balance", userId: MEMBER });
      expect(text(help.reply.body)).toContain("Everyone in this workspace may use it");
      const status = await stack.ask("status", { userId: ADMIN });
      expect(text(status.reply.body)).toContain("`/balance` is shown to everyone in the workspace");
    } finally {
      await chooseBalanceViewers(stack, "admins");
    }
    const { reply } = await stack.ask("", { command: "/balance", userId: MEMBER });
    expect(message(reply.body).text).toContain("Only workspace admins");
    const status = await stack.ask("status", { userId: ADMIN });
    expect(text(status.reply.body)).toContain("`/balance` is shown to admins only");
  });

  it("offers the setting in the connect modal, admins by default", async () => {
    const before = stack.slack.callsOf("views.open").length;
    await stack.command("connect", { userId: ADMIN });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const view = stack.slack.callsOf("views.open").at(-1)?.body.view;
    const parsed = (typeof view === "string" ? JSON.parse(view) : view) as {
      blocks: Array<Record<string, unknown>>;
    };
    const block = parsed.blocks.find((entry) => entry.block_id === "balance_visibility");
    expect(block).toMatchObject({
      label: { text: "Who may see the balance (/balance)" },
      element: { type: "radio_buttons", initial_option: { value: "admins" } },
    });
  });

  it("drops only the total when the rates call fails", async () => {
    for (const fault of ["html502", "wrongTypes", "slow", "invalidAuth"] as const) {
      stack.fake.tickerFault = fault;
      const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
      const all = text(reply.body);
      expect(message(reply.body).response_type).toBe("ephemeral");
      expect(all).toContain("`BITCOIN`: *0.00005 BTC*");
      expect(all).toContain("No total in RUB right now: the exchange rates could not be read");
      expect(all).not.toContain("Total");
    }
    const line = stack
      .logEntries()
      .filter((entry) => entry.command === "/balance")
      .at(-1);
    expect(line).toMatchObject({ outcome: "ok", rates: "failed" });
  });

  it("shows no total when a rate looks wrong, says so, and logs the rate for the operator", async () => {
    // A bitcoin price of 0.0001 RUB: the register's 0.0000501 BTC would be worth a billionth of a kopeck.
    stack.fake.rates = { ...sampleRates(), BTC: "0.0001" };
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    const all = text(reply.body);
    expect(all).toContain("`BITCOIN`: *0.00005 BTC*");
    expect(all).toContain("No total in RUB: the payment service's exchange rate for BTC looks wrong");
    expect(all).not.toContain("Total");
    await expect
      .poll(() =>
        stack.logEntries().find((entry) => entry.msg === "exchange rates look wrong; no total shown"),
      )
      .toMatchObject({ prices: { BTC: "0.0001" } });
  });

  it("needs no rates when every non-zero balance is in roubles", async () => {
    stack.fake.balances = sampleBalances().map((b) => (b.currency === "RUB" ? b : { ...b, amount: "0" }));
    const before = tickerCalls(stack);
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(reply.body)).toContain("*Total: 12,445.67 RUB*");
    expect(tickerCalls(stack)).toBe(before);
  });

  it.each([
    ["html502", /HTTP 502/],
    ["invalidAuth", /refused the cash register's login or secret \(Invalid auth credentials\)/],
    ["wrongTypes", /cannot read \(reference [0-9a-f]{8}\)/],
    ["brokenJson", /cannot read \(reference [0-9a-f]{8}\)/],
  ] as const)("explains a %s balance answer privately", async (fault, expected) => {
    stack.fake.balanceFault = fault;
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(message(reply.body).response_type).toBe("ephemeral");
    // The status or reference may sit in the context line under the sentence.
    expect(text(reply.body)).toMatch(expected);
  });

  it("leaves out an unreadable entry and then shows no total", async () => {
    stack.fake.balanceFault = "oddEntry";
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(reply.body)).toContain("`LZTMARKET`: *100.00 RUB*");
    expect(text(reply.body)).toContain("1 balance in the payment service's answer could not be read");
    await expect.poll(() => stack.logs.some((line) => line.includes("balance entries left out"))).toBe(true);
  });

  it("answers help and refuses other text without asking the service", async () => {
    const before = balanceCalls(stack);
    const help = await stack.ask("help", { command: "/balance", userId: MEMBER });
    expect(message(help.reply.body).text).toContain("/balance shows the cash register's balances");
    const other = await stack.ask("all please", { command: "/balance", userId: ADMIN });
    expect(message(other.reply.body).text).toContain("Usage: /balance");
    expect(balanceCalls(stack)).toBe(before);
  });

  it("tells a workspace without credentials how to connect", async () => {
    const { reply } = await stack.ask("", { command: "/balance", userId: OPERATOR_PICK, teamId: "T0NOBODY" });
    expect(message(reply.body).text).toContain(
      "Kassa is not connected to this workspace's cash register yet",
    );
  });
});

describe("/balance end to end (v3)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      apiVersion: "v3",
      env: { ADMIN_USER_IDS: ADMIN, BALANCE_CACHE_TTL_MS: "0" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reads balance/list with names and decimal strings", async () => {
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(stack.fake.requests.some((request) => request.path === "/v3/balance/list/")).toBe(true);
    const all = text(reply.body);
    expect(all).toContain("*Bitcoin* `BITCOIN`: *0.00005 BTC*");
    expect(all).toContain(`*Total ≈ ${SAMPLE_TOTAL}*`);
    expectWithinBlockKitLimits(reply.body);
  });

  it("says every balance is 0 when the service sends `items: []`", async () => {
    stack.fake.balances = sampleBalances().map((b) => ({ ...b, amount: "0" }));
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(reply.body)).toContain("Every balance is 0");
    // Nothing to convert: no rates call.
    expect(stack.fake.requests.slice(before).map((request) => request.path)).toEqual(["/v3/balance/list/"]);
  });
});

describe("/balance cache", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { ADMIN_USER_IDS: ADMIN, BALANCE_CACHE_TTL_MS: "60000" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reuses balances and rates within BALANCE_CACHE_TTL_MS, and never caches an error", async () => {
    stack.fake.balanceFault = "html502";
    await stack.ask("", { command: "/balance", userId: ADMIN });
    stack.fake.balanceFault = null;
    stack.fake.tickerFault = "html502";
    const noTotal = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(noTotal.reply.body)).toContain("No total in RUB right now");
    stack.fake.tickerFault = null;
    const balancesBefore = balanceCalls(stack);
    const tickersBefore = tickerCalls(stack);
    // The balances were cached; the failed rates were not, so this asks for rates only.
    const withTotal = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(withTotal.reply.body)).toContain(`Total ≈ ${SAMPLE_TOTAL}`);
    expect(balanceCalls(stack)).toBe(balancesBefore);
    expect(tickerCalls(stack)).toBe(tickersBefore + 1);
    // Now both are cached.
    await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(balanceCalls(stack)).toBe(balancesBefore);
    expect(tickerCalls(stack)).toBe(tickersBefore + 1);
    const line = stack
      .logEntries()
      .filter((entry) => entry.command === "/balance")
      .at(-1);
    expect(line).toMatchObject({ outcome: "ok", cached: true });
  });

  it("makes one balance call for simultaneous commands", async () => {
    const team = "T0BALBURST";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", "sandbox_register", "--secret", "-"],
      "sandbox-secret-7f3a9c",
    );
    const before = balanceCalls(stack);
    await Promise.all(
      Array.from({ length: 10 }, () => stack.ask("", { command: "/balance", userId: ADMIN, teamId: team })),
    );
    expect(balanceCalls(stack) - before).toBe(1);
  });
});
