import { describe, expect, it } from "vitest";
import { parseInvoiceText } from "../../src/listeners/commands/invoice-text.js";
import { parseRubAmount } from "../../src/util/rub-amount.js";

const ID = "715308958_rPwTzvsvCm";
const PAGE = `https://pay.crystalpay.io/?i=${ID}`;

describe("parseInvoiceText", () => {
  it("reads a Slack-escaped link whose id is not the first parameter", () => {
    expect(parseInvoiceText("<https://pay.crystalpay.io/?m=BITCOIN&amp;i=715308958_rPwTzvsvCm>")).toEqual({
      kind: "lookup",
      invoiceId: "715308958_rPwTzvsvCm",
    });
  });

  it.each(["", "   ", "help", "HELP", " help ", "Help", "?", "-h", "--help"])("%j -> help", (text) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "help" });
  });

  it.each([
    [ID, ID],
    [`  ${ID}  `, ID],
    [`${ID}\n`, ID],
    ["a", "a"],
    ["ABC-def_123", "ABC-def_123"],
    ["x".repeat(64), "x".repeat(64)],
    ["helpme", "helpme"],
  ])("%j -> lookup %j", (text, invoiceId) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "lookup", invoiceId });
  });

  it("rejects a 65-character id", () => {
    const id = "x".repeat(65);
    expect(parseInvoiceText(id)).toEqual({
      kind: "invalid",
      reason: "bad_id",
      input: id,
    });
  });

  it.each([
    ["a b", "spaces"],
    [`${ID} ${ID}`, "spaces"],
    [`${ID}\textra`, "spaces"],
    ["<script>", "bad_id"],
    ["<script>alert(1)</script>", "bad_id"],
    ["../..", "bad_id"],
    ["../../etc/passwd", "bad_id"],
    ["715308958.rPwTzvsvCm", "bad_id"],
    ["<!channel>", "bad_id"],
    ["<@U123>", "bad_id"],
    ["id;drop", "bad_id"],
    ["счёт", "bad_id"],
    ["%2e%2e", "bad_id"],
  ])("%j -> invalid (%s)", (text, reason) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "invalid", reason, input: text.trim() });
  });

  describe("payment page links", () => {
    it.each([
      PAGE,
      `  ${PAGE}  `,
      `<${PAGE}>`,
      `<${PAGE}|pay.crystalpay.io/?i=${ID}>`,
      `<${PAGE}|Pay here>`,
      `${PAGE}&m=BITCOIN`,
      // Slack escapes & in command text as &amp;: the id still comes first.
      `<${PAGE}&amp;m=BITCOIN>`,
      `http://pay.crystalpay.io/?i=${ID}`,
      `HTTPS://PAY.CRYSTALPAY.IO/?i=${ID}`,
      `https://pay.crystalpay.io/?m=BITCOIN&i=${ID}`,
    ])("%s -> lookup", (text) => {
      expect(parseInvoiceText(text)).toEqual({ kind: "lookup", invoiceId: ID });
    });

    it.each([
      ["https://pay.crystalpay.io/", "link_no_id"],
      ["<https://pay.crystalpay.io/>", "link_no_id"],
      ["https://pay.crystalpay.io/?id=715308958_rPwTzvsvCm", "link_no_id"],
      ["<https://pay.crystalpay.io/?m=BITCOIN|label>", "link_no_id"],
      ["https://pay.crystalpay.io/?i=", "link_bad_id"],
      ["https://pay.crystalpay.io/?i=../..", "link_bad_id"],
      ["https://pay.crystalpay.io/?i=a%20b", "link_bad_id"],
      [`https://pay.crystalpay.io/?i=${"x".repeat(65)}`, "link_bad_id"],
      ["https://", "link_unreadable"],
      ["http://[::1", "link_unreadable"],
    ])("%s -> invalid (%s)", (text, reason) => {
      expect(parseInvoiceText(text)).toEqual({ kind: "invalid", reason, input: text });
    });

    it("accepts a 64-character id in a link", () => {
      const id = "y".repeat(64);
      expect(parseInvoiceText(`<https://pay.crystalpay.io/?i=${id}>`)).toEqual({
        kind: "lookup",
        invoiceId: id,
      });
    });

    it("does not treat a non-http scheme as a link", () => {
      expect(parseInvoiceText(`javascript:alert(1)//?i=${ID}`)).toEqual({
        kind: "invalid",
        reason: "bad_id",
        input: `javascript:alert(1)//?i=${ID}`,
      });
    });
  });
});

