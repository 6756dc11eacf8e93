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
    const asked = Date.now();
    const { reply } = await stack.ask("summary 30d", { userId: "U0ADMIN" });
    expectWithinBlockKitLimits(reply.body);
    const text = JSON.stringify(reply.body.blocks);
    // Kassa fixed the period at some second between the ask and the reply (the period before ends
    // as long after its start as now is after today's): the count by hand for one of those seconds.
    const counts: Array<{ current: ReturnType<typeof expected>; before: ReturnType<typeof expected> }> = [];
    for (let at = asked; at <= reply.at + 999; at += 1000) {
      const span = periodBounds("30d", new Date(Math.min(at, reply.at)), "Europe/Moscow");
      if (!span) throw new Error("no span");
      const current = expected(history, span.from, span.to);
      const before = expected(history, span.previous.from, span.previous.to);
      counts.push({ current, before });
    }
    const matching = counts.filter(
      ({ current, before }) =>
        text.includes(`*Created*\\n${current.created.toLocaleString("en-US")} invoices`) &&
        text.includes(`*Paid total*\\n${formatAmount(current.total, "RUB")}`) &&
        text.includes(`(${formatAmount(before.total, "RUB")})`),
    );
    expect(matching.length, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts[0]?.current.created).toBeGreaterThan(300);
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

  it("sends the chart (a 1200 x 600 PNG) to the asker's messages with Kassa and shows it with the report", async () => {
    const shared = stack.slack.files.shared().length;
    const { reply } = await stack.ask("summary 7d", { userId: "U0ADMIN" });
    const files = await stack.slack.files.waitFor(shared + 1);
    const chart = files.at(-1);
    expect(chart?.channel).toBe("D0ADMIN");
    expect(chart?.filename).toBe("kassa-chart-7d.png");
    const png = chart?.bytes ?? Buffer.alloc(0);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 600]);
    const blocks = reply.body.blocks as Array<{
      type: string;
      slack_file?: { id: string };
      alt_text?: string;
    }>;
    const image = blocks.find((block) => block.type === "image");
    expect(image?.slack_file?.id).toBe(chart?.id);
    expect(image?.alt_text).toContain("Invoices in the last 7 days");
    expect(JSON.stringify(blocks)).toContain("The chart is in your messages with Kassa.");
  });

  it("Slack refusing the chart's bytes: the report has every figure and says the chart could not be sent this time", async () => {
    const shared = stack.slack.files.shared().length;
    stack.slack.files.failUploads = 500;
    try {
      const { reply } = await stack.ask("summary 7d", { userId: "U0ADMIN" });
      const text = JSON.stringify(reply.body.blocks);
      expect(text).toContain("*Paid total*");
      expect(text).toContain("The chart could not be sent this time; the figures above are complete.");
      expect(text).not.toContain('"type":"image"');
    } finally {
      stack.slack.files.failUploads = 0;
    }
    expect(stack.slack.files.shared()).toHaveLength(shared);
  });

  it("without files:write the report still has every figure, and one line says the chart needs the permission", async () => {
    stack.slack.failApi("files.getUploadURLExternal", "missing_scope");
    try {
      const { reply } = await stack.ask("summary yesterday", { userId: "U0ADMIN" });
      const text = JSON.stringify(reply.body.blocks);
      expect(text).toContain("Invoices yesterday");
      expect(text).toContain("*Paid total*");
      expect(text).toContain("*Largest payments*");
      expect(text).toContain("The chart needs Kassa to be allowed to upload files");
      expect(text).not.toContain('"type":"image"');
    } finally {
      stack.slack.failApi("files.getUploadURLExternal", null);
    }
  });
});
