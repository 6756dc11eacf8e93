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
    expect(first?.text?.text).toContain("*1,500.5 RUB*");
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
