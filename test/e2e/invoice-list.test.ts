import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

type Block = {
  type: string;
  text?: { text: string };
  accessory?: { action_id: string; value: string };
  elements?: Array<{ action_id?: string; value?: string; text?: { text: string } }>;
};
const blocksOf = (body: Record<string, unknown>) => (body.blocks ?? []) as Block[];
const rows = (body: Record<string, unknown>) => blocksOf(body).filter((block) => block.accessory);
const button = (body: Record<string, unknown>, actionId: string) =>
  blocksOf(body)
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId);

describe("/invoice list", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start();
    // 15 more invoices, the newest first in the history: two pages of ten.
    for (let i = 1; i <= 15; i += 1) {
      const id = `7154000${String(i).padStart(2, "0")}_ListMore`;
      stack.fake.invoices.set(id, {
        id,
        state: i % 3 === 0 ? "payed" : "notpayed",
        currency: "RUB",
        amount: `${i}00.5`,
        createdAt: moscowTime(new Date(Date.now() - (20 - i) * 60_000)),
        expiredAt: moscowTime(new Date(Date.now() + 3_600_000)),
      });
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("shows the ten newest privately: state, amount with its currency, an Open button each, Next and Share", async () => {
    const { reply } = await stack.ask("list");
    expectWithinBlockKitLimits(reply.body);
    expect(reply.body.response_type).toBe("ephemeral");
    expect(blocksOf(reply.body)[0]?.text?.text).toBe("Recent invoices");
    expect(rows(reply.body)).toHaveLength(10);
    const first = rows(reply.body)[0];
    expect(first?.text?.text).toContain("`715400015_ListMore`");
    expect(first?.text?.text).toContain("*1,500.50 RUB*");
    expect(first?.text?.text).toMatch(/created <!date\^\d+\^/);
    expect(first?.accessory?.action_id).toBe("invoice_open");
    expect(button(reply.body, "invoice_list_previous")).toBeUndefined();
    expect(button(reply.body, "invoice_list_next")).toBeDefined();
    expect(JSON.stringify(reply.body)).toContain("Only you can see this list.");

    const next = await stack.press(
      "invoice_list_next",
      button(reply.body, "invoice_list_next")?.value ?? "",
      {
        ephemeral: true,
      },
    );
    expect(next.reply.body.replace_original).toBe(true);
    expect(rows(next.reply.body)[0]?.text?.text).toContain("`715400005_ListMore`");
    expect(button(next.reply.body, "invoice_list_previous")).toBeDefined();
  });

  it("filters paid and not-paid invoices", async () => {
    const paid = await stack.ask("list paid");
    expect(blocksOf(paid.reply.body)[0]?.text?.text).toBe("Recent invoices (paid)");
    expect(rows(paid.reply.body).length).toBeGreaterThan(0);
    for (const row of rows(paid.reply.body)) expect(row.text?.text).toContain(":white_check_mark: Paid");
    const open = await stack.ask("list unpaid");
    for (const row of rows(open.reply.body)) expect(row.text?.text).toMatch(/Not paid|Payment processing/);
  });

  it("shares a page in the channel, saying who shared it, without page buttons", async () => {
    const { reply } = await stack.ask("list paid");
    const shared = await stack.press(
      "invoice_list_share",
      button(reply.body, "invoice_list_share")?.value ?? "",
      {
        ephemeral: true,
      },
    );
    expect(shared.reply.body).toMatchObject({ response_type: "in_channel", replace_original: false });
    expect(JSON.stringify(shared.reply.body)).toContain("Shared by <@");
    expect(button(shared.reply.body, "invoice_list_next")).toBeUndefined();
  });

  it("answers a wrong filter with how to write it, asking nothing of the service", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("list everything");
    expect(JSON.stringify(reply.body)).toContain("takes `paid`, `notpaid` or `all`");
    expect(stack.fake.requests.length).toBe(before);
  });
});

