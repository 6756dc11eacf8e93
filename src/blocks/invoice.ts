import type { types } from "@slack/bolt";
import type { AmountKind, CommissionKind, Invoice, Money, PaymentMethod } from "../payments/model.js";
import { type InvoiceButtonValue, invoiceButton } from "./button-values.js";
import { formatDecimal, formatMoney, slackDate, slackDateFromEpoch } from "./format.js";
import { INVOICE_ACTIONS, OPEN_PAYMENT_PAGE_ACTION } from "./ids.js";
import {
  AMOUNT_LABELS,
  amountLabel,
  type EnteredAmount,
  enteredText,
  subtractFromText,
} from "./invoice-figures.js";
import {
  isExpired,
  isKnownState,
  lookup,
  plainState,
  stateText,
  UNKNOWN_STATE_HINT,
} from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import { type SlackMessage, shareButton } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

const INVOICE_TYPES: Record<string, string> = { purchase: "Purchase", topup: "Top-up" };

const COMMISSION_LABELS: Record<CommissionKind, string> = {
  serviceCommission: "Service commission",
  extraCommission: "Extra commission",
  commissionAmount: "Commission",
};

function field(label: string, mrkdwnValue: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${mrkdwnValue}`, LIMITS.fieldText) };
}

function moneyText(money: Money): string {
  return escapeMrkdwn(formatMoney(money));
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
export function paymentPageButton(url: string | null): types.Button | undefined {
  const payUrl = linkUrl(url);
  if (!payUrl) return undefined;
  return {
    type: "button",
    action_id: OPEN_PAYMENT_PAGE_ACTION,
    text: { type: "plain_text", text: "Open payment page" },
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
};

export type { InvoiceButtonValue } from "./button-values.js";

/** The invoice card. Pure: data in, Block Kit out. */
export function buildInvoiceMessage(invoice: Invoice, options: InvoiceCardOptions): SlackMessage {
  const expired = isExpired(invoice, options.now);
  const visibility = options.visibility ?? "channel";
  const originalState = options.originalState ?? invoice.state;
  const blocks: types.KnownBlock[] = [];

  blocks.push({
    type: "header",
    text: { type: "plain_text", text: truncate(`Invoice ${invoice.id}`, LIMITS.headerText), emoji: false },
  });

  const type =
    lookup(INVOICE_TYPES, invoice.type) ?? (invoice.type ? inlineCode(truncate(invoice.type, 100)) : "—");
  let stateLine = `*State:* ${stateText(invoice.state)}`;
  if (originalState !== invoice.state) stateLine += ` _(was: ${plainStateMrkdwn(originalState)})_`;
  if (expired) stateLine += `  ·  :alarm_clock: *Expired* ${slackDate(invoice.expiredAt)}`;
  if (!isKnownState(invoice.state)) stateLine += `\n${UNKNOWN_STATE_HINT}`;
  blocks.push({
    type: "section",
    text: { type: "mrkdwn", text: truncate(`${stateLine}\n*Type:* ${type}`, LIMITS.sectionText) },
  });

  const moneyFields: types.MrkdwnElement[] = [];
  for (const kind of Object.keys(AMOUNT_LABELS) as AmountKind[]) {
    const money = invoice.amounts[kind];
    const label = amountLabel(kind, invoice, expired);
    if (!money || !label) continue;
    const entered = kind === "amount" ? enteredText(options.entered, money) : undefined;
    moneyFields.push(field(label, entered ?? moneyText(money)));
  }
  for (const [kind, label] of Object.entries(COMMISSION_LABELS) as [CommissionKind, string][]) {
    const money = invoice.commissions[kind];
    if (money) moneyFields.push(field(label, moneyText(money)));
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
          `:warning: The payment service names two currencies for this invoice, ${safeText(amountCurrency, 12)} (amount currency) and ${safeText(currency, 12)} (currency), without saying which the amounts are in, so they are shown without one. Check the invoice in the service before relying on them.`,
          LIMITS.sectionText,
        ),
      },
    });
  }

  const detailFields: types.MrkdwnElement[] = [
    field("Method", methodText(invoice, options.method)),
    field("Required method", invoice.requiredMethod ? inlineCode(invoice.requiredMethod) : "any"),
    field("Created", slackDate(invoice.createdAt)),
    field(expired ? "Expired" : "Expires", slackDate(invoice.expiredAt)),
  ];
  if (invoice.finalAt) detailFields.push(field("Final", slackDate(invoice.finalAt)));
  if (invoice.subtractFrom)
    detailFields.push(field("Commission taken from", subtractFromText(invoice.subtractFrom)));
  blocks.push({ type: "section", fields: detailFields });

  for (const [label, value] of [
    ["Description", invoice.description],
    ["Extra", invoice.extra],
  ] as const) {
    if (value) {
      blocks.push({
        type: "section",
        text: { type: "mrkdwn", text: truncate(`*${label}*\n${escapeMrkdwn(value)}`, LIMITS.sectionText) },
      });
    }
  }

  const buttons: types.Button[] = [];
  const payButton = paymentPageButton(invoice.url);
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
    text: { type: "plain_text", text: "Refresh" },
    value: invoiceButton.write(value),
  });
  if (visibility === "private") buttons.push(shareButton(INVOICE_ACTIONS.share, invoiceButton.write(value)));
  blocks.push({ type: "actions", block_id: "invoice_actions", elements: buttons });

  const notes: string[] = [];
  if (options.createdBy) notes.push(`Created by <@${options.createdBy}>.`);
  if (options.sharedBy) notes.push(`Shared by <@${options.sharedBy}>.`);
  if (options.refreshedAt)
    notes.push(`Updated ${slackDateFromEpoch(Math.floor(options.refreshedAt.getTime() / 1000))}.`);
  if (visibility === "private" && !options.sharedBy) notes.push("Only you can see this card.");
  notes.push(
    `Times are shown in your own timezone; the service's are ${escapeMrkdwn(invoice.createdAt.zone)}. API ${invoice.apiVersion}.`,
  );
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: truncate(notes.join(" "), LIMITS.sectionText) }],
  });

  return {
    response_type: visibility === "private" ? "ephemeral" : "in_channel",
    text: invoiceFallbackText(invoice, expired, options.entered),
    blocks,
  };
}

