import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoutOnlyMethod, sampleMethods } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

/**
 * Money on the card as the service means it (issue 10), through the whole app: the documented v2
 * crypto payment and a v3 invoice that names its currency only as `currency`.
 */
type Block = { type: string; text?: { text: string }; fields?: { text: string }[] };
type Message = { response_type?: string; text?: string; blocks?: Block[] };
const message = (body: Record<string, unknown>) => body as Message;

/** "*Label*\nvalue" fields of every section as [label, value]. */
function fields(body: Record<string, unknown>): [string, string][] {
  return (message(body).blocks ?? []).flatMap((block) =>
    (block.fields ?? []).map((field): [string, string] => {
      const [label = "", ...value] = field.text.split("\n");
      return [label.replace(/^\*|\*$/g, ""), value.join("\n")];
    }),
  );
}

const field = (body: Record<string, unknown>, label: string) =>
  fields(body).find(([name]) => name === label)?.[1];

const methodLists = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/method/list/")).length;

describe("money end to end (v2): a crypto-paid invoice", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v2" });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("/invoice: the invoice amount in RUB, what was paid in BTC, the method named from the list", async () => {
    const { reply } = await stack.ask("715308966_PaidBitcoin");
    expectWithinBlockKitLimits(reply.body);
    // The service's own callback example: Paid, yet remaining_amount 0.1. Nothing reads as still to pay.
    expect(fields(reply.body).slice(0, 5)).toEqual([
      ["Invoice amount", "100.00 RUB"],
      ["Amount paid", "0.1 BTC"],
      ["Credited to balance", "0.1 BTC"],
      ["Service commission", "0 BTC"],
      ["Extra commission", "0 BTC"],
    ]);
    expect(JSON.stringify(reply.body)).not.toMatch(/remaining|still to pay/i);
    // Not cached yet: read once within the card's budget, then kept for /paymethods.
    expect(field(reply.body, "Method")).toBe("Bitcoin `BITCOIN` · BTC");
    expect(JSON.stringify(reply.body)).not.toContain("original invoice currency");
    expect(message(reply.body).text).toBe("Invoice 715308966_PaidBitcoin: Paid, amount 100.00 RUB");
  });

  it("/paymethods: the same method from the cached list, its fee in BTC", async () => {
    const before = methodLists(stack);
    const { reply } = await stack.ask("bitcoin", { command: "/paymethods" });
    expect(methodLists(stack)).toBe(before);
    const text = JSON.stringify(reply.body);
    expect(text).toContain("*Bitcoin* `BITCOIN` · BTC");
    expect(text).toContain("commission 1.5 % + 0.000004 BTC");
  });

  it("a method the list does not know leaves the code alone, and the card still comes", async () => {
    const invoice = stack.fake.invoices.get("715308966_PaidBitcoin");
    if (!invoice) throw new Error("no sample");
    stack.fake.invoices.set("715308966_NewMethod", {
      ...invoice,
      id: "715308966_NewMethod",
      method: "SOLANA",
    });
    const { reply } = await stack.ask("715308966_NewMethod");
    expect(field(reply.body, "Method")).toBe("`SOLANA`");
    expect(field(reply.body, "Invoice amount")).toBe("100.00 RUB");
  });
});

describe("money end to end (v2): the card never fails on the method list", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v2" });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(["html502", "wrongTypes", "invalidAuth"] as const)(
    "a method list answering %s: the card comes with the code only",
    async (fault) => {
      stack.fake.methodsFault = fault;
      const { reply } = await stack.ask("715308966_PaidBitcoin");
      expect(message(reply.body).response_type).toBe("in_channel");
      expect(field(reply.body, "Method")).toBe("`BITCOIN`");
      expect(field(reply.body, "Amount paid")).toBe("0.1 BTC");
      stack.fake.methodsFault = null;
    },
  );
});

describe("money end to end (v3): `currency` only, payout-only methods, limits of 0", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3" });
    stack.fake.methods = [
      ...sampleMethods().map((method) =>
        method.code === "CRYSTALPAY" ? { ...method, limits: { min: "0", max: "0" } } : method,
      ),
      payoutOnlyMethod(),
    ];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("/invoice: a `currency`-only answer reads as USD, with its rouble equivalent once", async () => {
    const { reply } = await stack.ask("715308967_UsdCurrencyOnly");
    expect(stack.fake.requests.at(-1)?.path).toBe("/v3/invoice/info/");
    expectWithinBlockKitLimits(reply.body);
    expect(fields(reply.body).slice(0, 5)).toEqual([
      ["Invoice amount", "100.00 USD"],
      ["Amount in RUB", "8,146.00 RUB"],
      ["Still to pay", "100.00 USD"],
      ["To be credited when paid", "100.00 USD"],
      ["Commission", "0.00 USD"],
    ]);
    expect(field(reply.body, "Method")).toBe("_not chosen yet_");
    expect(message(reply.body).text).toBe(
      "Invoice 715308967_UsdCurrencyOnly: Not paid, amount 100.00 USD, still to pay 100.00 USD",
    );
  });

  it("/paymethods: a payout-only method is named as not for payments, a 0 limit is no limit", async () => {
    const { reply } = await stack.ask("", { command: "/paymethods" });
    expect(stack.fake.requests.at(-1)?.path).toBe("/v3/method/list/");
    expectWithinBlockKitLimits(reply.body);
    expect(message(reply.body).text).toContain("Payment methods: 17 enabled, 3 disabled");
    const text = JSON.stringify(reply.body);
    expect(text).toContain("Not listed: 1 payout-only method (not available for payments): `CARDRUBPAYOUT`.");
    expect(text).not.toContain("0 – 0");
    expect(text).toContain("limits 10.00 – 300,000.00 RUB");
    const crystalLine = text.slice(text.indexOf("`CRYSTALPAY`")).split("\\n")[1] ?? "";
    expect(crystalLine).toContain("commission 0 %");
    expect(crystalLine).not.toContain("limits");
  });

  it("/paymethods: one unreadable entry is left out and counted, the rest listed", async () => {
    stack.fake.methodsFault = "oddEntry";
    try {
      const { reply } = await stack.press("paymethods_refresh", JSON.stringify({ f: "all", p: 1 }));
      expect(message(reply.body).response_type).toBe("in_channel");
      expect(message(reply.body).text).toContain("Payment methods: 17 enabled, 3 disabled");
      expect(JSON.stringify(reply.body)).toContain(
        "1 method could not be read from the payment service's answer and is not shown.",
      );
      const warning = stack.logEntries().find((entry) => entry.msg === "method list entries left out");
      expect(warning?.unreadable).toEqual([{ code: "ODDMETHOD", reason: expect.any(String) }]);
    } finally {
      stack.fake.methodsFault = null;
    }
  });
});