describe("/invoice summary", () => {
  let stack: Stack;
  beforeAll(async () => {
    // Only the invoices below: the samples' times depend on the hour the tests run.
    stack = await Stack.start({ fake: { invoices: [] } });
    const now = Date.now();
    const add = (id: string, state: string, amount: string, method: string | null, secondsAgo: number) =>
      stack.fake.invoices.set(id, {
        id,
        state,
        method,
        currency: "RUB",
        amount,
        createdAt: moscowTime(new Date(now - secondsAgo * 1000)),
        expiredAt: moscowTime(new Date(now + 3_600_000)),
      });
    add("715500001_SumPaid", "payed", "1500.5", "CARDRUBP2P", 1);
    add("715500002_SumPaid", "payed", "0.5", "CARDRUBP2P", 2);
    add("715500003_SumOpen", "notpayed", "300", null, 3);
    add("715500004_SumTest", "payed", "100", "TEST", 4);
    stack.slack.users.U0MOSCOW = { tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("counts today's invoices in the reader's timezone: created, paid, the exact paid total with its change, test payments apart", async () => {
    const { reply } = await stack.ask("summary", { userId: "U0MOSCOW" });
    expectWithinBlockKitLimits(reply.body);
    expect(reply.body.response_type).toBe("ephemeral");
    const text = JSON.stringify(reply.body.blocks);
    expect(text).toContain("Invoices today");
    expect(text).toContain("*Created*\\n3 invoices\\nnone in the period before");
    expect(text).toContain("*Paid*\\n2 invoices (66.7 %)");
    expect(text).toContain("*Paid total*\\n1,501.00 RUB");
    expect(text).toContain("Test payments (not counted)*\\n1 created, 1 paid");
    expect(text).toContain("(days in Europe/Moscow)");
    expect(text).toContain("Compared with the same length of time just before");
    expect(reply.body.text).toBe("Invoices today: 3 created, 2 paid, 1,501.00 RUB paid");
    // A member who may not see the balance is told who may see the largest payments.
    expect(text).toContain("The largest payments are shown only to those who may see the balance");
    expect(text).not.toContain("715500001_SumPaid");
  });

  it("shows the largest payments, each with Open, to those who may see the balance", async () => {
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
    const { reply } = await stack.ask("summary today", { userId: "U0ADMIN" });
    const text = JSON.stringify(reply.body.blocks);
    expect(text).toContain("*Largest payments*");
    expect(text).toMatch(/1\. `715500001_SumPaid` \*1,500\.50 RUB\* · .*CARDRUBP2P/);
    expect(text).toContain("2. `715500002_SumPaid` *0.50 RUB*");
    expect(text).toContain("*Paid by method*");
    expect(text).toContain("`CARDRUBP2P`: *1,501.00 RUB* (2 invoices)");
    const opens = (reply.body.blocks as Array<{ accessory?: { action_id: string } }>).filter(
      (block) => block.accessory?.action_id === "invoice_open",
    );
    expect(opens).toHaveLength(2);
  });

  it("falls back to the payment service's zone when Slack cannot say the reader's", async () => {
    stack.slack.users.U0BERLIN = { tz: "Europe/Berlin" };
    const own = await stack.ask("summary", { userId: "U0BERLIN" });
    expect(JSON.stringify(own.reply.body.blocks)).toContain("(days in Europe/Berlin)");
    stack.slack.usersInfoError = "missing_scope";
    try {
      const { reply } = await stack.ask("summary", { userId: "U0BERLIN" });
      expect(JSON.stringify(reply.body.blocks)).toContain("(days in Europe/Moscow)");
    } finally {
      stack.slack.usersInfoError = null;
    }
  });

  it("answers a wrong period with how to write it", async () => {
    const { reply } = await stack.ask("summary fortnight");
    expect(JSON.stringify(reply.body)).toContain(
      "takes `today` (the default), `yesterday`, `7d`, `30d` or a month from `2000-01` on, like `2026-10`",
    );
    const future = await stack.ask("summary 2999-01");
    expect(JSON.stringify(future.reply.body)).toContain("That month has not begun yet");
  });
});
