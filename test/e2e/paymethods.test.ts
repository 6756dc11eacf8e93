import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { manyMethods, sampleMethods } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

type Message = {
  response_type?: string;
  text?: string;
  replace_original?: boolean;
  blocks?: Array<Record<string, unknown>>;
};
const message = (body: Record<string, unknown>) => body as Message;
const buttons = (body: Record<string, unknown>) =>
  (message(body).blocks ?? [])
    .filter((block) => block.type === "actions")
    .flatMap((block) => block.elements as Array<{ action_id: string; value: string }>);
const methodRequests = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/method/list/")).length;

describe("/paymethods end to end (v2)", () => {
  let stack: Stack;
  beforeAll(async () => {
    // These tests reconnect workspaces with the CLI (another process): no memory in front of the store.
    stack = await Stack.start({ env: { PAYMETHODS_CACHE_TTL_MS: "60000" }, storeMemoMs: 0 });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  afterEach(async () => {
    stack.fake.methodsFault = null;
    stack.fake.methods = sampleMethods();
    // Start every test with an empty cache: Refresh re-reads and stores the current list.
    await stack.press("paymethods_refresh", JSON.stringify({ f: "all", p: 1 }));
  });

  it("lists enabled methods first with the commission breakdown in exact decimals", async () => {
    const { ack, reply } = await stack.ask("", { command: "/paymethods" });
    expect(ack.status).toBe(200);
    const body = message(reply.body);
    expect(body.response_type).toBe("in_channel");
    expect(body.blocks?.[0]).toMatchObject({
      type: "header",
      text: { text: "Payment methods: 17 enabled, 3 disabled" },
    });
    const text = JSON.stringify(reply.body);
    expect(text).toContain("commission 1.5 % + 0.000004 BTC");
    expect(text).toContain("extra 0.5 %");
    expect(text).toContain("*sum 2 % + 0.000004 BTC*");
    expect(text).toContain("0.0000001 BTC");
    expect(text).toContain("*sum 2.2 % + 1 USDT*");
    expect(text).not.toMatch(/\de-\d|0000000000\d/);
    // Enabled first, then by name: the first disabled line comes after every enabled one.
    const sections = (body.blocks ?? [])
      .filter((block) => block.type === "section")
      .map((block) => (block.text as { text: string }).text);
    const lines = sections
      .join("\n")
      .split("\n")
      .filter((line) => line.startsWith(":"));
    const firstDisabled = lines.findIndex((line) => line.startsWith(":no_entry_sign:"));
    expect(firstDisabled).toBe(17);
    expect(lines[0]).toContain("*Bitcoin* `BITCOIN`");
    expectWithinBlockKitLimits(reply.body);
  });

  it("filters by code, name or currency, case-insensitively, and by keyword", async () => {
    const btc = await stack.ask("BtC", { command: "/paymethods" });
    expect(message(btc.reply.body).text).toContain("matching “BtC”: 2 enabled, 0 disabled");
    const card = await stack.ask("card", { command: "/paymethods" });
    expect(message(card.reply.body).text).toMatch(/^Payment methods matching “card”: 2 enabled/);
    const disabled = await stack.ask("disabled", { command: "/paymethods" });
    expect(message(disabled.reply.body).text).toMatch(
      /^Payment methods \(disabled only\): 0 enabled, 3 disabled/,
    );
    const enabled = await stack.ask("enabled", { command: "/paymethods" });
    expect(message(enabled.reply.body).text).toMatch(/: 17 enabled, 0 disabled/);
  });

  it("answers privately when nothing matches, saying what a filter can be", async () => {
    const { reply } = await stack.ask("<!channel>", { command: "/paymethods" });
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    expect(JSON.stringify(reply.body)).toContain("No payment method matches `&lt;!channel&gt;`");
    expect(JSON.stringify(reply.body)).not.toContain("<!channel>");
    expect(JSON.stringify(reply.body)).toContain("`enabled`");
  });

  it("shows help and refuses an over-long filter", async () => {
    const help = await stack.ask("help", { command: "/paymethods" });
    expect(message(help.reply.body).response_type).toBe("ephemeral");
    expect(message(help.reply.body).text).toContain("/paymethods [filter]");
    const long = await stack.ask("x".repeat(41), { command: "/paymethods" });
    expect(message(long.reply.body).text).toContain("Usage: /paymethods [filter]");
  });

  it("serves repeated lists from the cache", async () => {
    const before = methodRequests(stack);
    await stack.ask("", { command: "/paymethods" });
    await stack.ask("btc", { command: "/paymethods" });
    await stack.press("paymethods_next", JSON.stringify({ f: "all", p: 2 }));
    // The Refresh in afterEach filled the cache; none of these needed the service.
    expect(methodRequests(stack)).toBe(before);
  });

  it("does not reuse a list cached under another login", async () => {
    const team = "T0RELOGIN";
    const connect = (login: string, secret: string) =>
      stack.cli(["credentials", "set", "--team", team, "--login", login, "--secret", "-"], secret);
    await connect("sandbox_register", "sandbox-secret-7f3a9c");
    expect(
      message((await stack.ask("", { command: "/paymethods", teamId: team })).reply.body).response_type,
    ).toBe("in_channel");
    await connect("another_register", "whatever");
    const { reply } = await stack.ask("", { command: "/paymethods", teamId: team });
    expect(message(reply.body).text).toContain("Invalid auth credentials");
  });

  it("makes at most one request for 30 simultaneous commands on a cold cache", async () => {
    // A new workspace has nothing cached.
    const team = "T0BURST";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", "sandbox_register", "--secret", "-"],
      "sandbox-secret-7f3a9c",
    );
    stack.fake.methodsFault = "slow";
    const before = methodRequests(stack);
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => stack.ask("", { command: "/paymethods", teamId: team })),
    );
    expect(methodRequests(stack) - before).toBe(1);
    for (const { reply } of replies) expect(message(reply.body).response_type).toBe("in_channel");
  });

  it("Refresh re-reads past the cache and replaces the message in place", async () => {
    await stack.ask("", { command: "/paymethods" });
    const first = stack.fake.methods[0];
    if (first) first.commissionPercent = "9.75";
    const cached = await stack.ask("CRYSTALPAY", { command: "/paymethods" });
    expect(JSON.stringify(cached.reply.body)).not.toContain("9.75 %");
    const before = methodRequests(stack);
    const { reply } = await stack.press("paymethods_refresh", JSON.stringify({ f: "CRYSTALPAY", p: 1 }));
    expect(methodRequests(stack) - before).toBe(1);
    expect(message(reply.body).replace_original).toBe(true);
    expect(JSON.stringify(reply.body)).toContain("commission 9.75 %");
  });

  it("never caches an error", async () => {
    const team = "T0ERRORS";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", "sandbox_register", "--secret", "-"],
      "sandbox-secret-7f3a9c",
    );
    stack.fake.methodsFault = "html502";
    const failed = await stack.ask("", { command: "/paymethods", teamId: team });
    expect(message(failed.reply.body).response_type).toBe("ephemeral");
    expect(message(failed.reply.body).text).toBe(
      "The payment service is not answering right now. Try again in a minute.",
    );
    expect(JSON.stringify(failed.reply.body)).toContain("HTTP 502");
    stack.fake.methodsFault = null;
    const ok = await stack.ask("", { command: "/paymethods", teamId: team });
    expect(message(ok.reply.body).response_type).toBe("in_channel");
  });

  it.each([
    ["brokenJson", /cannot read \(reference [0-9a-f]{8}\)/],
    ["wrongTypes", /cannot read \(reference [0-9a-f]{8}\)/],
    ["invalidAuth", /refused the cash register's login or secret \(Invalid auth credentials\)/],
  ] as const)("explains a %s answer privately", async (fault, expected) => {
    stack.fake.methodsFault = fault;
    const { reply } = await stack.press("paymethods_refresh", JSON.stringify({ f: "all", p: 1 }));
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    // An error on a button leaves the list as it was.
    expect(body.replace_original).toBe(false);
    expect(body.text).toMatch(expected);
  });

  it("pages 60 methods within Block Kit limits with Previous and Next", async () => {
    stack.fake.methods = manyMethods(60);
    const { reply } = await stack.press("paymethods_refresh", JSON.stringify({ f: "all", p: 1 }));
    expectWithinBlockKitLimits(reply.body);
    expect(message(reply.body).text).toContain("48 enabled, 12 disabled (page 1 of 3)");
    const next = buttons(reply.body).find((button) => button.action_id === "paymethods_next");
    expect(next).toBeDefined();
    expect(buttons(reply.body).some((button) => button.action_id === "paymethods_previous")).toBe(false);

    const page2 = await stack.press("paymethods_next", next?.value ?? "");
    expect(message(page2.reply.body).replace_original).toBe(true);
    expect(message(page2.reply.body).text).toContain("(page 2 of 3)");
    expectWithinBlockKitLimits(page2.reply.body);
    const ids = buttons(page2.reply.body).map((button) => button.action_id);
    expect(ids).toEqual(["paymethods_previous", "paymethods_next", "paymethods_refresh"]);

    const page3 = await stack.press("paymethods_next", buttons(page2.reply.body)[1]?.value ?? "");
    expect(message(page3.reply.body).text).toContain("(page 3 of 3)");
    expect(buttons(page3.reply.body).map((button) => button.action_id)).toEqual([
      "paymethods_previous",
      "paymethods_refresh",
    ]);
  });

  it("answers a forged button value as out of date without calling the service", async () => {
    const before = methodRequests(stack);
    const { reply } = await stack.press("paymethods_next", '{"f":"all","p":"DROP TABLE"}');
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).text).toBe("This button is out of date; nothing was done.");
    expect(methodRequests(stack)).toBe(before);
  });

  it("tells a workspace without credentials how to connect", async () => {
    const { reply } = await stack.ask("", { command: "/paymethods", teamId: "T0NOBODY" });
    expect(message(reply.body).text).toContain(
      "Kassa is not connected to this workspace's cash register yet",
    );
  });
});

