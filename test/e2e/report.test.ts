import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SampleInvoice } from "../../sandbox/fake-payments.js";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { Stack } from "../../sandbox/stack.js";
import { formatAmount } from "../../src/blocks/format.js";
import { periodBounds } from "../../src/reports/periods.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

/** Epoch seconds of the fake's Moscow wall-clock text. */
const epochOf = (text: string) => Date.parse(`${text.replace(" ", "T")}+03:00`) / 1000;

/** What a finance person would count by hand: paid, not test, created in [from, to), in roubles. */
function expected(invoices: SampleInvoice[], from: number, to: number) {
  const inSpan = invoices.filter((invoice) => {
    const at = epochOf(invoice.createdAt);
    return at >= from && at < to && invoice.method !== "TEST";
  });
  const paid = inSpan.filter((invoice) => invoice.state === "payed");
  const total = paid.reduce((sum, invoice) => sum.plus(invoice.rubAmount ?? invoice.amount), new Big(0));
  return { created: inSpan.length, paid: paid.length, total: total.toFixed() };
}

describe("/invoice summary over a realistic history", () => {
  let stack: Stack;
  const now = new Date();
  const history = sampleHistory({ now, days: 64, perDay: 22, seed: 7 });
  beforeAll(async () => {
    stack = await Stack.start({ fake: { invoices: history } });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("30d: created, paid and the paid total match a count by hand, with the change on the 30 days before", async () => {
    const { reply } = await stack.ask("summary 30d", { userId: "U0ADMIN" });
    expectWithinBlockKitLimits(reply.body);
    const span = periodBounds("30d", new Date(reply.at), "Europe/Moscow");
    if (!span) throw new Error("no span");
    const current = expected(history, span.from, span.to);
    const before = expected(history, span.previous.from, span.previous.to);
    const text = JSON.stringify(reply.body.blocks);
    expect(current.created).toBeGreaterThan(300);
    expect(text).toContain(`*Created*\\n${current.created.toLocaleString("en-US")} invoices`);
    expect(text).toContain(`*Paid total*\\n${formatAmount(current.total, "RUB")}`);
    expect(text).toContain(`(${formatAmount(before.total, "RUB")})`);
    expect(text).toMatch(/[+-]\d+(\.\d)? % on the period before/);
    // Five largest, each with Open; methods with their totals; test payments counted apart.
    const blocks = reply.body.blocks as Array<{ accessory?: { action_id: string } }>;
    expect(blocks.filter((block) => block.accessory?.action_id === "invoice_open")).toHaveLength(5);
    expect(text).toContain("*Paid by method*");
    expect(text).toMatch(/Other \(\d methods?\)/);
    expect(text).toMatch(/Test payments \(not counted\)\*\\n\d+ created, \d+ paid/);
    expect(text).not.toContain(":warning:");
  });

  it("a past month: the whole month, compared with the month before", async () => {
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15))
      .toISOString()
      .slice(0, 7);
    const { reply } = await stack.ask(`summary ${last}`, { userId: "U0ADMIN" });
    const span = periodBounds(last as `${number}-${number}`, new Date(reply.at), "Europe/Moscow");
    if (!span) throw new Error("no span");
    const current = expected(history, span.from, span.to);
    const text = JSON.stringify(reply.body.blocks);
    const monthName = new Intl.DateTimeFormat("en-US", {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${last}-01T00:00:00Z`));
    expect(text).toContain(`Invoices in ${monthName}`);
    expect(text).toContain(`*Paid*\\n${current.paid.toLocaleString("en-US")} invoices`);
    expect(text).toContain(`*Paid total*\\n${formatAmount(current.total, "RUB")}`);
  });
});