describe("/invoice new", () => {
  it("reads amount, currency and description", () => {
    expect(parseInvoiceText("new 1500 USD Order 10232")).toEqual({
      kind: "create",
      prefill: { amount: "1500", currency: "USD", description: "Order 10232" },
    });
  });

  it("takes each part only when it is there", () => {
    expect(parseInvoiceText("new")).toEqual({ kind: "create", prefill: {} });
    expect(parseInvoiceText("NEW 99,90")).toEqual({ kind: "create", prefill: { amount: "99.90" } });
    expect(parseInvoiceText("new btc")).toEqual({ kind: "create", prefill: { currency: "BTC" } });
    expect(parseInvoiceText("new Order 7 &amp; more")).toEqual({
      kind: "create",
      prefill: { description: "Order 7 & more" },
    });
    // An unknown currency stays part of the description; the modal's select defaults to RUB.
    expect(parseInvoiceText("new 10 XYZ gift")).toEqual({
      kind: "create",
      prefill: { amount: "10", description: "XYZ gift" },
    });
  });
});

describe("/invoice new: who it is for", () => {
  const prefill = (text: string) => {
    const request = parseInvoiceText(text);
    return request.kind === "create" ? request.prefill : request;
  };

  it("reads the customer (quoted or one word) and the payer's e-mail right after amount and currency", () => {
    expect(prefill('new 1500 USD customer "Acme Ltd" email pay@acme.example Order 10232')).toEqual({
      amount: "1500",
      currency: "USD",
      customer: "Acme Ltd",
      email: "pay@acme.example",
      description: "Order 10232",
    });
    expect(prefill("new 1500 email pay@acme.example customer Acme")).toEqual({
      amount: "1500",
      customer: "Acme",
      email: "pay@acme.example",
    });
    expect(prefill("new customer “ООО Ромашка” Заказ 5")).toEqual({
      customer: "ООО Ромашка",
      description: "Заказ 5",
    });
    expect(prefill("new 10 клиент «Acme &amp; Co» почта a@b.co")).toEqual({
      amount: "10",
      customer: "Acme & Co",
      email: "a@b.co",
    });
    expect(prefill("new 10 e-mail <mailto:a@b.co|a@b.co> gift")).toEqual({
      amount: "10",
      email: "a@b.co",
      description: "gift",
    });
  });

  it("leaves today's descriptions whole: words later on, an e-mail that is not one, a second customer", () => {
    expect(prefill("new 1500 RUB Order for Acme, email me")).toEqual({
      amount: "1500",
      currency: "RUB",
      description: "Order for Acme, email me",
    });
    expect(prefill("new 1500 email campaign")).toEqual({ amount: "1500", description: "email campaign" });
    expect(prefill("new 5 customer A customer B")).toEqual({
      amount: "5",
      customer: "A",
      description: "customer B",
    });
    expect(prefill("new 5 Order 7 customer Acme")).toEqual({
      amount: "5",
      description: "Order 7 customer Acme",
    });
  });
});

