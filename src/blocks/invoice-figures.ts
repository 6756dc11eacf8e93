import { compareDecimals } from "../payments/decimal.js";
import type { AmountKind, Invoice, Money } from "../payments/model.js";
import { formatDecimal, formatMoney } from "./format.js";
import { lookup } from "./invoice-state.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";

/** Where an invoice stands, as far as its amounts are concerned. */
type MoneyPhase = "due" | "short" | "paid" | "ended" | "unknown";

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
export const AMOUNT_LABELS: Record<AmountKind, Record<MoneyPhase, string | undefined>> = {
  amount: {
    due: "Invoice amount",
    short: "Invoice amount",
    paid: "Invoice amount",
    ended: "Invoice amount",
    unknown: "Invoice amount",
  },
  rubAmount: {
    due: "Amount in RUB",
    short: "Amount in RUB",
    paid: "Amount in RUB",
    ended: "Amount in RUB",
    unknown: "Amount in RUB",
  },
  initialAmount: {
    due: "Initial amount",
    short: "Initial amount",
    paid: "Initial amount",
    ended: "Initial amount",
    unknown: "Initial amount",
  },
  payAmount: {
    due: "Amount to pay",
    short: "Amount to pay",
    paid: "Amount paid",
    ended: "Amount that was due",
    unknown: "Pay amount",
  },
  remainingAmount: {
    due: "Still to pay",
    short: "Still to pay (shortfall)",
    paid: undefined,
    ended: undefined,
    unknown: "Remaining amount",
  },
  balanceAmount: {
    due: "To be credited when paid",
    short: "To be credited when paid in full",
    paid: "Credited to balance",
    ended: undefined,
    unknown: "Balance amount",
  },
};

/** The label an amount has in this invoice's state; undefined where it would mislead. */
export function amountLabel(kind: AmountKind, invoice: Invoice, expired: boolean): string | undefined {
  const phase = moneyPhase(invoice, expired);
  const money = invoice.amounts[kind];
  // "Still to pay 0" says nothing: left out.
  if (kind === "remainingAmount" && phase === "due" && money && compareDecimals(money.value, "0") === 0)
    return undefined;
  return AMOUNT_LABELS[kind][phase];
}

/** What `subtract_from` means, in words; an unknown value is shown as the service wrote it. */
const SUBTRACT_FROM: Record<string, string> = {
  amount: "the invoice amount (the payer covers it)",
  balance: "the cash register's balance (you cover it)",
};

/**
 * "1,500 USD, charged as 122,190 RUB": an invoice created in one currency that the service
 * converted (v2 converts every amount to roubles). Only when the currencies differ.
 */
export type EnteredAmount = { value: string; currency: string };

/** "1,500 USD, charged as 122,190 RUB" when the entered currency is not the one the service shows. */
export function enteredText(entered: EnteredAmount | undefined, money: Money): string | undefined {
  if (!entered || !money.currency || entered.currency.toUpperCase() === money.currency.toUpperCase())
    return undefined;
  return `${escapeMrkdwn(`${formatDecimal(entered.value)} ${entered.currency}`)}, charged as ${escapeMrkdwn(formatMoney(money))}`;
}

export function subtractFromText(value: string): string {
  return lookup(SUBTRACT_FROM, value) ?? inlineCode(truncate(value, 100));
}

/** "1500 USD" from a button value back to an entered amount; anything else is no amount. */
export function parseEnteredAmount(text: string | undefined): EnteredAmount | undefined {
  const match = text ? /^(\d{1,15}(?:\.\d{1,18})?) ([A-Z0-9]{2,12})$/.exec(text) : null;
  return match?.[1] && match[2] ? { value: match[1], currency: match[2] } : undefined;
}