describe("/paymethods cache expiry", () => {
  let stack: Stack;
  beforeAll(async () => {
    // Long enough that two commands in a row on a loaded machine fall within it.
    stack = await Stack.start({ env: { PAYMETHODS_CACHE_TTL_MS: "1500" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reads the service again once PAYMETHODS_CACHE_TTL_MS has passed", async () => {
    await stack.ask("", { command: "/paymethods" });
    await stack.ask("", { command: "/paymethods" });
    expect(methodRequests(stack)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    await stack.ask("", { command: "/paymethods" });
    expect(methodRequests(stack)).toBe(2);
  });
});

describe("/paymethods end to end (v3)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3" });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reads the nested v3 shape: enabled needs both switches, limits shown", async () => {
    const ethBot = stack.fake.methods.find((method) => method.code === "TONCRYPTOBOT");
    if (ethBot) ethBot.serviceDisabled = true;
    const { reply } = await stack.ask("", { command: "/paymethods" });
    expect(stack.fake.requests.at(-1)?.path).toBe("/v3/method/list/");
    const text = JSON.stringify(reply.body);
    expect(message(reply.body).text).toContain("16 enabled, 4 disabled");
    expect(text).toContain("commission 1.5 % + 0.000004 BTC");
    expect(text).toContain("limits 10.00 – 300,000.00 RUB");
    expectWithinBlockKitLimits(reply.body);
  });
});