describe("/invoice subscribe words and /invoice feed", () => {
  const words = (text: string) => {
    const request = parseInvoiceText(text);
    return request.kind === "subscribe" ? request.words : request.kind;
  };

  it("reads what to post and the rouble amount, in English and in Russian; words add up", () => {
    expect(words("subscribe")).toBeNull();
    expect(words("subscribe paid")).toEqual({ events: ["paid"], minRub: null });
    expect(words("subscribe paid over 10000")).toEqual({ events: ["paid"], minRub: "10000" });
    expect(words("Subscribe FAILURES")).toEqual({
      events: ["failed", "wrongamount", "expired"],
      minRub: null,
    });
    expect(words("subscribe all over 50000")).toEqual({
      events: ["paid", "failed", "wrongamount", "expired", "new"],
      minRub: "50000",
    });
    expect(words("subscribe paid failures from 10 000 RUB")).toEqual({
      events: ["paid", "failed", "wrongamount", "expired"],
      minRub: "10000",
    });
    expect(words("subscribe оплаченные от 10000,50")).toEqual({ events: ["paid"], minRub: "10000.5" });
    expect(words("subscribe сбои свыше 1 000 ₽")).toEqual({
      events: ["failed", "wrongamount", "expired"],
      minRub: "1000",
    });
    expect(words("subscribe все")).toMatchObject({ minRub: null });
    expect(words("subscribe over 15000")).toEqual({ events: ["paid"], minRub: "15000" });
    expect(words("subscribe 15000")).toEqual({ events: ["paid"], minRub: "15000" });
  });

  it("answers anything else with how to write it", () => {
    for (const text of [
      "subscribe everything",
      "subscribe paid over",
      "subscribe paid over lots",
      "subscribe paid over 0",
      "subscribe paid over 10.005",
      "subscribe over 10000 paid",
      "subscribe paid over -5",
    ])
      expect(parseInvoiceText(text), text).toMatchObject({ kind: "invalid", reason: "subscribe_arg" });
  });

  it("`/invoice feed` (or `лента`) asks for the channel's feed form", () => {
    expect(parseInvoiceText("feed")).toEqual({ kind: "feed" });
    expect(parseInvoiceText("Лента")).toEqual({ kind: "feed" });
  });
});

describe("parseRubAmount", () => {
  it("takes roubles as people write them, and nothing else", () => {
    const cases: Array<[string, string | null]> = [
      ["10000", "10000"],
      ["10 000", "10000"],
      ["10,000", "10000"],
      ["1,000,000.25", "1000000.25"],
      ["10000,50", "10000.5"],
      ["10000.00", "10000"],
      ["0.5", "0.5"],
      ["5000₽", "5000"],
      ["7 500 руб", "7500"],
      ["", null],
    ];
    for (const [text, value] of cases) expect(parseRubAmount(text), text).toBe(value);
    for (const text of ["0", "0,00", "12.345", "1e5", "10k", "abc", "1234567890123"])
      expect(parseRubAmount(text), text).toBe("invalid");
  });
});

describe("parseInvoiceText: the report's periods", () => {
  it.each([
    ["summary", "today"],
    ["summary yesterday", "yesterday"],
    ["summary week", "7d"],
    ["summary 7D", "7d"],
    ["summary 30d", "30d"],
    ["summary 2026-10", "2026-10"],
  ])("%j -> %j", (text, period) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "summary", period });
  });

  it.each([
    "summary 2026-13",
    "summary 2026-1",
    "summary month",
    "summary 30d extra",
    "summary 0000-01",
    "summary 0001-01",
    "summary 1999-12",
  ])("%j -> how to write a period", (text) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "invalid", reason: "summary_arg", input: text });
  });
});

describe("parseInvoiceText: the export's words", () => {
  it.each([
    ["export", "today", "csv"],
    ["export xlsx 2000-01", "2000-01", "xlsx"],
    ["export 2026-10 csv", "2026-10", "csv"],
  ])("%j -> %j as %j", (text, period, format) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "export", period, format });
  });

  it.each(["export 0000-01", "export 0001-01 xlsx", "export 1999-12", "export pdf"])(
    "%j -> how to write an export",
    (text) => {
      expect(parseInvoiceText(text)).toEqual({ kind: "invalid", reason: "export_arg", input: text });
    },
  );
});

describe("parseInvoiceText: what is still unpaid", () => {
  it.each([
    ["unpaid", "30d", null],
    ["UNPAID 7d", "7d", null],
    ["unpaid week", "7d", null],
    ["unpaid 2026-10 Acme Ltd", "2026-10", "Acme Ltd"],
    ["unpaid Acme Ltd", "30d", "Acme Ltd"],
    ['unpaid today "Globex Corp"', "today", "Globex Corp"],
    ["неоплаченные 30d «Ромашка»", "30d", "Ромашка"],
    ["Неоплаченные", "30d", null],
  ])("%j -> %j for %j", (text, period, customer) => {
    expect(parseInvoiceText(text)).toEqual({ kind: "unpaid", period, customer });
  });

  it("a customer's name is kept to 80 characters; `list unpaid` stays the list's filter", () => {
    expect(parseInvoiceText(`unpaid ${"x".repeat(200)}`)).toMatchObject({ customer: "x".repeat(80) });
    expect(parseInvoiceText("list unpaid")).toEqual({ kind: "list", filter: "notpaid" });
  });
});
