import type { types } from "@slack/bolt";
import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import { ownExtra } from "../payments/marker.js";
import type { AmountKind, CommissionKind, Invoice, Money, PaymentMethod } from "../payments/model.js";
import type { RefundFigures } from "../payouts/refund-record.js";
import { formatMoney } from "./format.js";
import {
  AMOUNT_LABELS,
  amountLabel,
  type EnteredAmount,
  enteredText,
  subtractFromText,
} from "./invoice-figures.js";
import { isKnownState, lookup, plainState, stateText } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

// What the invoice card says about the invoice: its state, money, details and texts, section by section.

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
  /** The register the invoice is from, where the workspace has several: named first in the header. */
  register?: string | undefined;
  /** Who the invoice is for, as its creator named them (a label Kassa keeps). */
  customer?: string | undefined;
  /** A paid invoice's refunds (issue 52): its figures (none asked: none), and whether to offer Refund. */
  refund?: { figures?: RefundFigures | undefined; button: boolean } | undefined;
  /** Its link was re-issued (issue 51): the card says by which invoice and who; no Re-issue button. */
  replacedBy?: { invoiceId: string; user: string } | undefined;
};

/** What every part of one card reads. */
export type Card = {
  invoice: Invoice;
  options: InvoiceCardOptions;
  expired: boolean;
  visibility: ReplyVisibility;
  originalState: string;
  lang: Lang;
  t: (typeof INVOICE_CARD_TEXT)[Lang];
  date: (time: Invoice["createdAt"]) => string;
};

/** The state (with what it was, when it expired) and the invoice's type. */
export function stateSection({ invoice, expired, originalState, lang, t, date }: Card): types.SectionBlock {
  const type =
    lookup(t.types, invoice.type) ?? (invoice.type ? inlineCode(truncate(invoice.type, 100)) : "—");
  let stateLine = `*${t.state}:* ${stateText(invoice.state, lang)}`;
  if (originalState !== invoice.state) stateLine += ` ${t.was(plainStateMrkdwn(originalState, lang))}`;
  if (expired) stateLine += `  ·  :alarm_clock: *${t.expiredAt}* ${date(invoice.expiredAt)}`;
  if (!isKnownState(invoice.state)) stateLine += `\n${t.unknownStateHint}`;
  return {
    type: "section",
    text: { type: "mrkdwn", text: truncate(`${stateLine}\n*${t.type}:* ${type}`, LIMITS.sectionText) },
  };
}

/** The amounts and commissions, and a note when the amount's currency disagrees with the invoice's. */
export function moneyBlocks({ invoice, options, expired, lang, t }: Card): types.KnownBlock[] {
  const blocks: types.KnownBlock[] = [];
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
  return blocks;
}

/** Who it is for, method, required method, times, and who pays the commission. */
export function detailsSection({ invoice, options, expired, lang, t, date }: Card): types.SectionBlock {
  const detailFields: types.MrkdwnElement[] = [
    ...(options.customer ? [field(t.customer, escapeMrkdwn(options.customer))] : []),
    field(t.method, methodText(invoice, options.method, lang)),
    field(t.requiredMethod, invoice.requiredMethod ? inlineCode(invoice.requiredMethod) : t.anyMethod),
    field(t.created, date(invoice.createdAt)),
    field(expired ? t.expired : t.expires, date(invoice.expiredAt)),
  ];
  if (invoice.finalAt) detailFields.push(field(t.final, date(invoice.finalAt)));
  if (invoice.subtractFrom)
    detailFields.push(field(t.commissionFrom, subtractFromText(invoice.subtractFrom, lang)));
  return { type: "section", fields: detailFields };
}

/** The description and the extra field, as the shop wrote them (escaped), without Kassa's marker. */
export function textSections({ invoice, t }: Card): types.SectionBlock[] {
  const sections: types.SectionBlock[] = [];
  for (const [label, value] of [
    [t.description, invoice.description],
    [t.extra, ownExtra(invoice.extra)],
  ] as const) {
    if (value) {
      sections.push({
        type: "section",
        text: { type: "mrkdwn", text: truncate(`*${label}*\n${escapeMrkdwn(value)}`, LIMITS.sectionText) },
      });
    }
  }
  return sections;
}

const COMMISSION_KINDS: CommissionKind[] = ["serviceCommission", "extraCommission", "commissionAmount"];

function field(label: string, mrkdwnValue: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${mrkdwnValue}`, LIMITS.fieldText) };
}

function moneyText(money: Money, lang: Lang): string {
  return escapeMrkdwn(formatMoney(money, lang));
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
