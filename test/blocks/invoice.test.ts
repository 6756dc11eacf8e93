import type { types } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import {
  renderInvoiceV2,
  renderInvoiceV3,
  type SampleInvoice,
  sampleInvoices,
} from "../../sandbox/fake-payments.js";
import { formatDecimal, formatMoney, slackDate } from "../../src/blocks/format.js";
import {
  buildInvoiceMessage,
  INVOICE_STATES,
  invoiceFallbackText,
  isExpired,
  linkUrl,
  parseEnteredAmount,
  stateText,
  UNKNOWN_STATE_HINT,
} from "../../src/blocks/invoice.js";
import type { SlackMessage } from "../../src/blocks/message.js";
import type { Invoice } from "../../src/payments/model.js";
import { invoiceFromV2, invoiceFromV3 } from "../../src/payments/normalize.js";
import { invoiceV2Schema, invoiceV3Schema } from "../../src/payments/schemas.js";
import { blockKitProblems, expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const ZONE = "Europe/Moscow";
/** 15:00 in Moscow. Sample times are relative to it: created 13:00 MSK (10:00Z), expires tomorrow 13:00 MSK. */
const NOW = new Date("2024-05-01T12:00:00Z");
const SAMPLES = sampleInvoices(NOW);

const CREATED = "<!date^1714557600^{date_short_pretty} {time}|2024-05-01 13:00:00 Europe/Moscow>";
const EXPIRES = "<!date^1714644000^{date_short_pretty} {time}|2024-05-02 13:00:00 Europe/Moscow>";
const FINAL = "<!date^1714561200^{date_short_pretty} {time}|2024-05-01 14:00:00 Europe/Moscow>";
const EXPIRED_CREATED = "<!date^1714392000^{date_short_pretty} {time}|2024-04-29 15:00:00 Europe/Moscow>";
const EXPIRED_AT = "<!date^1714478400^{date_short_pretty} {time}|2024-04-30 15:00:00 Europe/Moscow>";

type Version = "v2" | "v3";
const VERSIONS: Version[] = ["v2", "v3"];

function sample(id: string): SampleInvoice {
  const found = SAMPLES.find((invoice) => invoice.id === id);
  if (!found) throw new Error(`no sample ${id}`);
  return found;
}

function rawJson(version: Version, invoice: SampleInvoice): Record<string, unknown> {
  const text = version === "v2" ? renderInvoiceV2(invoice) : renderInvoiceV3(invoice);
  return JSON.parse(text) as Record<string, unknown>;
}

function toInvoice(version: Version, raw: Record<string, unknown>): Invoice {
  return version === "v2"
    ? invoiceFromV2(invoiceV2Schema.parse(raw), ZONE)
    : invoiceFromV3(invoiceV3Schema.parse(raw), ZONE);
}

/** The sample as the service would send it in `version`, with raw JSON fields overridden by `patch`. */
function invoiceOf(version: Version, invoice: SampleInvoice, patch: Record<string, unknown> = {}): Invoice {
  return toInvoice(version, { ...rawJson(version, invoice), ...patch });
}

/** Every card a test builds goes through the Block Kit limits. */
function card(invoice: Invoice, now: Date = NOW): SlackMessage {
  const message = buildInvoiceMessage(invoice, { now, teamId: "T0SANDBOX" });
  expectWithinBlockKitLimits(message);
  return message;
}

const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const money = (value: string, currency: string | null) => ({ value, currency });

function sections(message: SlackMessage): types.SectionBlock[] {
  return message.blocks.filter((block): block is types.SectionBlock => block.type === "section");
}

/** "*Label*\nvalue" fields of every section, in order, as [label, value]. */
function fields(message: SlackMessage): [string, string][] {
  return sections(message).flatMap((block) =>
    (block.fields ?? []).map((element): [string, string] => {
      const match = /^\*([^*\n]+)\*\n([\s\S]*)$/.exec(element.text);
      if (!match) throw new Error(`field without a label: ${element.text}`);
      const [, label = "", value = ""] = match;
      return [label, value];
    }),
  );
}

function fieldValue(message: SlackMessage, label: string): string | undefined {
  return fields(message).find(([name]) => name === label)?.[1];
}

/** The text of the section that starts with `*prefix*`. */
function sectionText(message: SlackMessage, prefix: string): string | undefined {
  return sections(message)
    .map((block) => block.text?.text)
    .find((text) => text?.startsWith(prefix));
}

function headerText(message: SlackMessage): string {
  const header = message.blocks[0];
  if (header?.type !== "header") throw new Error("the first block is not a header");
  return header.text.text;
}

/** Link buttons only (the payment page); Refresh and Share carry values, not URLs. */
function buttons(message: SlackMessage): types.Button[] {
  return message.blocks
    .filter((block): block is types.ActionsBlock => block.type === "actions")
    .flatMap((block) =>
      block.elements.filter(
        (element): element is types.Button => element.type === "button" && element.url !== undefined,
      ),
    );
}

const MONEY_LABELS = new Set([
  "Invoice amount",
  "Amount in RUB",
  "Initial amount",
  "Pay amount",
  "Amount to pay",
  "Amount paid",
  "Amount that was due",
  "Still to pay",
  "Still to pay (shortfall)",
  "Remaining amount",
  "To be credited when paid",
  "To be credited when paid in full",
  "Credited to balance",
  "Balance amount",
  "Service commission",
  "Extra commission",
  "Commission",
]);

function moneyFields(message: SlackMessage): [string, string][] {
  return fields(message).filter(([label]) => MONEY_LABELS.has(label));
}

describe("buildInvoiceMessage: the whole card", () => {
  it("v2 unpaid invoice, block by block", () => {
    const message = card(invoiceOf("v2", sample("715308958_rPwTzvsvCm")));
    expect(message).toEqual({
      response_type: "in_channel",
      text: "Invoice 715308958_rPwTzvsvCm: Not paid, amount 1,500.00 RUB, still to pay 1,500.00 RUB",
      blocks: [
        {
          type: "header",
          text: { type: "plain_text", text: "Invoice 715308958_rPwTzvsvCm", emoji: false },
        },
        { type: "section", text: mrkdwn("*State:* :hourglass_flowing_sand: Not paid\n*Type:* Purchase") },
        {
          type: "section",
          fields: [
            mrkdwn("*Invoice amount*\n1,500.00 RUB"),
            mrkdwn("*Amount to pay*\n1,500.00 RUB"),
            mrkdwn("*Still to pay*\n1,500.00 RUB"),
            mrkdwn("*To be credited when paid*\n1,500.00 RUB"),
            mrkdwn("*Service commission*\n0.00 RUB"),
            mrkdwn("*Extra commission*\n0.00 RUB"),
          ],
        },
        {
          type: "section",
          fields: [
            mrkdwn("*Method*\n_not chosen yet_"),
            mrkdwn("*Required method*\nany"),
            mrkdwn(`*Created*\n${CREATED}`),
            mrkdwn(`*Expires*\n${EXPIRES}`),
          ],
        },
        { type: "section", text: mrkdwn("*Description*\nOrder #1042") },
        {
          type: "actions",
          block_id: "invoice_actions",
          elements: [
            {
              type: "button",
              action_id: "open_payment_page",
              text: { type: "plain_text", text: "Open payment page" },
              url: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
            },
            {
              type: "button",
              action_id: "invoice_refresh",
              text: { type: "plain_text", text: "Refresh" },
              value: '{"t":"T0SANDBOX","id":"715308958_rPwTzvsvCm","s":"notpayed"}',
            },
          ],
        },
        {
          type: "context",
          elements: [
            mrkdwn("Times are shown in your own timezone; the service's are Europe/Moscow. API v2."),
          ],
        },
      ],
    });
  });

  it("v3 paid invoice, block by block (final time, commission source, escaped description)", () => {
    const message = card(invoiceOf("v3", sample("715308962_PaidInFull")));
    expect(message).toEqual({
      response_type: "in_channel",
      text: "Invoice 715308962_PaidInFull: Paid, amount 12,345,678.90 RUB",
      blocks: [
        {
          type: "header",
          text: { type: "plain_text", text: "Invoice 715308962_PaidInFull", emoji: false },
        },
        { type: "section", text: mrkdwn("*State:* :white_check_mark: Paid\n*Type:* Purchase") },
        {
          type: "section",
          fields: [
            // amount, initial_amount and rub_amount are the same RUB figure: shown once.
            mrkdwn("*Invoice amount*\n12,345,678.90 RUB"),
            mrkdwn("*Credited to balance*\n12,098,765.32 RUB"),
            mrkdwn("*Commission*\n246,913.58 RUB"),
          ],
        },
        {
          type: "section",
          fields: [
            mrkdwn("*Method*\n`CRYSTALPAY`"),
            mrkdwn("*Required method*\nany"),
            mrkdwn(`*Created*\n${CREATED}`),
            mrkdwn(`*Expires*\n${EXPIRES}`),
            mrkdwn(`*Final*\n${FINAL}`),
            mrkdwn("*Commission taken from*\nthe cash register's balance (you cover it)"),
          ],
        },
        {
          type: "section",
          text: mrkdwn(
            "*Description*\nAnnual plan &lt;!channel&gt; &amp; *bold* &lt;https://evil.example|click&gt;",
          ),
        },
        { type: "section", text: mrkdwn("*Extra*\ncrm:42") },
        {
          type: "actions",
          block_id: "invoice_actions",
          elements: [
            {
              type: "button",
              action_id: "open_payment_page",
              text: { type: "plain_text", text: "Open payment page" },
              url: "https://pay.crystalpay.io/?i=715308962_PaidInFull",
            },
            {
              type: "button",
              action_id: "invoice_refresh",
              text: { type: "plain_text", text: "Refresh" },
              value: '{"t":"T0SANDBOX","id":"715308962_PaidInFull","s":"payed"}',
            },
          ],
        },
        {
          type: "context",
          elements: [
            mrkdwn("Times are shown in your own timezone; the service's are Europe/Moscow. API v3."),
          ],
        },
      ],
    });
  });
});

type StateCase = {
  id: string;
  state: string;
  type: string;
  method: string;
  requiredMethod: string;
  /** The plain state in the fallback text. */
  plain: string;
};

const STATE_CASES: StateCase[] = [
  {
    id: "715308958_rPwTzvsvCm",
    state: ":hourglass_flowing_sand: Not paid",
    type: "Purchase",
    method: "_not chosen yet_",
    requiredMethod: "any",
    plain: "Not paid",
  },
  {
    id: "715308959_ProcessingBtc",
    state: ":arrows_counterclockwise: Payment processing",
    type: "Purchase",
    method: "`BITCOIN`",
    requiredMethod: "any",
    plain: "Payment processing",
  },
  {
    id: "715308960_WrongAmount",
    state: ":warning: Wrong amount paid (more payment needed)",
    type: "Purchase",
    method: "`CARDRUBP2P`",
    requiredMethod: "any",
    plain: "Wrong amount paid (more payment needed)",
  },
  {
    id: "715308961_FailedPay",
    state: ":x: Payment failed",
    type: "Purchase",
    method: "`CARDTRYP2P`",
    requiredMethod: "any",
    plain: "Payment failed",
  },
  {
    id: "715308962_PaidInFull",
    state: ":white_check_mark: Paid",
    type: "Purchase",
    method: "`CRYSTALPAY`",
    requiredMethod: "any",
    plain: "Paid",
  },
  {
    id: "715308963_Unavailable",
    state: ":no_entry: Payment method unavailable",
    type: "Purchase",
    method: "`TEST`",
    requiredMethod: "`TEST`",
    plain: "Payment method unavailable",
  },
  {
    id: "715308965_FutureState",
    state:
      ":grey_question: Unknown state `refunded`\n_The payment service reported a state Kassa does not know yet._",
    type: "`subscription`",
    method: "_not chosen yet_",
    requiredMethod: "any",
    plain: "refunded",
  },
];

describe.each(VERSIONS)("buildInvoiceMessage: every sample state (%s)", (version) => {
  it("covers every sample and every known state", () => {
    const covered = new Set(STATE_CASES.map((c) => c.id));
    covered.add("715308964_ExpiredUnpaid");
    // The documented examples: their money is pinned in "amounts, each with its own currency".
    for (const id of ["715308966_PaidBitcoin", "715308967_UsdCurrencyOnly", "715308968_UsdOlderRevision"]) {
      covered.add(id);
    }
    expect(SAMPLES.map((s) => s.id).filter((id) => !covered.has(id))).toEqual([]);
    const states = new Set(SAMPLES.map((s) => s.state));
    for (const known of Object.keys(INVOICE_STATES)) expect(states.has(known)).toBe(true);
  });

  it.each(STATE_CASES)("$id", (c) => {
    const message = card(invoiceOf(version, sample(c.id)));
    expect(headerText(message)).toBe(`Invoice ${c.id}`);
    expect(sections(message)[0]?.text?.text).toBe(`*State:* ${c.state}\n*Type:* ${c.type}`);
    expect(fieldValue(message, "Method")).toBe(c.method);
    expect(fieldValue(message, "Required method")).toBe(c.requiredMethod);
    expect(fieldValue(message, "Created")).toBe(CREATED);
    expect(fieldValue(message, "Expires")).toBe(EXPIRES);
    expect(fieldValue(message, "Expired")).toBeUndefined();
    expect(message.text.startsWith(`Invoice ${c.id}: ${c.plain}, amount `)).toBe(true);
    expect(message.text).not.toContain("expired");
    expect(message.response_type).toBe("in_channel");
    expect(buttons(message).map((button) => button.url)).toEqual([`https://pay.crystalpay.io/?i=${c.id}`]);
    const context = message.blocks.at(-1);
    expect(context?.type === "context" && context.elements[0]).toEqual(
      mrkdwn(`Times are shown in your own timezone; the service's are Europe/Moscow. API ${version}.`),
    );
    // Final time and the commission's source exist in v3 only.
    expect(fieldValue(message, "Final")).toBe(
      version === "v3" && c.id === "715308962_PaidInFull" ? FINAL : undefined,
    );
    expect(fieldValue(message, "Commission taken from")).toBe(
      version === "v3" ? "the cash register's balance (you cover it)" : undefined,
    );
  });

  it("an expired unpaid top-up is marked expired in the state line, field and fallback", () => {
    const message = card(invoiceOf(version, sample("715308964_ExpiredUnpaid")));
    expect(sections(message)[0]?.text?.text).toBe(
      `*State:* :hourglass_flowing_sand: Not paid  ·  :alarm_clock: *Expired* ${EXPIRED_AT}\n*Type:* Top-up`,
    );
    expect(fieldValue(message, "Created")).toBe(EXPIRED_CREATED);
    expect(fieldValue(message, "Expired")).toBe(EXPIRED_AT);
    expect(fieldValue(message, "Expires")).toBeUndefined();
    expect(message.text).toBe("Invoice 715308964_ExpiredUnpaid: Not paid (expired), amount 0.10 RUB");
  });
});

describe("buildInvoiceMessage: amounts, each with its own currency", () => {
  /**
   * Expected money fields per sample, in card order. v2: the invoice amount in RUB, the rest in its one
   * `currency`. v3: each figure once (initial_amount and rub_amount equal to a RUB amount are not
   * repeated), all in the invoice currency.
   */
  const MONEY: Record<string, { v2: [string, string][]; v3: [string, string][] }> = {
    "715308958_rPwTzvsvCm": {
      v2: [
        ["Invoice amount", "1,500.00 RUB"],
        ["Amount to pay", "1,500.00 RUB"],
        ["Still to pay", "1,500.00 RUB"],
        ["To be credited when paid", "1,500.00 RUB"],
        ["Service commission", "0.00 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "1,500.00 RUB"],
        ["Still to pay", "1,500.00 RUB"],
        ["To be credited when paid", "1,500.00 RUB"],
        ["Commission", "0.00 RUB"],
      ],
    },
    "715308960_WrongAmount": {
      v2: [
        ["Invoice amount", "2,500.50 RUB"],
        ["Amount to pay", "2,500.50 RUB"],
        ["Still to pay (shortfall)", "500.25 RUB"],
        ["To be credited when paid in full", "1,950.13 RUB"],
        ["Service commission", "50.12 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "2,500.50 RUB"],
        ["Still to pay (shortfall)", "500.25 RUB"],
        ["To be credited when paid in full", "1,950.13 RUB"],
        ["Commission", "50.12 RUB"],
      ],
    },
    "715308961_FailedPay": {
      v2: [
        ["Invoice amount", "990.99 RUB"],
        ["Amount that was due", "990.99 RUB"],
        ["Service commission", "0.00 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "990.99 RUB"],
        ["Commission", "0.00 RUB"],
      ],
    },
    "715308962_PaidInFull": {
      v2: [
        ["Invoice amount", "12,345,678.90 RUB"],
        ["Amount paid", "12,345,678.90 RUB"],
        ["Credited to balance", "12,098,765.32 RUB"],
        ["Service commission", "246,913.58 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "12,345,678.90 RUB"],
        ["Credited to balance", "12,098,765.32 RUB"],
        ["Commission", "246,913.58 RUB"],
      ],
    },
    "715308963_Unavailable": {
      v2: [
        ["Invoice amount", "10.00 RUB"],
        ["Amount that was due", "10.00 RUB"],
        ["Service commission", "0.00 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "10.00 RUB"],
        ["Commission", "0.00 RUB"],
      ],
    },
    "715308964_ExpiredUnpaid": {
      v2: [
        ["Invoice amount", "0.10 RUB"],
        ["Amount that was due", "0.10 RUB"],
        ["Service commission", "0.00 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "0.10 RUB"],
        ["Commission", "0.00 RUB"],
      ],
    },
    "715308965_FutureState": {
      v2: [
        ["Invoice amount", "42.00 RUB"],
        ["Pay amount", "42.00 RUB"],
        ["Remaining amount", "42.00 RUB"],
        ["Balance amount", "42.00 RUB"],
        ["Service commission", "0.00 RUB"],
        ["Extra commission", "0.00 RUB"],
      ],
      v3: [
        ["Invoice amount", "42.00 RUB"],
        ["Remaining amount", "42.00 RUB"],
        ["Balance amount", "42.00 RUB"],
        ["Commission", "0.00 RUB"],
      ],
    },
  };

  for (const version of VERSIONS) {
    it.each(Object.keys(MONEY))(`${version} %s`, (id) => {
      const message = card(invoiceOf(version, sample(id)));
      expect(moneyFields(message)).toEqual(MONEY[id]?.[version]);
    });
  }

  it("v2 crypto payment: invoice amount in RUB; pay, remaining, balance and commissions in BTC", () => {
    const raw = renderInvoiceV2(sample("715308959_ProcessingBtc"));
    expect(raw).toContain('"extra_commission":4.0e-6');
    const message = card(invoiceOf("v2", sample("715308959_ProcessingBtc")));
    // v2 converts the invoice to RUB; `currency` (BTC here) is the pay currency of the rest.
    expect(moneyFields(message)).toEqual([
      ["Invoice amount", "1,500.00 RUB"],
      ["Amount to pay", "0.00017384 BTC"],
      ["Still to pay", "0.00017384 BTC"],
      ["To be credited when paid", "0.00016863 BTC"],
      ["Service commission", "0.00000521 BTC"],
      ["Extra commission", "0.000004 BTC"],
    ]);
    expect(JSON.stringify(message)).not.toMatch(/\de[-+]?\d/i);
    expect(JSON.stringify(message)).not.toContain("1,500 BTC");
    expect(JSON.stringify(message)).not.toContain("original invoice currency");
    expect(message.text).toBe(
      "Invoice 715308959_ProcessingBtc: Payment processing, amount 1,500.00 RUB, still to pay 0.00017384 BTC",
    );
  });

  it("v2 paid by BITCOIN (the callback example): 100 RUB, then 0.1 BTC each", () => {
    const message = card(invoiceOf("v2", sample("715308966_PaidBitcoin")));
    expect(moneyFields(message)).toEqual([
      ["Invoice amount", "100.00 RUB"],
      ["Amount paid", "0.1 BTC"],
      ["Credited to balance", "0.1 BTC"],
      ["Service commission", "0 BTC"],
      ["Extra commission", "0 BTC"],
    ]);
    expect(fieldValue(message, "Method")).toBe("`BITCOIN`");
  });

  it("names the chosen method and its currency when the method list gave them", () => {
    const invoice = invoiceOf("v2", sample("715308966_PaidBitcoin"));
    const bitcoin = {
      code: "BITCOIN",
      name: "Bitcoin <b>",
      enabled: true,
      switchedOn: true,
      currency: "BTC",
      commissionPercent: "1.5",
      commission: money("0.000004", "BTC"),
      extraCommissionPercent: "0",
      extraCommission: null,
      minimalStatusLevel: 0,
      limits: null,
    };
    const named = buildInvoiceMessage(invoice, { now: NOW, teamId: "T0SANDBOX", method: bitcoin });
    expectWithinBlockKitLimits(named);
    expect(fieldValue(named, "Method")).toBe("Bitcoin &lt;b&gt; `BITCOIN` · BTC");
    // A method the list describes under another code is not this invoice's: the code alone.
    const other = buildInvoiceMessage(invoice, {
      now: NOW,
      teamId: "T0SANDBOX",
      method: { ...bitcoin, code: "DOGECOIN" },
    });
    expect(fieldValue(other, "Method")).toBe("`BITCOIN`");
  });

  it("v3 in USD (`currency` only, the newer example's figures): USD amounts, RUB equivalent", () => {
    const message = card(invoiceOf("v3", sample("715308967_UsdCurrencyOnly")));
    expect(moneyFields(message)).toEqual([
      ["Invoice amount", "100.00 USD"],
      ["Amount in RUB", "8,146.00 RUB"],
      ["Still to pay", "100.00 USD"],
      ["To be credited when paid", "100.00 USD"],
      ["Commission", "0.00 USD"],
    ]);
    expect(message.text).toBe(
      "Invoice 715308967_UsdCurrencyOnly: Not paid, amount 100.00 USD, still to pay 100.00 USD",
    );
    const older = card(invoiceOf("v3", sample("715308968_UsdOlderRevision")));
    expect(moneyFields(older)).toEqual(moneyFields(message));
  });

  it("v3 with two different currencies named: both shown, amounts without one, RUB kept", () => {
    const message = card(
      invoiceOf("v3", sample("715308967_UsdCurrencyOnly"), { amount_currency: "USD", currency: "BTC" }),
    );
    expect(moneyFields(message)).toEqual([
      ["Invoice amount", "100 (currency unclear)"],
      ["Amount in RUB", "8,146.00 RUB"],
      ["Still to pay", "100 (currency unclear)"],
      ["To be credited when paid", "100 (currency unclear)"],
      ["Commission", "0 (currency unclear)"],
    ]);
    const warning = sections(message).find((block) => block.text?.text.startsWith(":warning:"));
    expect(warning?.text?.text).toContain("USD (amount currency) and BTC (currency)");
    expect(JSON.stringify(message)).not.toMatch(/100 (USD|BTC)/);
  });

  it.each(VERSIONS)("%s: every money field ends with a currency code", (version) => {
    for (const invoice of SAMPLES) {
      const money = moneyFields(card(invoiceOf(version, invoice)));
      // Failed and expired invoices show no "still to pay" and nothing credited: fewer fields.
      expect(money.length).toBeGreaterThanOrEqual(2);
      for (const [, value] of money) expect(value).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)? [A-Z]{3,4}$/);
    }
  });

  it("v2 tiny amounts: JSON text 0.0000001, the number 1e-7 and 4.0e-6 print as plain decimals", () => {
    const tiny = { ...sample("715308958_rPwTzvsvCm"), amount: "0.0000001", serviceCommission: "4.0e-6" };
    const raw = renderInvoiceV2(tiny);
    expect(raw).toContain('"amount":0.0000001');
    let message = card(invoiceOf("v2", tiny));
    expect(fieldValue(message, "Invoice amount")).toBe("0.0000001 RUB");
    expect(fieldValue(message, "Service commission")).toBe("0.000004 RUB");
    expect(message.text).toBe(
      "Invoice 715308958_rPwTzvsvCm: Not paid, amount 0.0000001 RUB, still to pay 0.0000001 RUB",
    );

    message = card(invoiceOf("v2", sample("715308958_rPwTzvsvCm"), { amount: 1e-7, balance_amount: 1e-7 }));
    expect(fieldValue(message, "Invoice amount")).toBe("0.0000001 RUB");
    expect(fieldValue(message, "To be credited when paid")).toBe("0.0000001 RUB");
    expect(JSON.stringify(message)).not.toMatch(/\de[-+]?\d/i);
  });

  it("v3 huge and long decimals keep every digit, grouped", () => {
    const message = card(
      invoiceOf("v3", sample("715308958_rPwTzvsvCm"), {
        initial_amount: "123456789012345678901234567890.123456789",
        amount: "1234567.0000001",
        balance_amount: "-1234.50",
        rub_amount: "100.00",
        commission_amount: "0.0000001",
      }),
    );
    expect(fieldValue(message, "Invoice amount")).toBe("1,234,567.0000001 RUB");
    expect(fieldValue(message, "Initial amount")).toBe(
      "123,456,789,012,345,678,901,234,567,890.123456789 RUB",
    );
    expect(fieldValue(message, "To be credited when paid")).toBe("-1,234.50 RUB");
    expect(fieldValue(message, "Amount in RUB")).toBe("100.00 RUB");
    expect(fieldValue(message, "Commission")).toBe("0.0000001 RUB");
  });

  it("v3 leaves out the amounts the service did not send", () => {
    const message = card(
      invoiceOf("v3", sample("715308958_rPwTzvsvCm"), {
        amount: null,
        currency: null,
        rub_amount: null,
        remaining_amount: null,
        balance_amount: null,
        commission_amount: null,
      }),
    );
    expect(moneyFields(message)).toEqual([["Invoice amount", "1,500.00 RUB"]]);
    expect(message.text).toBe("Invoice 715308958_rPwTzvsvCm: Not paid, amount 1,500.00 RUB");
  });
});

describe("buildInvoiceMessage: expiry", () => {
  const unpaid = sample("715308958_rPwTzvsvCm");

  it.each(VERSIONS)("%s: an unpaid invoice becomes expired once `now` passes its expiry", (version) => {
    const invoice = invoiceOf(version, unpaid);
    const expiry = invoice.expiredAt.epochSeconds * 1000;
    expect(invoice.expiredAt.epochSeconds).toBe(1714644000);

    for (const now of [NOW, new Date(expiry)]) {
      const message = card(invoice, now);
      expect(sections(message)[0]?.text?.text).not.toContain("Expired");
      expect(fieldValue(message, "Expires")).toBe(EXPIRES);
      expect(message.text).not.toContain("(expired)");
    }

    const later = card(invoice, new Date(expiry + 1000));
    expect(sections(later)[0]?.text?.text).toBe(
      `*State:* :hourglass_flowing_sand: Not paid  ·  :alarm_clock: *Expired* ${EXPIRES}\n*Type:* Purchase`,
    );
    expect(fieldValue(later, "Expired")).toBe(EXPIRES);
    expect(fieldValue(later, "Expires")).toBeUndefined();
    expect(later.text).toBe("Invoice 715308958_rPwTzvsvCm: Not paid (expired), amount 1,500.00 RUB");
  });

  it.each(VERSIONS)("%s: the expired sample is not expired when `now` is before its expiry", (version) => {
    const message = card(
      invoiceOf(version, sample("715308964_ExpiredUnpaid")),
      new Date("2024-04-30T11:59:59Z"),
    );
    expect(sections(message)[0]?.text?.text).toBe(
      "*State:* :hourglass_flowing_sand: Not paid\n*Type:* Top-up",
    );
    expect(fieldValue(message, "Expires")).toBe(EXPIRED_AT);
  });

  it.each(VERSIONS)("%s: no other state is ever marked expired", (version) => {
    const farFuture = new Date("2030-01-01T00:00:00Z");
    for (const invoice of SAMPLES.filter((s) => s.state !== "notpayed")) {
      const model = invoiceOf(version, invoice);
      expect(isExpired(model, farFuture)).toBe(false);
      const message = card(model, farFuture);
      expect(JSON.stringify(message)).not.toMatch(/expired/i);
      expect(fieldValue(message, "Expires")).toBe(EXPIRES);
    }
  });

  it("isExpired compares the expiry with now, to the second", () => {
    const invoice = invoiceOf("v3", unpaid);
    expect(isExpired(invoice, new Date("2024-05-02T09:59:59Z"))).toBe(false);
    expect(isExpired(invoice, new Date("2024-05-02T10:00:00Z"))).toBe(false);
    expect(isExpired(invoice, new Date("2024-05-02T10:00:01Z"))).toBe(true);
    expect(isExpired({ ...invoice, state: "payed" }, new Date("2024-05-02T10:00:01Z"))).toBe(false);
    expect(isExpired({ ...invoice, state: "refunded" }, new Date("2024-05-02T10:00:01Z"))).toBe(false);
  });
});

describe("buildInvoiceMessage: dates", () => {
  it("reads the service's times as Moscow time (UTC+3) and shows them as Slack date tokens", () => {
    const message = card(
      invoiceOf("v3", sample("715308962_PaidInFull"), {
        created_at: "2024-01-01 00:00:00",
        expired_at: "2024-12-31 23:59:59",
        final_at: "2024-02-29 03:00:00",
      }),
    );
    expect(fieldValue(message, "Created")).toBe(
      "<!date^1704056400^{date_short_pretty} {time}|2024-01-01 00:00:00 Europe/Moscow>",
    );
    expect(fieldValue(message, "Expires")).toBe(
      "<!date^1735678799^{date_short_pretty} {time}|2024-12-31 23:59:59 Europe/Moscow>",
    );
    expect(fieldValue(message, "Final")).toBe(
      "<!date^1709164800^{date_short_pretty} {time}|2024-02-29 03:00:00 Europe/Moscow>",
    );
  });

  it("slackDate keeps the service's text and zone as fallback", () => {
    const time = { text: "2024-05-01 13:00:00", zone: "Europe/Moscow", epochSeconds: 1714557600 };
    expect(slackDate(time)).toBe(CREATED);
  });
});

describe("buildInvoiceMessage: text from the service is escaped", () => {
  const HOSTILE = "Hi <!channel> and <@U123>, see <https://x|y> & pay";
  const ESCAPED = "Hi &lt;!channel&gt; and &lt;@U123&gt;, see &lt;https://x|y&gt; &amp; pay";

  it.each(VERSIONS)("%s: description and extra", (version) => {
    const message = card(
      invoiceOf(version, sample("715308958_rPwTzvsvCm"), { description: HOSTILE, extra: `${HOSTILE}!` }),
    );
    expect(sectionText(message, "*Description*")).toBe(`*Description*\n${ESCAPED}`);
    expect(sectionText(message, "*Extra*")).toBe(`*Extra*\n${ESCAPED}!`);
    const json = JSON.stringify(message);
    for (const raw of ["<!channel>", "<@U123>", "<https://x|y>", "& pay"]) expect(json).not.toContain(raw);
  });

  it.each(VERSIONS)(
    "%s: every outside text field at once (state, type, methods, description...)",
    (version) => {
      const patch: Record<string, unknown> = {
        state: HOSTILE,
        type: HOSTILE,
        method: HOSTILE,
        required_method: HOSTILE,
        description: HOSTILE,
        extra: HOSTILE,
      };
      if (version === "v3") patch.subtract_from = HOSTILE;
      const message = card(invoiceOf(version, sample("715308958_rPwTzvsvCm"), patch));
      const json = JSON.stringify(message);
      expect(json).not.toContain("<!channel>");
      expect(json).not.toContain("<@U123>");
      expect(json).not.toContain("<https://x|y>");
      expect(json).not.toMatch(/&(?!amp;|lt;|gt;)/);
      expect(sections(message)[0]?.text?.text).toBe(
        `*State:* :grey_question: Unknown state \`${ESCAPED}\`\n${UNKNOWN_STATE_HINT}\n*Type:* \`${ESCAPED}\``,
      );
      expect(fieldValue(message, "Method")).toBe(`\`${ESCAPED}\``);
      expect(fieldValue(message, "Required method")).toBe(`\`${ESCAPED}\``);
      if (version === "v3") expect(fieldValue(message, "Commission taken from")).toBe(`\`${ESCAPED}\``);
      // The fallback is mrkdwn too (notifications): the unknown state is escaped there as well.
      expect(message.text).toBe(
        `Invoice 715308958_rPwTzvsvCm: ${ESCAPED}, amount 1,500.00 RUB, remaining amount 1,500.00 RUB`,
      );
    },
  );

  it.each(VERSIONS)("%s: extra without Kassa's marker, never as if it were the shop's text", (version) => {
    const marked = card(
      invoiceOf(version, sample("715308958_rPwTzvsvCm"), { extra: "Order <10232> kassa:abcdefgh23" }),
    );
    expect(sectionText(marked, "*Extra*")).toBe("*Extra*\nOrder &lt;10232&gt;");
    expect(JSON.stringify(marked)).not.toContain("kassa:");
    const markerOnly = card(
      invoiceOf(version, sample("715308958_rPwTzvsvCm"), { extra: "kassa:abcdefgh23" }),
    );
    expect(sectionText(markerOnly, "*Extra*")).toBeUndefined();
    expect(JSON.stringify(markerOnly)).not.toContain("kassa:");
  });

  it.each(VERSIONS)("%s: the customer its creator named, escaped, kept through a Refresh", (version) => {
    const invoice = invoiceOf(version, sample("715308958_rPwTzvsvCm"));
    const message = buildInvoiceMessage(invoice, {
      now: NOW,
      teamId: "T0SANDBOX",
      customer: "Acme <!here> & Co",
    });
    expectWithinBlockKitLimits(message);
    expect(fieldValue(message, "Customer")).toBe("Acme &lt;!here&gt; &amp; Co");
    expect(JSON.stringify(message)).not.toContain("<!here>");
    const actions = message.blocks.find((block) => block.type === "actions") as types.ActionsBlock;
    const refresh = actions.elements.find((element) => "value" in element && element.value?.includes('"id"'));
    const value = JSON.parse(refresh && "value" in refresh ? (refresh.value ?? "{}") : "{}");
    expect(value.cu).toBe("Acme <!here> & Co");
    expect(fieldValue(card(invoice), "Customer")).toBeUndefined();
  });

  it("a backtick cannot close the inline code early", () => {
    const message = card(invoiceOf("v3", sample("715308958_rPwTzvsvCm"), { method: "A`<!here>`B" }));
    expect(fieldValue(message, "Method")).toBe("`Aˋ&lt;!here&gt;ˋB`");
  });

  it("the paid sample's description (mentions, link and &) is escaped in v2 too", () => {
    const message = card(invoiceOf("v2", sample("715308962_PaidInFull")));
    expect(sectionText(message, "*Description*")).toBe(
      "*Description*\nAnnual plan &lt;!channel&gt; &amp; *bold* &lt;https://evil.example|click&gt;",
    );
    expect(JSON.stringify(message)).not.toContain("<!channel>");
  });
});

describe("buildInvoiceMessage: huge fields stay within Block Kit limits", () => {
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it.each(VERSIONS)("%s: 10,000-char description, 500-char id, 5,000-char method and friends", (version) => {
    const id = `715308958_${"x".repeat(490)}`;
    const patch: Record<string, unknown> = {
      id,
      url: `https://pay.crystalpay.io/?i=${id}`,
      description: "d".repeat(10_000),
      extra: "e".repeat(10_000),
      method: "M".repeat(5_000),
      required_method: "R".repeat(5_000),
      state: "s".repeat(5_000),
      type: "t".repeat(5_000),
    };
    if (version === "v3") patch.subtract_from = "b".repeat(5_000);
    const message = card(invoiceOf(version, sample("715308958_rPwTzvsvCm"), patch));

    expect(headerText(message)).toBe(`Invoice ${id.slice(0, 141)}…`);
    expect(headerText(message)).toHaveLength(150);
    const description = sectionText(message, "*Description*");
    expect(description).toBe(`*Description*\n${"d".repeat(2999 - "*Description*\n".length)}…`);
    expect(description).toHaveLength(3000);
    expect(sectionText(message, "*Extra*")).toHaveLength(3000);
    expect(fieldValue(message, "Method")).toBe(`\`${"M".repeat(1999 - "*Method*\n`".length)}…`);
    expect(fieldValue(message, "Required method")?.length).toBe(2000 - "*Required method*\n".length);
    expect(sections(message)[0]?.text?.text).toBe(
      `*State:* :grey_question: Unknown state \`${"s".repeat(99)}…\`\n${UNKNOWN_STATE_HINT}\n*Type:* \`${"t".repeat(99)}…\``,
    );
    if (version === "v3") expect(fieldValue(message, "Commission taken from")).toBe(`\`${"b".repeat(99)}…\``);
    expect(buttons(message).map((button) => button.url)).toEqual([`https://pay.crystalpay.io/?i=${id}`]);
    expect(message.text).toBe(`Invoice ${id}: ${"s".repeat(2999 - `Invoice ${id}: `.length)}…`);
  });

  it("escaping that multiplies the length is cut after escaping, never inside an entity", () => {
    for (const [input, entity] of [
      ["&".repeat(10_000), "&amp;"],
      ["<".repeat(10_000), "&lt;"],
      [">".repeat(10_000), "&gt;"],
    ] as const) {
      const message = card(invoiceOf("v3", sample("715308958_rPwTzvsvCm"), { description: input }));
      const text = sectionText(message, "*Description*") ?? "";
      expect(text.length).toBeLessThanOrEqual(3000);
      expect(text.endsWith("…")).toBe(true);
      const body = text.slice("*Description*\n".length, -1);
      expect(body.split(entity).join("")).toBe("");
      const room = 2999 - "*Description*\n".length;
      expect(body.length).toBe(Math.floor(room / entity.length) * entity.length);
    }
  });

  it("emoji are never split into a lone surrogate", () => {
    for (const padding of ["", "a"]) {
      const message = card(
        invoiceOf("v3", sample("715308958_rPwTzvsvCm"), { description: padding + "😀".repeat(5_000) }),
      );
      const text = sectionText(message, "*Description*") ?? "";
      expect(text.length).toBeLessThanOrEqual(3000);
      expect(text.length).toBeGreaterThanOrEqual(2999);
      expect(text).not.toMatch(LONE_SURROGATE);
      expect(text.endsWith("😀…")).toBe(true);
    }
  });

  it("a long currency and the largest amounts fit their fields", () => {
    // The largest the client reads: 40 significant digits (see decimal.ts).
    const big = "9".repeat(40);
    const message = card(
      invoiceOf("v3", sample("715308958_rPwTzvsvCm"), {
        amount_currency: "ABCDEFGHIJKL",
        currency: "ABCDEFGHIJKL",
        initial_amount: `${big.slice(20)}.${big.slice(20)}`,
        amount: big,
      }),
    );
    expect(fieldValue(message, "Invoice amount")).toBe(`${formatDecimal(big)} ABCDEFGHIJKL`);
    expect(fieldValue(message, "Initial amount")?.length).toBeLessThanOrEqual(2000);
  });
});

describe("buildInvoiceMessage: the payment page button", () => {
  const unpaid = sample("715308958_rPwTzvsvCm");

  it.each([
    ["https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm&m=BITCOIN", true],
    ["http://pay.example/?i=1", true],
    ["HTTPS://PAY.EXAMPLE/", true],
    ["javascript:alert(1)", false],
    ["JavaScript:alert(document.cookie)", false],
    ["data:text/html,<script>alert(1)</script>", false],
    ["ftp://pay.example/", false],
    ["not a url", false],
    ["//pay.crystalpay.io/?i=1", false],
    ["", false],
    [null, false],
  ] as const)("url %j -> button %s", (url, shown) => {
    for (const version of VERSIONS) {
      const message = card(invoiceOf(version, unpaid, { url }));
      expect(buttons(message).map((button) => button.url)).toEqual(shown ? [url] : []);
      expect(JSON.stringify(message).includes("open_payment_page")).toBe(shown);
    }
  });

  it("linkUrl keeps http(s) links up to the 3000-char button limit", () => {
    const base = "https://pay.crystalpay.io/?i=";
    const exact = base + "a".repeat(3000 - base.length);
    expect(linkUrl(exact)).toBe(exact);
    expect(linkUrl(`${exact}a`)).toBeUndefined();
    expect(linkUrl("https://pay.crystalpay.io/?i=1")).toBe("https://pay.crystalpay.io/?i=1");
    expect(linkUrl("javascript:alert(1)")).toBeUndefined();
    expect(linkUrl("mailto:a@b.c")).toBeUndefined();
    expect(linkUrl("garbage")).toBeUndefined();
    expect(linkUrl(null)).toBeUndefined();
    expect(linkUrl("")).toBeUndefined();

    const message = card(invoiceOf("v3", unpaid, { url: exact }));
    expect(buttons(message).map((button) => button.url)).toEqual([exact]);
    expect(buttons(card(invoiceOf("v3", unpaid, { url: `${exact}a` })))).toEqual([]);
  });
});

describe("stateText and invoiceFallbackText", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "treats %s as an unknown state",
    (state) => {
      expect(stateText(state)).toBe(`:grey_question: Unknown state \`${state}\``);
    },
  );

  it("names known states and shows unknown ones verbatim in code", () => {
    expect(stateText("payed")).toBe(":white_check_mark: Paid");
    expect(stateText("notpayed")).toBe(":hourglass_flowing_sand: Not paid");
    expect(stateText("refunded")).toBe(":grey_question: Unknown state `refunded`");
    expect(stateText("PAYED")).toBe(":grey_question: Unknown state `PAYED`");
    expect(stateText("<!here>")).toBe(":grey_question: Unknown state `&lt;!here&gt;`");
  });

  it("the fallback is plain: no emoji, no date tokens, no mrkdwn markup", () => {
    for (const version of VERSIONS) {
      for (const invoice of SAMPLES) {
        const message = card(invoiceOf(version, invoice));
        expect(message.text).toMatch(new RegExp(`^Invoice ${invoice.id}: `));
        expect(message.text).not.toMatch(/:[a-z_]+:|<!date|[*`]/);
      }
    }
    const invoice = invoiceOf("v3", sample("715308960_WrongAmount"));
    expect(invoiceFallbackText(invoice, false)).toBe(
      "Invoice 715308960_WrongAmount: Wrong amount paid (more payment needed), amount 2,500.50 RUB, still to pay (shortfall) 500.25 RUB",
    );
    expect(invoiceFallbackText(invoice, true)).toBe(
      "Invoice 715308960_WrongAmount: Wrong amount paid (more payment needed) (expired), amount 2,500.50 RUB, still to pay (shortfall) 500.25 RUB",
    );
  });
});

describe("formatDecimal and formatMoney", () => {
  it.each([
    ["0", "0"],
    ["0.0000001", "0.0000001"],
    ["999", "999"],
    ["1000", "1,000"],
    ["1234567.0000001", "1,234,567.0000001"],
    ["-1234567.5", "-1,234,567.5"],
    ["123456789012345678901234567890.123456789", "123,456,789,012,345,678,901,234,567,890.123456789"],
    ["0.1234567", "0.1234567"],
  ])("%s -> %s", (value, shown) => {
    expect(formatDecimal(value)).toBe(shown);
  });

  it("never shows an amount without its currency", () => {
    expect(formatMoney({ value: "12345.678", currency: "BTC" })).toBe("12,345.678 BTC");
  });
});

describe("expectWithinBlockKitLimits itself", () => {
  const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });

  it("accepts a small valid message and reports each broken limit", () => {
    expect(blockKitProblems({ text: "hi", blocks: [section("hi")] })).toEqual([]);
    expect(blockKitProblems({ text: "", blocks: [section("hi")] })).toHaveLength(1);
    expect(
      blockKitProblems({ text: "hi", blocks: Array.from({ length: 51 }, () => section("x")) }),
    ).toHaveLength(1);
    expect(blockKitProblems({ text: "hi", blocks: [section("x".repeat(3001))] })).toHaveLength(1);
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [{ type: "section", fields: Array.from({ length: 11 }, () => mrkdwn("x")) }],
      }),
    ).toHaveLength(1);
    expect(
      blockKitProblems({ text: "hi", blocks: [{ type: "section", fields: [mrkdwn("x".repeat(2001))] }] }),
    ).toHaveLength(1);
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [{ type: "header", text: { type: "plain_text", text: "x".repeat(151) } }],
      }),
    ).toHaveLength(1);
    expect(blockKitProblems({ text: "hi", blocks: [{ type: "header", text: mrkdwn("x") }] })).toHaveLength(1);
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [
          { ...section("a"), block_id: "same" },
          { ...section("b"), block_id: "same" },
          { ...section("c"), block_id: "b".repeat(256) },
        ],
      }),
    ).toHaveLength(2);
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [{ type: "context", elements: Array.from({ length: 11 }, () => mrkdwn("x")) }],
      }),
    ).toHaveLength(1);
    const button = (text: string, url: string) => ({
      type: "button",
      text: { type: "plain_text", text },
      url,
    });
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [
          { type: "actions", elements: Array.from({ length: 26 }, () => button("x", "https://a.b/")) },
        ],
      }),
    ).toHaveLength(1);
    expect(
      blockKitProblems({
        text: "hi",
        blocks: [{ type: "actions", elements: [button("x".repeat(76), `https://a.b/${"x".repeat(3000)}`)] }],
      }),
    ).toHaveLength(2);
    expect(blockKitProblems({ text: "hi", blocks: [{ type: "video" }] })).toHaveLength(1);
  });
});

describe("buildInvoiceMessage: what each figure is in this state (issue 21)", () => {
  it("the service's own callback example (Paid by BITCOIN, remaining_amount 0.1) says nothing is still to pay", () => {
    const message = card(invoiceOf("v2", sample("715308966_PaidBitcoin")));
    const json = JSON.stringify(message);
    expect(json).not.toMatch(/remaining|still to pay/i);
    expect(fieldValue(message, "Amount paid")).toBe("0.1 BTC");
    expect(fieldValue(message, "Credited to balance")).toBe("0.1 BTC");
    expect(message.text).toBe("Invoice 715308966_PaidBitcoin: Paid, amount 100.00 RUB");
  });

  it("before payment nothing reads as received: to pay, still to pay, to be credited", () => {
    const message = card(invoiceOf("v2", sample("715308958_rPwTzvsvCm")));
    expect(JSON.stringify(message)).not.toMatch(/Credited to balance|Amount paid/);
    expect(fieldValue(message, "To be credited when paid")).toBe("1,500.00 RUB");
  });

  it("a shortfall is worded as one, and only in the wrong-amount state", () => {
    const message = card(invoiceOf("v3", sample("715308960_WrongAmount")));
    expect(fieldValue(message, "Still to pay (shortfall)")).toBe("500.25 RUB");
    expect(sections(message)[0]?.text?.text).toContain("Wrong amount paid");
  });

  it("a failed or expired invoice shows nothing still to pay and nothing credited", () => {
    for (const id of ["715308961_FailedPay", "715308963_Unavailable", "715308964_ExpiredUnpaid"]) {
      const json = JSON.stringify(card(invoiceOf("v2", sample(id))));
      expect(json).not.toMatch(/Still to pay|credited|Credited|Remaining/);
      expect(json).toContain("Amount that was due");
    }
  });

  it("subtract_from in words; an unknown value as the service wrote it, in code", () => {
    const fromAmount = card(invoiceOf("v3", sample("715308958_rPwTzvsvCm"), { subtract_from: "amount" }));
    expect(fieldValue(fromAmount, "Commission taken from")).toBe("the invoice amount (the payer covers it)");
    const odd = card(invoiceOf("v3", sample("715308958_rPwTzvsvCm"), { subtract_from: "wallet" }));
    expect(fieldValue(odd, "Commission taken from")).toBe("`wallet`");
  });

  it("an invoice created as 1,500 USD says so beside the roubles it is charged in, and keeps it on Refresh", () => {
    const invoice = invoiceOf("v2", sample("715308958_rPwTzvsvCm"), { amount: 122190 });
    const message = buildInvoiceMessage(invoice, {
      now: NOW,
      teamId: "T0SANDBOX",
      createdBy: "U0CREATOR",
      entered: { value: "1500", currency: "USD" },
    });
    expectWithinBlockKitLimits(message);
    expect(fieldValue(message, "Invoice amount")).toBe("1,500.00 USD, charged as 122,190.00 RUB");
    expect(message.text).toBe(
      "Invoice 715308958_rPwTzvsvCm: Not paid, amount 1,500.00 USD, charged as 122,190.00 RUB, still to pay 1,500.00 RUB",
    );
    const refresh = message.blocks
      .flatMap((block) => (block.type === "actions" ? block.elements : []))
      .find((element) => element.action_id === "invoice_refresh") as types.Button;
    const value = JSON.parse(refresh.value ?? "{}") as { en?: string };
    expect(value.en).toBe("1500 USD");
    expect(parseEnteredAmount(value.en)).toEqual({ value: "1500", currency: "USD" });
    // Entered in the currency the service shows: nothing more to say.
    const same = buildInvoiceMessage(invoice, {
      now: NOW,
      teamId: "T0SANDBOX",
      entered: { value: "122190", currency: "RUB" },
    });
    expect(fieldValue(same, "Invoice amount")).toBe("122,190.00 RUB");
  });

  it("parseEnteredAmount takes only what the card wrote", () => {
    for (const bad of [undefined, "", "1500", "USD 1500", "1e3 USD", "1500 usd", "<b> USD", "1 500 USD"])
      expect(parseEnteredAmount(bad)).toBeUndefined();
    expect(parseEnteredAmount("0.0005 BTC")).toEqual({ value: "0.0005", currency: "BTC" });
  });
});
