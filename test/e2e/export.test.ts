import Big from "big.js";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SampleInvoice } from "../../sandbox/fake-payments.js";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { Stack } from "../../sandbox/stack.js";
import { formatAmount } from "../../src/blocks/format.js";
import { FIRST_MONTH_YEAR, periodBounds } from "../../src/reports/periods.js";
import { computes, readCsv } from "../support/csv.js";

const epochOf = (text: string) => Date.parse(`${text.replace(" ", "T")}+03:00`) / 1000;

/** RFC 4180 read back by hand: quoted fields with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else field += char;
  }
  return rows;
}

describe("/invoice export", () => {
  let stack: Stack;
  const now = new Date();
  const history = sampleHistory({ now, days: 40, perDay: 18, seed: 5 });
  // One awkward description: a comma, quotes, a line break, Cyrillic, and a would-be formula.
  const odd = history[history.length - 1] as SampleInvoice;
  odd.description = 'Заказ №7, "срочно"\nвторая строка';
  odd.extra = '=HYPERLINK("x")';
  Object.assign(odd, {
    state: "payed",
    method: "CARDRUBP2P",
    remainingAmount: "0",
    serviceCommission: "12.34",
  });
  delete odd.payCurrency;
  // One made to attack a spreadsheet in every text column the service fills, `;`-split Excel included.
  const hostile = history[history.length - 2] as SampleInvoice;
  Object.assign(hostile, {
    method: "=cmd|' /C calc'!A0",
    type: "-1+1",
    description: "x;=cmd|' /C calc'!A0",
    extra: "Order:\n- item 1",
  });
  beforeAll(async () => {
    stack = await Stack.start({ fake: { invoices: history } });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("sends every invoice of 30 days as RFC 4180 CSV (UTF-8 with BOM) to the asker's messages with Kassa", async () => {
    const { reply } = await stack.ask("export 30d", { userId: "U0ADMIN" });
    expect(JSON.stringify(reply.body)).toContain("Exporting invoices in the last 30 days as CSV");
    const [file] = await stack.slack.files.waitFor(1);
    expect(file?.channel).toBe("D0ADMIN");
    expect(file?.filename).toMatch(/^kassa-invoices-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = file?.bytes ?? Buffer.alloc(0);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8").slice(1);
    expect(text.endsWith("\r\n")).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "id",
      "created_at",
      "state",
      "type",
      "amount",
      "currency",
      "amount_rub",
      "paid_amount",
      "paid_currency",
      "commission",
      "commission_currency",
      "method",
      "description",
      "extra",
      "payment_link",
      "refunded_amount",
      "refunded_currency",
    ]);
    const span = periodBounds("30d", new Date(file?.at ?? Date.now()), "Europe/Moscow");
    if (!span) throw new Error("no span");
    const inSpan = history.filter((invoice) => {
      const at = epochOf(invoice.createdAt);
      return at >= span.from && at < span.to;
    });
    expect(rows).toHaveLength(inSpan.length);
    expect(new Set(rows.map((row) => row[0])).size).toBe(rows.length);
    const byId = new Map(rows.map((row) => [row[0], row]));
    for (const invoice of inSpan) {
      const row = byId.get(invoice.id);
      // v2: the amount in roubles, exact, with a dot and no grouping; the time with its offset.
      expect(row?.[4]).toBe(invoice.rubAmount ?? invoice.amount);
      expect(row?.[1]).toBe(`${invoice.createdAt.replace(" ", "T")}+03:00`);
      expect(row?.[14]).toBe(`https://pay.crystalpay.io/?i=${invoice.id}`);
    }
    const paid = inSpan
      .filter((invoice) => invoice.state === "payed" && invoice.method !== "TEST")
      .reduce((sum, invoice) => sum.plus(invoice.rubAmount ?? invoice.amount), new Big(0));
    expect(file?.initialComment).toContain(
      `Invoices in the last 30 days: ${inSpan.length.toLocaleString("en-US")} invoices, ${formatAmount(paid.toFixed(), "RUB")} paid`,
    );
  });

  it("writes v3's details (description, extra, paid, commission) exactly, and never a formula", async () => {
    const v3 = await Stack.start({ apiVersion: "v3", fake: { invoices: history } });
    try {
      v3.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
      await v3.ask("export 7d", { userId: "U0ADMIN" });
      const [file] = await v3.slack.files.waitFor(1);
      const rows = parseCsv((file?.bytes ?? Buffer.alloc(0)).toString("utf8").slice(1));
      const row = rows.find((r) => r[0] === odd.id);
      expect(row?.[12]).toBe('Заказ №7, "срочно"\nвторая строка');
      expect(row?.[13]).toBe('\'=HYPERLINK("x")');
      expect(row?.[5]).toBe(odd.currency);
      expect(row?.[4]).toBe(odd.amount);
      expect(row?.slice(7, 11)).toEqual([new Big(odd.amount).toFixed(), odd.currency, "12.34", odd.currency]);
      const text = (file?.bytes ?? Buffer.alloc(0)).toString("utf8").slice(1);
      for (const separator of [",", ";"])
        expect(readCsv(text, separator).flat().filter(computes), separator).toEqual([]);
      const attack = rows.find((r) => r[0] === hostile.id);
      expect(attack?.slice(11, 14)).toEqual([
        "'=cmd|' /C calc'!A0",
        "x;'=cmd|' /C calc'!A0",
        "Order:\n'- item 1",
      ]);
      expect(attack?.[3]).toBe("'-1+1");
    } finally {
      await v3.stop();
    }
  });

  it("sends xlsx with typed cells and a frozen header", async () => {
    await stack.ask("export xlsx 7d", { userId: "U0ADMIN" });
    const files = await stack.slack.files.waitFor(2);
    const file = files[1];
    expect(file?.filename).toMatch(/\.xlsx$/);
    const parts = unzipSync(new Uint8Array(file?.bytes ?? Buffer.alloc(0)));
    const sheet = strFromU8(parts["xl/worksheets/sheet1.xml"] ?? new Uint8Array());
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain('<c r="A1" t="inlineStr" s="1"><is><t xml:space="preserve">id</t></is></c>');
    // The created time is a date (style 2), the amount a number cell with the exact decimal.
    expect(sheet).toMatch(/<c r="B2" s="2"><v>\d+\.?\d*<\/v><\/c>/);
    expect(sheet).toMatch(/<c r="E2"><v>\d+(\.\d+)?<\/v><\/c>/);
    // Text is an inline string, never a formula, kept exactly: no `'` added.
    expect(sheet).toContain(`<t xml:space="preserve">=cmd|' /C calc'!A0</t>`);
    expect(sheet).not.toContain("<f>");
    expect(strFromU8(parts["xl/styles.xml"] ?? new Uint8Array())).toContain(
      'formatCode="yyyy-mm-dd hh:mm:ss"',
    );
  });

  it("refuses those who may not see the balance, saying who may; nothing is read or sent", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("export 7d", { userId: "U0MEMBER" });
    expect(JSON.stringify(reply.body)).toContain("only those who may see the balance may make one");
    expect(stack.fake.requests.length).toBe(before);
  });

  it("says when Kassa may not send files or direct messages yet", async () => {
    stack.slack.failApi("conversations.open", "missing_scope");
    try {
      const { reply } = await stack.ask("export", { userId: "U0ADMIN" });
      expect(JSON.stringify(reply.body)).toContain(
        "Kassa may not send files or direct messages in this workspace yet",
      );
    } finally {
      stack.slack.failApi("conversations.open", null);
    }
  });

  it("Slack not taking the file: the asker is told, nothing half-shared; asked again, it goes without reading the history again", async () => {
    const shared = stack.slack.files.shared().length;
    stack.slack.failApi("files.completeUploadExternal", "internal_error");
    try {
      await stack.ask("export 7d", { userId: "U0ADMIN" });
      await stack.slack.waitForMessages((messages) =>
        messages.some(
          (message) => message.channel === "D0ADMIN" && message.text.includes("Slack did not take the file"),
        ),
      );
    } finally {
      stack.slack.failApi("files.completeUploadExternal", null);
    }
    expect(stack.slack.files.shared()).toHaveLength(shared);
    const reads = stack.fake.requests.filter((request) => request.path.includes("history")).length;
    await stack.ask("export 7d", { userId: "U0ADMIN" });
    const files = await stack.slack.files.waitFor(shared + 1);
    expect(files[shared]?.filename).toMatch(/\.csv$/);
    expect(files[shared]?.channel).toBe("D0ADMIN");
    // What the failed try read is kept: the second one asks the service nothing.
    expect(stack.fake.requests.filter((request) => request.path.includes("history")).length).toBe(reads);
  });

  it("answers a wrong export with how to write it", async () => {
    const { reply } = await stack.ask("export pdf", { userId: "U0ADMIN" });
    expect(JSON.stringify(reply.body)).toContain("`/invoice export` takes a period");
  });

  it("answers a month before 2000 with how to write it, for a summary and an export alike", async () => {
    for (const month of ["0000-01", "0001-01"]) {
      const summary = await stack.ask(`summary ${month}`, { userId: "U0ADMIN" });
      expect(JSON.stringify(summary.reply.body)).toContain(
        `\`/invoice summary\` takes \`today\` (the default), \`yesterday\`, \`7d\`, \`30d\` or a month from \`${FIRST_MONTH_YEAR}-01\` on`,
      );
      const exported = await stack.ask(`export ${month} xlsx`, { userId: "U0ADMIN" });
      expect(JSON.stringify(exported.reply.body)).toContain("`/invoice export` takes a period");
    }
    const usages = stack
      .logEntries()
      .filter((entry) => entry.command === "/invoice" && entry.outcome === "usage");
    expect(usages.length).toBeGreaterThanOrEqual(4);
  });
});