/** The chosen method's code, with its name and currency when the method list named them. */
function methodText(invoice: Invoice, method: PaymentMethod | undefined): string {
  if (!invoice.method) return "_not chosen yet_";
  const code = inlineCode(invoice.method);
  if (!method || method.code !== invoice.method) return code;
  return `${safeText(method.name, 80)} ${code} · ${safeText(method.currency, 12)}`;
}

function plainStateMrkdwn(state: string): string {
  return escapeMrkdwn(truncate(plainState(state), 60));
}

/** The notification and screen-reader text: state and the amounts that matter, plain. */
export function invoiceFallbackText(invoice: Invoice, expired: boolean, entered?: EnteredAmount): string {
  const parts = [`Invoice ${invoice.id}: ${plainState(invoice.state)}${expired ? " (expired)" : ""}`];
  const main = invoice.amounts.amount;
  const typed =
    main && entered && main.currency && entered.currency.toUpperCase() !== main.currency.toUpperCase();
  if (main && typed)
    parts.push(`amount ${formatDecimal(entered.value)} ${entered.currency}, charged as ${formatMoney(main)}`);
  else if (main) parts.push(`amount ${formatMoney(main)}`);
  const remaining = invoice.amounts.remainingAmount;
  const remainingLabel = amountLabel("remainingAmount", invoice, expired);
  if (remaining && remainingLabel) parts.push(`${remainingLabel.toLowerCase()} ${formatMoney(remaining)}`);
  return truncate(escapeMrkdwn(parts.join(", ")), LIMITS.fallbackText);
}
