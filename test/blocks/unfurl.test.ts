import type { types } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { renderInvoiceV2, renderInvoiceV3, sampleInvoices } from "../../sandbox/fake-payments.js";
import { formatMoney } from "../../src/blocks/format.js";
import { OPEN_PAYMENT_PAGE_ACTION } from "../../src/blocks/invoice.js";
import { buildInvoiceUnfurl, type LinkUnfurl } from "../../src/blocks/unfurl.js";
import type { Invoice } from "../../src/payments/model.js";
import { invoiceFromV2, invoiceFromV3 } from "../../src/payments/normalize.js";
import { invoiceV2Schema, invoiceV3Schema } from "../../src/payments/schemas.js";
import { expectUnfurlWithinBlockKitLimits, unfurlProblems } from "../support/block-kit-limits.js";

const ZONE = "Europe/Moscow";
/** 15:00 in Moscow: samples were created 13:00 MSK and expire tomorrow 13:00 MSK. */
const NOW = new Date("2024-05-01T12:00:00Z");
const SAMPLES = sampleInvoices(NOW);
const EXPIRES = "<!date^1714644000^{date_short_pretty} {time}|2024-05-02 13:00:00 Europe/Moscow>";
const EXPIRED_AT = "<!date^1714478400^{date_short_pretty} {time}|2024-04-30 15:00:00 Europe/Moscow>";
const AS_OF = "<!date^1714564800^{date_short_pretty} {time}|2024-05-01 12:00:00 UTC>";

function invoiceOf(version: "v2" | "v3", id: string): Invoice {
  const sample = SAMPLES.find((invoice) => invoice.id === id);
  if (!sample) throw new Error(`no sample ${id}`);
  return version === "v2"
    ? invoiceFromV2(invoiceV2Schema.parse(JSON.parse(renderInvoiceV2(sample))), ZONE)
    : invoiceFromV3(invoiceV3Schema.parse(JSON.parse(renderInvoiceV3(sample))), ZONE);
}

const link = (id: string) => `https://pay.crystalpay.io/?i=${id}`;

/** Every unfurl a test builds goes through the Block Kit limits. */
function unfurl(invoice: Invoice, pasted = link(invoice.id)): LinkUnfurl {
  const built = buildInvoiceUnfurl(invoice, { now: NOW, link: pasted });
  expectUnfurlWithinBlockKitLimits(built);
  return built;
}

function section(built: LinkUnfurl): types.SectionBlock {
  const first = built.blocks[0];
  if (first?.type !== "section") throw new Error("the first block is not a section");
  return first;
}

const text = (built: LinkUnfurl) => section(built).text?.text ?? "";

