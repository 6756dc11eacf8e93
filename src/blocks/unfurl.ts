import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { UNFURL_TEXT } from "../i18n/unfurl.js";
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
  /** The workspace's language (English by default). */
  lang?: Lang;
};

function moneyText(money: Money, lang: Lang): string {
  return escapeMrkdwn(formatMoney(money, lang));
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
  const lang = options.lang ?? "en";
  const t = UNFURL_TEXT[lang];
  const lines = [
    `*${t.invoice}* ${inlineCode(truncate(invoice.id, 100))}`,
    `*${t.state}:* ${stateText(invoice.state, lang)}`,
  ];
  const figures: string[] = [];
  const amount = invoice.amounts.amount;
  if (amount) figures.push(`*${t.amount}:* ${moneyText(amount, lang)}`);
  const remaining = remainingWorthShowing(invoice, expired);
  if (remaining)
    figures.push(
      `*${invoice.state === "wrongamount" ? t.shortfall : t.stillToPay}:* ${moneyText(remaining, lang)}`,
    );
  if (figures.length > 0) lines.push(figures.join("  ·  "));
  if (invoice.currencyConflict) {
    const { amountCurrency, currency } = invoice.currencyConflict;
    lines.push(t.twoCurrencies(safeText(amountCurrency, 12), safeText(currency, 12)));
  }
  const expiry = slackDate(invoice.expiredAt, lang);
  lines.push(expired ? `:alarm_clock: *${t.expired}* ${expiry}` : `*${t.expires}:* ${expiry}`);

  const section: types.SectionBlock = {
    type: "section",
    text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) },
  };
  const button = paymentPageButton(invoice.url, lang) ?? paymentPageButton(options.link, lang);
  if (button) section.accessory = button;

  const checked = slackDateFromEpoch(Math.floor(options.now.getTime() / 1000), lang);
  const context: types.ContextBlock = {
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: truncate(
          t.context(checked, inlineCode(`/invoice ${truncate(invoice.id, 100)}`)),
          LIMITS.sectionText,
        ),
      },
    ],
  };
  return { fallback: invoiceFallbackText(invoice, expired, undefined, lang), blocks: [section, context] };
}
