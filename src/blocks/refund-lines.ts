import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { REFUND_TEXT } from "../i18n/refunds.js";
import type { InvoicePaid, RefundFigures } from "../payouts/refund-record.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import type { RefundTally } from "../reports/refunds.js";
import { formatAmount, formatDecimal, padToMinorUnits, slackDateFromEpoch } from "./format.js";
import { inlineCode } from "./mrkdwn.js";

// A refund's lines (issue 52): on the payout's card, on the invoice's card and in the period report.

export const paidText = (paid: InvoicePaid, lang: Lang) => formatAmount(paid.amount, paid.currency, lang);
const on = (iso: string | null, lang: Lang) =>
  iso ? slackDateFromEpoch(Math.floor(Date.parse(iso) / 1000), lang) : null;

/** The payout card's first line for a refund: "Refund of invoice `ID` (paid 1,500.00 RUB on …)". */
export function refundOfLines(request: PayoutRequest, lang: Lang): string[] {
  const refund = request.refundOf;
  if (!refund) return [];
  const paid = refund.paid ? paidText(refund.paid, lang) : "?";
  return [REFUND_TEXT[lang].ofInvoice(inlineCode(refund.invoiceId), paid, on(refund.paid?.at ?? null, lang))];
}

/** The invoice card's refund line: "Refunded 500.00 of 1,500.00 RUB", and what is on its way. */
export function invoiceRefundLine(figures: RefundFigures, lang: Lang): string | undefined {
  const t = REFUND_TEXT[lang];
  const { currency } = figures.paid;
  const refunded = figures.refunded !== "0";
  const moving = figures.onItsWay !== "0";
  if (!refunded && !moving) return undefined;
  const parts: string[] = [];
  if (refunded)
    parts.push(
      t.refunded(
        formatDecimal(padToMinorUnits(figures.refunded, currency), lang),
        paidText(figures.paid, lang),
      ),
    );
  if (moving) parts.push(t.onItsWay(formatAmount(figures.onItsWay, currency, lang)));
  const line = parts.join(" · ");
  return refunded ? line : `:leftwards_arrow_with_hook: ${line.charAt(0).toUpperCase()}${line.slice(1)}`;
}

/** The period report's refunds field (none when none was paid out in the period). */
export function refundReportField(
  tally: RefundTally | undefined,
  lang: Lang,
): types.MrkdwnElement[] | undefined {
  if (!tally || tally.count === 0) return undefined;
  const t = REFUND_TEXT[lang];
  const totals = tally.totals.map((one) => formatAmount(one.amount, one.currency, lang)).join(", ");
  return [{ type: "mrkdwn", text: `*${t.reportLabel}*\n${t.reportLine(tally.count, totals)}` }];
}