describe("buildInvoiceUnfurl", () => {
  it("an unpaid invoice, block by block: id, state, amount, expiry, the payment page", () => {
    const invoice = invoiceOf("v2", "715308958_rPwTzvsvCm");
    expect(unfurl(invoice)).toEqual({
      fallback: "Invoice 715308958_rPwTzvsvCm: Not paid, amount 1,500.00 RUB, still to pay 1,500.00 RUB",
      blocks: [
        {
          type: "section",
          text: {
            type: "mrkdwn",
            text: [
              "*Invoice* `715308958_rPwTzvsvCm`",
              "*State:* :hourglass_flowing_sand: Not paid",
              "*Amount:* 1,500.00 RUB",
              `*Expires:* ${EXPIRES}`,
            ].join("\n"),
          },
          accessory: {
            type: "button",
            action_id: OPEN_PAYMENT_PAGE_ACTION,
            text: { type: "plain_text", text: "Open payment page" },
            url: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
          },
        },
        {
          type: "context",
          elements: [
            {
              type: "mrkdwn",
              text: `Kassa · as of ${AS_OF}, in your own timezone · \`/invoice 715308958_rPwTzvsvCm\` for the full card`,
            },
          ],
        },
      ],
    });
  });

  it.each(["v2", "v3"] as const)(
    "%s: each amount is the model's own Money, formatted as on the invoice card",
    (version) => {
      for (const sample of SAMPLES) {
        const invoice = invoiceOf(version, sample.id);
        const shown = text(unfurl(invoice));
        const amount = invoice.amounts.amount;
        if (amount) expect(shown).toContain(`*Amount:* ${formatMoney(amount)}`);
        else expect(shown).not.toContain("*Amount:*");
      }
    },
  );

  it("adds what is still to pay when it is another figure than the amount", () => {
    const wrong = text(unfurl(invoiceOf("v3", "715308960_WrongAmount")));
    expect(wrong).toContain("*Amount:* 2,500.50 RUB  ·  *Still to pay (shortfall):* 500.25 RUB");
    // Paid in BTC: the remaining figure carries the currency the answer ties it to.
    const crypto = invoiceOf("v2", "715308959_ProcessingBtc");
    const remaining = crypto.amounts.remainingAmount;
    expect(remaining?.currency).toBe("BTC");
    expect(text(unfurl(crypto))).toContain(`*Still to pay:* ${remaining ? formatMoney(remaining) : "?"}`);
  });

  it("leaves out a remaining figure that says nothing new: same as the amount, zero, paid, failed or expired", () => {
    expect(text(unfurl(invoiceOf("v2", "715308958_rPwTzvsvCm")))).not.toContain("Still to pay");
    expect(text(unfurl(invoiceOf("v3", "715308962_PaidInFull")))).not.toContain("Still to pay");
    const paidWithLeftover = invoiceOf("v2", "715308962_PaidInFull");
    paidWithLeftover.amounts.remainingAmount = { value: "1", currency: "RUB" };
    expect(text(unfurl(paidWithLeftover))).not.toContain("Still to pay");
    const failed = invoiceOf("v2", "715308961_FailedPay");
    failed.amounts.remainingAmount = { value: "1", currency: "RUB" };
    expect(text(unfurl(failed))).not.toContain("Still to pay");
  });

  it("says Paid, and shows nothing of the description, commissions or extra data", () => {
    const built = unfurl(invoiceOf("v3", "715308962_PaidInFull"));
    expect(text(built)).toContain("*State:* :white_check_mark: Paid");
    const all = JSON.stringify(built);
    for (const hidden of ["Annual plan", "channel", "crm:42", "246,913.58", "Commission"])
      expect(all).not.toContain(hidden);
  });

  it("marks an unpaid invoice past its expiry as expired", () => {
    const built = unfurl(invoiceOf("v2", "715308964_ExpiredUnpaid"));
    expect(text(built)).toContain(`:alarm_clock: *Expired* ${EXPIRED_AT}`);
    expect(text(built)).not.toContain("*Expires:*");
    expect(built.fallback).toContain("(expired)");
  });

  it("shows a state it does not know verbatim, as code", () => {
    expect(text(unfurl(invoiceOf("v2", "715308965_FutureState")))).toContain(
      "*State:* :grey_question: Unknown state `refunded`",
    );
  });

  it("escapes whatever the service sent, so nothing in it pings or links", () => {
    const invoice = { ...invoiceOf("v2", "715308958_rPwTzvsvCm"), id: "<!channel>`x", state: "<@U123>" };
    invoice.amounts = { amount: { value: "10", currency: "<!here>" } };
    const all = JSON.stringify(unfurl(invoice));
    for (const live of ["<!channel>", "<@U123>", "<!here>"]) expect(all).not.toContain(live);
    expect(text(unfurl(invoice))).toContain("&lt;!here&gt;");
  });

  it("says so when the answer names two currencies and ties the amount to neither", () => {
    const invoice: Invoice = {
      ...invoiceOf("v3", "715308958_rPwTzvsvCm"),
      currencyConflict: { amountCurrency: "USD", currency: "<EUR>" },
      amounts: { amount: { value: "100", currency: null } },
    };
    const shown = text(unfurl(invoice));
    expect(shown).toContain(`*Amount:* ${formatMoney({ value: "100", currency: null })}`);
    expect(shown).not.toMatch(/100 (USD|EUR)/);
    expect(shown).toContain("names two currencies for this invoice, USD and &lt;EUR&gt;");
  });

  it("opens the pasted link when the service's own is missing or not a web link", () => {
    const pasted = "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm&m=BITCOIN";
    for (const url of [null, "javascript:alert(1)", "not a url"]) {
      const invoice = { ...invoiceOf("v2", "715308958_rPwTzvsvCm"), url };
      expect(section(unfurl(invoice, pasted)).accessory).toMatchObject({ url: pasted });
    }
  });

  it("stays within Block Kit limits with outsized values", () => {
    const invoice = {
      ...invoiceOf("v3", "715308960_WrongAmount"),
      id: "x".repeat(5000),
      state: "y".repeat(5000),
    };
    invoice.amounts = {
      amount: { value: "9".repeat(3000), currency: "RUB" },
      remainingAmount: { value: "1".repeat(3000), currency: "RUB" },
    };
    unfurl(invoice);
  });

  it("the limits check would catch a broken unfurl", () => {
    expect(unfurlProblems({ fallback: "", blocks: [] })).toEqual([
      "fallback: the top-level fallback text is missing or empty",
      "blocks: empty",
    ]);
    expect(unfurlProblems({ fallback: "x", blocks: [{ type: "divider" }], color: "#fff" })).toEqual([
      "unfurl: unexpected keys color",
    ]);
  });
});
