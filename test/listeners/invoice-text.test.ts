import { describe, expect, it } from "vitest";
import { parseInvoiceText } from "../../src/listeners/commands/invoice-text.js";

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
      reason: "That is not a valid invoice id",
      input: id,
    });
  });

  it.each([
    ["a b", "Give one invoice id, without spaces"],
    [`${ID} ${ID}`, "Give one invoice id, without spaces"],
    [`${ID}\textra`, "Give one invoice id, without spaces"],
    ["<script>", "That is not a valid invoice id"],
    ["<script>alert(1)</script>", "That is not a valid invoice id"],
    ["../..", "That is not a valid invoice id"],
    ["../../etc/passwd", "That is not a valid invoice id"],
    ["715308958.rPwTzvsvCm", "That is not a valid invoice id"],
    ["<!channel>", "That is not a valid invoice id"],
    ["<@U123>", "That is not a valid invoice id"],
    ["id;drop", "That is not a valid invoice id"],
    ["счёт", "That is not a valid invoice id"],
    ["%2e%2e", "That is not a valid invoice id"],
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
      ["https://pay.crystalpay.io/", "That link has no invoice id (`?i=...`)"],
      ["<https://pay.crystalpay.io/>", "That link has no invoice id (`?i=...`)"],
      ["https://pay.crystalpay.io/?id=715308958_rPwTzvsvCm", "That link has no invoice id (`?i=...`)"],
      ["<https://pay.crystalpay.io/?m=BITCOIN|label>", "That link has no invoice id (`?i=...`)"],
      ["https://pay.crystalpay.io/?i=", "The invoice id in that link is not valid"],
      ["https://pay.crystalpay.io/?i=../..", "The invoice id in that link is not valid"],
      ["https://pay.crystalpay.io/?i=a%20b", "The invoice id in that link is not valid"],
      [`https://pay.crystalpay.io/?i=${"x".repeat(65)}`, "The invoice id in that link is not valid"],
      ["https://", "That link cannot be read"],
      ["http://[::1", "That link cannot be read"],
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
        reason: "That is not a valid invoice id",
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
