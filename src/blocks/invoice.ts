import type { types } from "@slack/bolt";
import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import type { AmountKind, CommissionKind, Invoice, Money, PaymentMethod } from "../payments/model.js";
import { type InvoiceButtonValue, invoiceButton } from "./button-values.js";
import { formatAmount, formatMoney, slackDate, slackDateFromEpoch } from "./format.js";
import { INVOICE_ACTIONS, OPEN_PAYMENT_PAGE_ACTION } from "./ids.js";
import {
  AMOUNT_LABELS,
  amountLabel,
  type EnteredAmount,
  enteredText,
  subtractFromText,
} from "./invoice-figures.js";
import { isExpired, isKnownState, lookup, plainState, stateText } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import { type SlackMessage, shareButton } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

const COMMISSION_KINDS: CommissionKind[] = ["serviceCommission", "extraCommission", "commissionAmount"];

function field(label: string, mrkdwnValue: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${mrkdwnValue}`, LIMITS.fieldText) };
}

function moneyText(money: Money, lang: Lang): string {
  return escapeMrkdwn(formatMoney(money, lang));
}

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

export type ReplyVisibility = "channel" | "private";

export type InvoiceCardOptions = {
  now: Date;
  /** Workspace the card belongs to; its buttons only work there. */
  teamId: string;
  /** channel: posted for everyone; private: only the asker sees it, with a Share button. */
  visibility?: ReplyVisibility;
  /** State when the card was first posted: a refreshed card says "was: …" when it changed. */
  originalState?: string;
  /** When a Refresh re-read the invoice. */
  refreshedAt?: Date;
  /** User who shared a private card to the channel. */
  sharedBy?: string;
  /** User who created the invoice with /invoice new. */
  createdBy?: string;
  /** The chosen method as the workspace's method list describes it, when it could be read in time. */
  method?: PaymentMethod | undefined;
  /** What the creator typed in /invoice new, when the service converted it to another currency. */
  entered?: EnteredAmount | undefined;
  /** The workspace's language (English by default). */
  lang?: Lang;
};

export type { InvoiceButtonValue } from "./button-values.js";

/** The invoice card. Pure: data in, Block Kit out. */
export function buildInvoiceMessage(invoice: Invoice, options: InvoiceCardOptions): SlackMessage {
  const expired = isExpired(invoice, options.now);
  const visibility = options.visibility ?? "channel";
  const originalState = options.originalState ?? invoice.state;
  const lang = options.lang ?? "en";
  const t = INVOICE_CARD_TEXT[lang];
  const date = (time: Invoice["createdAt"]) => slackDate(time, lang);
  const blocks: types.KnownBlock[] = [];

  blocks.push({
    type: "header",
    text: { type: "plain_text", text: truncate(t.header(invoice.id), LIMITS.headerText), emoji: false },
  });

  const type =
    lookup(t.types, invoice.type) ?? (invoice.type ? inlineCode(truncate(invoice.type, 100)) : "—");
  let stateLine = `*${t.state}:* ${stateText(invoice.state, lang)}`;
  if (originalState !== invoice.state) stateLine += ` ${t.was(plainStateMrkdwn(originalState, lang))}`;
  if (expired) stateLine += `  ·  :alarm_clock: *${t.expiredAt}* ${date(invoice.expiredAt)}`;
  if (!isKnownState(invoice.state)) stateLine += `\n${t.unknownStateHint}`;
  blocks.push({
    type: "section",
    text: { type: "mrkdwn", text: truncate(`${stateLine}\n*${t.type}:* ${type}`, LIMITS.sectionText) },
  });

  const moneyFields: types.MrkdwnElement[] = [];
  for (const kind of Object.keys(AMOUNT_LABELS) as AmountKind[]) {
    const money = invoice.amounts[kind];
    const label = amountLabel(kind, invoice, expired, lang);
    if (!money || !label) continue;
    const entered = kind === "amount" ? enteredText(options.entered, money, lang) : undefined;
    moneyFields.push(field(label, entered ?? moneyText(money, lang)));
  }
  for (const kind of COMMISSION_KINDS) {
    const money = invoice.commissions[kind];
    if (money) moneyFields.push(field(t.commissions[kind], moneyText(money, lang)));
  }
  if (moneyFields.length > 0) {
    blocks.push({ type: "section", fields: moneyFields.slice(0, LIMITS.sectionFields) });
  }
  if (invoice.currencyConflict) {
    const { amountCurrency, currency } = invoice.currencyConflict;
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          t.currencyConflict(safeText(amountCurrency, 12), safeText(currency, 12)),
          LIMITS.sectionText,
        ),
      },
    });
  }

  const detailFields: types.MrkdwnElement[] = [
    field(t.method, methodText(invoice, options.method, lang)),
    field(t.requiredMethod, invoice.requiredMethod ? inlineCode(invoice.requiredMethod) : t.anyMethod),
    field(t.created, date(invoice.createdAt)),
    field(expired ? t.expired : t.expires, date(invoice.expiredAt)),
  ];
  if (invoice.finalAt) detailFields.push(field(t.final, date(invoice.finalAt)));
  if (invoice.subtractFrom)
    detailFields.push(field(t.commissionFrom, subtractFromText(invoice.subtractFrom, lang)));
  blocks.push({ type: "section", fields: detailFields });

  for (const [label, value] of [
    [t.description, invoice.description],
    [t.extra, invoice.extra],
  ] as const) {
    if (value) {
      blocks.push({
        type: "section",
        text: { type: "mrkdwn", text: truncate(`*${label}*\n${escapeMrkdwn(value)}`, LIMITS.sectionText) },
      });
    }
  }

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
  };
  buttons.push({
    type: "button",
    action_id: INVOICE_ACTIONS.refresh,
    text: { type: "plain_text", text: t.refresh },
    value: invoiceButton.write(value),
  });
  if (visibility === "private")
    buttons.push(shareButton(INVOICE_ACTIONS.share, invoiceButton.write(value), t.share));
  blocks.push({ type: "actions", block_id: "invoice_actions", elements: buttons });

  const notes: string[] = [];
  if (options.createdBy) notes.push(t.createdBy(`<@${options.createdBy}>`));
  if (options.sharedBy) notes.push(t.sharedBy(`<@${options.sharedBy}>`));
  if (options.refreshedAt)
    notes.push(t.updated(slackDateFromEpoch(Math.floor(options.refreshedAt.getTime() / 1000), lang)));
  if (visibility === "private" && !options.sharedBy) notes.push(t.onlyYou);
  notes.push(t.times(escapeMrkdwn(invoice.createdAt.zone), invoice.apiVersion));
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: truncate(notes.join(" "), LIMITS.sectionText) }],
  });

  return {
    response_type: visibility === "private" ? "ephemeral" : "in_channel",
    text: invoiceFallbackText(invoice, expired, options.entered, lang),
    blocks,
  };
}

/** The chosen method's code, with its name and currency when the method list named them. */
function methodText(invoice: Invoice, method: PaymentMethod | undefined, lang: Lang): string {
  if (!invoice.method) return INVOICE_CARD_TEXT[lang].notChosen;
  const code = inlineCode(invoice.method);
  if (!method || method.code !== invoice.method) return code;
  return `${safeText(method.name, 80)} ${code} · ${safeText(method.currency, 12)}`;
}

function plainStateMrkdwn(state: string, lang: Lang): string {
  return escapeMrkdwn(truncate(plainState(state, lang), 60));
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
