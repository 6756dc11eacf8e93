import type { types } from "@slack/bolt";
import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import { REFUND_TEXT } from "../i18n/refunds.js";
import { REISSUE_TEXT } from "../i18n/reissue.js";
import { readExtra } from "../payments/marker.js";
import type { Invoice } from "../payments/model.js";
import { type InvoiceButtonValue, invoiceButton, linkButton } from "./button-values.js";
import { formatAmount, formatMoney, slackDate, slackDateFromEpoch } from "./format.js";
import { INVOICE_ACTIONS, LINK_ACTIONS, OPEN_PAYMENT_PAGE_ACTION, REFUND_ACTION } from "./ids.js";
import { amountLabel, type EnteredAmount } from "./invoice-figures.js";
import {
  type Card,
  detailsSection,
  type InvoiceCardOptions,
  moneyBlocks,
  stateSection,
  textSections,
} from "./invoice-sections.js";
import { isExpired, plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import { type SlackMessage, shareButton } from "./message.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";
import { invoiceRefundLine } from "./refund-lines.js";

/** Only http(s) links become buttons; anything else (javascript:, garbage) is left out. */
export function linkUrl(url: string | null): string | undefined {
  if (!url || url.length > LIMITS.buttonUrl) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

export { INVOICE_ACTIONS, OPEN_PAYMENT_PAGE_ACTION } from "./ids.js";
export { amountLabel, type EnteredAmount, parseEnteredAmount } from "./invoice-figures.js";
export { INVOICE_STATES, isExpired, isKnownState, stateText, UNKNOWN_STATE_HINT } from "./invoice-state.js";

/** "Open payment page", when the service gave a link we can show (see linkUrl). */
export function paymentPageButton(url: string | null, lang: Lang = "en"): types.Button | undefined {
  const payUrl = linkUrl(url);
  if (!payUrl) return undefined;
  return {
    type: "button",
    action_id: OPEN_PAYMENT_PAGE_ACTION,
    text: { type: "plain_text", text: INVOICE_CARD_TEXT[lang].openPaymentPage },
    url: payUrl,
  };
}

export type { InvoiceButtonValue } from "./button-values.js";
export type { InvoiceCardOptions, ReplyVisibility } from "./invoice-sections.js";

/** The invoice card. Pure: data in, Block Kit out. */
export function buildInvoiceMessage(invoice: Invoice, options: InvoiceCardOptions): SlackMessage {
  const lang = options.lang ?? "en";
  const card: Card = {
    invoice,
    options,
    expired: isExpired(invoice, options.now),
    visibility: options.visibility ?? "channel",
    originalState: options.originalState ?? invoice.state,
    lang,
    t: INVOICE_CARD_TEXT[lang],
    date: (time) => slackDate(time, lang),
  };
  const blocks: types.KnownBlock[] = [
    {
      type: "header",
      text: {
        type: "plain_text",
        text: truncate(
          options.register === undefined
            ? card.t.header(invoice.id)
            : `${options.register} · ${card.t.header(invoice.id)}`,
          LIMITS.headerText,
        ),
        emoji: false,
      },
    },
    stateSection(card),
    ...replacedSection(card),
    ...moneyBlocks(card),
    detailsSection(card),
    ...refundSection(card),
    ...textSections(card),
    actionsBlock(card),
    notesBlock(card),
  ];
  return {
    response_type: card.visibility === "private" ? "ephemeral" : "in_channel",
    text: invoiceFallbackText(invoice, card.expired, options.entered, lang),
    blocks,
  };
}

/** The payment page, Refresh, and Share on a private card. */
function actionsBlock({
  invoice,
  options,
  visibility,
  originalState,
  lang,
  t,
  expired,
}: Card): types.ActionsBlock {
  const buttons: types.Button[] = [];
  const payButton = paymentPageButton(invoice.url, lang);
  if (payButton) buttons.push(payButton);
  const value: InvoiceButtonValue = {
    t: options.teamId,
    id: invoice.id,
    s: truncate(originalState, 40),
    ...(options.sharedBy ? { by: options.sharedBy } : {}),
    ...(options.createdBy ? { cb: options.createdBy } : {}),
    ...(options.entered ? { en: `${options.entered.value} ${options.entered.currency}` } : {}),
    ...(options.register === undefined ? {} : { r: options.register }),
    ...(options.customer ? { cu: options.customer } : {}),
  };
  buttons.push({
    type: "button",
    action_id: INVOICE_ACTIONS.refresh,
    text: { type: "plain_text", text: t.refresh },
    value: invoiceButton.write(value),
  });
  if (options.refund?.button)
    buttons.push({
      type: "button",
      action_id: REFUND_ACTION,
      text: { type: "plain_text", text: REFUND_TEXT[lang].button },
      value: invoiceButton.write(value),
    });
  const reissue = reissueButton({ invoice, options, expired, lang });
  if (reissue) buttons.push(reissue);
  if (visibility === "private")
    buttons.push(shareButton(INVOICE_ACTIONS.share, invoiceButton.write(value), t.share));
  return { type: "actions", block_id: "invoice_actions", elements: buttons };
}

/** "Refunded 500.00 of 1,500.00 RUB" (and what is on its way), once a refund was asked. */
function refundSection({ options, lang }: Card): types.SectionBlock[] {
  const figures = options.refund?.figures;
  const line = figures && invoiceRefundLine(figures, lang);
  return line ? [{ type: "section", text: { type: "mrkdwn", text: line } }] : [];
}

/**
 * Re-issue (issue 51): on an expired unpaid invoice that carries Kassa's marker (Kassa made it, so
 * its record says what to make again), until its link was re-issued.
 */
function reissueButton({
  invoice,
  options,
  expired,
  lang,
}: Pick<Card, "invoice" | "options" | "expired" | "lang">): types.Button | undefined {
  const ref = readExtra(invoice.extra).ref;
  if (!expired || !ref || options.replacedBy) return undefined;
  return {
    type: "button",
    action_id: LINK_ACTIONS.reissue,
    text: { type: "plain_text", text: REISSUE_TEXT[lang].button },
    value: linkButton.write({
      t: options.teamId,
      k: ref,
      ...(options.register === undefined ? {} : { r: options.register }),
    }),
  };
}

/** "Replaced by NEW (by @person)", once its link was re-issued. */
function replacedSection({ options, lang }: Card): types.KnownBlock[] {
  const replaced = options.replacedBy;
  if (!replaced) return [];
  const text = REISSUE_TEXT[lang].replaced(inlineCode(replaced.invoiceId), `<@${replaced.user}>`);
  return [{ type: "section", text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) } }];
}

