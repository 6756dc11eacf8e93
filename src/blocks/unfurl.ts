import type { types } from "@slack/bolt";
import { compareDecimals } from "../payments/decimal.js";
import type { Invoice, Money } from "../payments/model.js";
import { formatMoney, slackDate, slackDateFromEpoch } from "./format.js";
import { amountLabel, invoiceFallbackText, isExpired, paymentPageButton, stateText } from "./invoice.js";
import { LIMITS } from "./limits.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

/**
 * One entry of `chat.unfurl`'s `unfurls` map (a message attachment): blocks, and the plain text
 * Slack uses where blocks cannot be shown.
 */
export type LinkUnfurl = { fallback: string; blocks: types.KnownBlock[] };

export type InvoiceUnfurlOptions = {
  now: Date;
  /** The link as it was pasted: the button's target when the service's answer has no usable one. */
  link: string;
};

function moneyText(money: Money): string {
  return escapeMrkdwn(formatMoney(money));
}

/** A second figure worth showing: still to pay, and not the amount itself said again. */
function remainingWorthShowing(invoice: Invoice, expired: boolean): Money | undefined {
  const remaining = invoice.amounts.remainingAmount;
  const amount = invoice.amounts.amount;
  // Nothing is still to pay on a paid, failed or expired invoice (see amountLabel).
  if (!remaining || !amountLabel("remainingAmount", invoice, expired)) return undefined;
  if (compareDecimals(remaining.value, "0") === 0) return undefined;
  if (
    amount &&
    amount.currency === remaining.currency &&
    compareDecimals(amount.value, remaining.value) === 0
  )
    return undefined;
  return remaining;
}

/**
 * The compact card a pasted payment link unfurls into: id, state, amount with its currency, expiry
 * and the payment page. It shows no more than the payment page itself shows anyone holding the link
 * (no description, commissions or method details): the link may be pasted into a channel shared
 * with another organisation. Pure: data in, Block Kit out.
 */
export function buildInvoiceUnfurl(invoice: Invoice, options: InvoiceUnfurlOptions): LinkUnfurl {
  const expired = isExpired(invoice, options.now);
  const lines = [
    `*Invoice* ${inlineCode(truncate(invoice.id, 100))}`,
    `*State:* ${stateText(invoice.state)}`,
  ];
  const figures: string[] = [];
  const amount = invoice.amounts.amount;
  if (amount) figures.push(`*Amount:* ${moneyText(amount)}`);
  const remaining = remainingWorthShowing(invoice, expired);
  if (remaining)
    figures.push(
      `*${invoice.state === "wrongamount" ? "Still to pay (shortfall)" : "Still to pay"}:* ${moneyText(remaining)}`,
    );
  if (figures.length > 0) lines.push(figures.join("  ·  "));
  if (invoice.currencyConflict) {
    const { amountCurrency, currency } = invoice.currencyConflict;
    lines.push(
      `:warning: The payment service names two currencies for this invoice, ${safeText(amountCurrency, 12)} and ${safeText(currency, 12)}, without saying which the amount is in.`,
    );
  }
  lines.push(
    expired
      ? `:alarm_clock: *Expired* ${slackDate(invoice.expiredAt)}`
      : `*Expires:* ${slackDate(invoice.expiredAt)}`,
  );

  const section: types.SectionBlock = {
    type: "section",
    text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) },
  };
  const button = paymentPageButton(invoice.url) ?? paymentPageButton(options.link);
  if (button) section.accessory = button;

  const checked = slackDateFromEpoch(Math.floor(options.now.getTime() / 1000));
  const context: types.ContextBlock = {
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: truncate(
          `Kassa · as of ${checked}, in your own timezone · ${inlineCode(`/invoice ${truncate(invoice.id, 100)}`)} for the full card`,
          LIMITS.sectionText,
        ),
      },
    ],
  };
  return { fallback: invoiceFallbackText(invoice, expired), blocks: [section, context] };
}
