import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_REQUEST_TEXT } from "../i18n/payout-request.js";
import { REFUND_TEXT } from "../i18n/refunds.js";
import type { PayoffMethod } from "../payments/payoff-model.js";
import type { RefundCheckRefusal } from "../payouts/refund-ask.js";
import type { InvoicePaid, RefundFigures } from "../payouts/refund-record.js";
import { modal, selectInput, selectOption, textInput } from "./form.js";
import { formatAmount } from "./format.js";
import { PAYOUT_REQUEST_VIEW } from "./ids.js";
import { escapeMrkdwn, inlineCode } from "./mrkdwn.js";
import { payoffMethodLabel, REQUEST_FIELDS, type RequestOrigin } from "./payout-forms.js";

// Refunds of paid invoices (issue 52): their lines on the payout's card, the invoice's card and the
// period report, the form that asks for the wallet, and the refusals.

import { paidText } from "./refund-lines.js";

/** Why a refund was not asked for, in words the requester can act on. */
export function refundRefusalText(refusal: RefundCheckRefusal, lang: Lang): string {
  const t = REFUND_TEXT[lang].refusals;
  const money = (value: string, figures: RefundFigures) => formatAmount(value, figures.paid.currency, lang);
  switch (refusal.kind) {
    case "not_paid":
      return t.not_paid(inlineCode(refusal.invoiceId), inlineCode(refusal.state.slice(0, 40)));
    case "no_amount":
      return t.no_amount(inlineCode(refusal.invoiceId));
    case "nothing_left": {
      const { figures } = refusal;
      return t.nothing_left(
        paidText(figures.paid, lang),
        money(figures.refunded, figures),
        money(figures.onItsWay, figures),
      );
    }
    case "refund_over": {
      const { figures } = refusal;
      return t.over(
        money(refusal.asked, figures),
        money(figures.left, figures),
        paidText(figures.paid, lang),
        money(figures.refunded, figures),
        money(figures.onItsWay, figures),
      );
    }
    case "refund_currency":
      return t.currency(refusal.paid.currency, inlineCode(refusal.method));
    default:
      return t.unreadable;
  }
}

/** What the refund form carries: the request form's origin and the invoice refunded. */
export type RefundOrigin = RequestOrigin & { i: string };

/** The methods offered: those paying out in the payment's currency (all allowed ones when none does). */
function methodBlock(
  methods: PayoffMethod[] | undefined,
  paid: InvoicePaid,
  initial: string | null,
  lang: Lang,
) {
  const t = PAYOUT_REQUEST_TEXT[lang];
  if (!methods || methods.length === 0)
    return textInput({
      block: REQUEST_FIELDS.method,
      label: t.methodCode,
      maxLength: 64,
      initial: initial ?? undefined,
    });
  const same = methods.filter((method) => method.currency.toUpperCase() === paid.currency.toUpperCase());
  const shown = same.length > 0 ? same : methods;
  const chosen =
    shown.find((method) => method.code.toUpperCase() === initial?.toUpperCase()) ??
    (same.length === 1 ? same[0] : undefined);
  return selectInput({
    block: REQUEST_FIELDS.method,
    label: t.method,
    hint: t.methodHint,
    options: shown.map((method) => selectOption(payoffMethodLabel(method, lang), method.code)),
    initial: chosen?.code,
  });
}

/**
 * The refund form: the invoice and what is left to refund, the method (the payment's where a payout
 * method of its currency exists), the wallet (asked), the amount (what is left, or what was typed)
 * and the reason. Submitted as a payout request (the request form's view, its origin naming the invoice).
 */
export function refundModal(options: {
  register: string;
  channel: string;
  invoice: { id: string; method: string | null };
  figures: RefundFigures;
  methods: PayoffMethod[] | undefined;
  amount: string | undefined;
  reason: string;
  origin: RefundOrigin;
  lang: Lang;
}): types.ModalView {
  const { figures, lang } = options;
  const t = REFUND_TEXT[lang];
  const r = PAYOUT_REQUEST_TEXT[lang];
  const left = formatAmount(figures.left, figures.paid.currency, lang);
  const intro = t.formIntro(
    inlineCode(options.invoice.id),
    paidText(figures.paid, lang),
    left,
    `<#${options.channel}>`,
  );
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: `*${escapeMrkdwn(options.register)}* · ${intro}` } },
    methodBlock(options.methods, figures.paid, options.invoice.method, lang),
    textInput({ block: REQUEST_FIELDS.wallet, label: r.wallet, hint: t.walletHint, maxLength: 512 }),
    textInput({
      block: REQUEST_FIELDS.amount,
      label: `${r.amount} (${figures.paid.currency})`,
      hint: t.amountHint(left),
      maxLength: 24,
      initial: options.amount ?? figures.left,
    }),
    textInput({
      block: REQUEST_FIELDS.reason,
      label: r.reason,
      hint: r.reasonHint,
      maxLength: 500,
      initial: options.reason,
    }),
  ];
  return modal({
    callbackId: PAYOUT_REQUEST_VIEW,
    title: t.formTitle,
    submit: t.send,
    close: r.close,
    privateMetadata: JSON.stringify(options.origin),
    blocks,
  });
}