/** Who created or shared it, when it was read, who sees it, and the service's timezone and version. */
function notesBlock({ invoice, options, visibility, lang, t }: Card): types.ContextBlock {
  const notes: string[] = [];
  if (options.createdBy) notes.push(t.createdBy(`<@${options.createdBy}>`));
  if (options.sharedBy) notes.push(t.sharedBy(`<@${options.sharedBy}>`));
  if (options.refreshedAt)
    notes.push(t.updated(slackDateFromEpoch(Math.floor(options.refreshedAt.getTime() / 1000), lang)));
  if (visibility === "private" && !options.sharedBy) notes.push(t.onlyYou);
  notes.push(t.times(escapeMrkdwn(invoice.createdAt.zone), invoice.apiVersion));
  return {
    type: "context",
    elements: [{ type: "mrkdwn", text: truncate(notes.join(" "), LIMITS.sectionText) }],
  };
}

/** The notification and screen-reader text: state and the amounts that matter, plain. */
export function invoiceFallbackText(
  invoice: Invoice,
  expired: boolean,
  entered?: EnteredAmount,
  lang: Lang = "en",
): string {
  const t = INVOICE_CARD_TEXT[lang];
  const parts = [t.fallbackTitle(invoice.id, plainState(invoice.state, lang), expired)];
  const main = invoice.amounts.amount;
  const typed =
    main && entered && main.currency && entered.currency.toUpperCase() !== main.currency.toUpperCase();
  if (main && typed)
    parts.push(
      t.fallbackAmount(
        t.charged(formatAmount(entered.value, entered.currency, lang), formatMoney(main, lang)),
      ),
    );
  else if (main) parts.push(t.fallbackAmount(formatMoney(main, lang)));
  const remaining = invoice.amounts.remainingAmount;
  const remainingLabel = amountLabel("remainingAmount", invoice, expired, lang);
  if (remaining && remainingLabel)
    parts.push(`${remainingLabel.toLowerCase()} ${formatMoney(remaining, lang)}`);
  return truncate(escapeMrkdwn(parts.join(", ")), LIMITS.fallbackText);
}
