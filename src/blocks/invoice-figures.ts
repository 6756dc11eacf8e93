import { INVOICE_CARD_TEXT, type MoneyPhase } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import { compareDecimals } from "../payments/decimal.js";
import type { AmountKind, Invoice, Money } from "../payments/model.js";
import { formatAmount, formatMoney } from "./format.js";
import { lookup } from "./invoice-state.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";

function moneyPhase(invoice: Invoice, expired: boolean): MoneyPhase {
  // isExpired holds for unpaid invoices only; anything else keeps what its state says.
  if (expired && invoice.state === "notpayed") return "ended";
  switch (invoice.state) {
    case "notpayed":
    case "processing":
      return "due";
    case "wrongamount":
      return "short";
    case "payed":
      return "paid";
    case "failed":
    case "unavailable":
      return "ended";
    default:
      return "unknown";
  }
}

/**
 * What each amount is, in the invoice's state (undefined: not shown in that state). v2: the invoice
 * amount is in RUB, the rest in the pay currency (the chosen method's once there is one). v3: all in
 * the invoice currency, plus its rouble equivalent. Before payment nothing reads as money received;
 * after it nothing is "still to pay" unless the service reports a shortfall (state wrongamount).
 * An unknown state gets the service's own neutral names: Kassa cannot tell what they mean there.
 */
export const AMOUNT_LABELS: Record<AmountKind, Record<MoneyPhase, string | undefined>> = INVOICE_CARD_TEXT.en
  .amounts;

/** The label an amount has in this invoice's state; undefined where it would mislead. */
export function amountLabel(
  kind: AmountKind,
  invoice: Invoice,
  expired: boolean,
  lang: Lang = "en",
): string | undefined {
  const phase = moneyPhase(invoice, expired);
  const money = invoice.amounts[kind];
  // "Still to pay 0" says nothing: left out.
  if (kind === "remainingAmount" && phase === "due" && money && compareDecimals(money.value, "0") === 0)
    return undefined;
  return INVOICE_CARD_TEXT[lang].amounts[kind][phase];
}

/**
 * "1,500 USD, charged as 122,190 RUB": an invoice created in one currency that the service
 * converted (v2 converts every amount to roubles). Only when the currencies differ.
 */
export type EnteredAmount = { value: string; currency: string };

/** "1,500 USD, charged as 122,190 RUB" when the entered currency is not the one the service shows. */
export function enteredText(
  entered: EnteredAmount | undefined,
  money: Money,
  lang: Lang = "en",
): string | undefined {
  if (!entered || !money.currency || entered.currency.toUpperCase() === money.currency.toUpperCase())
    return undefined;
  return INVOICE_CARD_TEXT[lang].charged(
    escapeMrkdwn(formatAmount(entered.value, entered.currency, lang)),
    escapeMrkdwn(formatMoney(money, lang)),
  );
}

/** What `subtract_from` means, in words; an unknown value is shown as the service wrote it. */
export function subtractFromText(value: string, lang: Lang = "en"): string {
  return lookup(INVOICE_CARD_TEXT[lang].subtractFrom, value) ?? inlineCode(truncate(value, 100));
}

/** "1500 USD" from a button value back to an entered amount; anything else is no amount. */
export function parseEnteredAmount(text: string | undefined): EnteredAmount | undefined {
  const match = text ? /^(\d{1,15}(?:\.\d{1,18})?) ([A-Z0-9]{2,12})$/.exec(text) : null;
  return match?.[1] && match[2] ? { value: match[1], currency: match[2] } : undefined;
}
