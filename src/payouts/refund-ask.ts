import { compareDecimals } from "../payments/decimal.js";
import type { Invoice } from "../payments/model.js";
import type { PayoffQuote } from "../payments/payoff-model.js";
import {
  endHold,
  figuresOf,
  holdRefund,
  type InvoicePaid,
  type RefundDeps,
  type RefundFigures,
} from "./refund-record.js";
import { refundFigures } from "./refund-settle.js";

// A refund's request (issue 52) asks what any payout request asks, and one thing more: its amount
// held against what the invoice's payment brought in, less what was refunded and what is on its way.

/** Why a refund's request was refused besides what any request may be refused for. */
export type RefundRefusal =
  /** More than is left to refund: the invoice's figures at that moment. */
  | { kind: "refund_over"; asked: string; figures: RefundFigures }
  /** The method pays out in another currency than the payment's. */
  | { kind: "refund_currency"; paid: InvoicePaid; method: string }
  /** The invoice's refunds could not be read: nothing held, nothing asked. */
  | { kind: "refund_unreadable" };

type RefundAsk = {
  registerKey: string;
  requester: string;
  refundOf?: { invoiceId: string; paid: InvoicePaid } | undefined;
};

/**
 * A refund's amount (the quote's, in its currency) held for its payout; a refusal when it is not a
 * refund's request, nothing. The quote is the caller's to cancel on a refusal.
 */
export async function holdForRefund(
  deps: RefundDeps,
  ask: RefundAsk,
  quote: Pick<PayoffQuote, "id" | "amount" | "currency" | "method">,
  now: Date,
): Promise<RefundRefusal | undefined> {
  const refund = ask.refundOf;
  if (!refund) return undefined;
  const held = await holdRefund(deps, {
    registerKey: ask.registerKey,
    invoiceId: refund.invoiceId,
    paid: refund.paid,
    payout: quote.id,
    amount: quote.amount.value,
    currency: quote.currency,
    by: ask.requester,
    time: now,
  });
  if (held.ok) return undefined;
  if (held.why === "over") return { kind: "refund_over", asked: quote.amount.value, figures: held.figures };
  if (held.why === "currency") return { kind: "refund_currency", paid: held.paid, method: quote.method };
  return { kind: "refund_unreadable" };
}

/** A hold let go: the request it was made for was refused after all (a cap). */
export async function releaseHeld(
  deps: RefundDeps,
  ask: RefundAsk,
  payout: string,
  now: Date,
): Promise<void> {
  if (!ask.refundOf) return;
  const where = { registerKey: ask.registerKey, invoiceId: ask.refundOf.invoiceId, payout };
  await endHold(deps, where, { paid: false, at: now, reason: "refused" });
}

/** Why an invoice cannot be refunded now, before any form or quote. */
export type RefundCheckRefusal =
  | { kind: "not_paid"; invoiceId: string; state: string }
  | { kind: "no_amount"; invoiceId: string }
  | { kind: "nothing_left"; figures: RefundFigures }
  | RefundRefusal;

/** What an invoice's payment brought in, as refunds are held against it: its amount and currency. */
export function paidOf(invoice: Invoice): InvoicePaid | undefined {
  const main = invoice.amounts.amount;
  const money = main?.currency
    ? main
    : invoice.amounts.rubAmount
      ? { ...invoice.amounts.rubAmount, currency: "RUB" }
      : undefined;
  if (!money?.currency || compareDecimals(money.value, "0") <= 0) return undefined;
  const at = invoice.finalAt?.epochSeconds;
  return {
    amount: money.value,
    currency: money.currency,
    at: at === undefined ? null : new Date(at * 1000).toISOString(),
  };
}

/**
 * Whether `invoice` may be refunded now, and how much: paid, with an amount, something left (the
 * holds of requests that ended meanwhile let go first), and `asked` (if given) within what is left.
 */
export async function refundableNow(
  deps: RefundDeps,
  registerKey: string,
  invoice: Invoice,
  asked: string | undefined,
  now: Date,
): Promise<{ paid: InvoicePaid; figures: RefundFigures } | { refusal: RefundCheckRefusal }> {
  if (invoice.state !== "payed")
    return { refusal: { kind: "not_paid", invoiceId: invoice.id, state: invoice.state } };
  const paid = paidOf(invoice);
  if (!paid) return { refusal: { kind: "no_amount", invoiceId: invoice.id } };
  let figures: RefundFigures;
  try {
    figures = (await refundFigures(deps, registerKey, invoice.id, now)) ?? figuresOf({ paid, refunds: [] });
  } catch {
    return { refusal: { kind: "refund_unreadable" } };
  }
  if (compareDecimals(figures.left, "0") <= 0) return { refusal: { kind: "nothing_left", figures } };
  if (asked !== undefined && compareDecimals(asked, figures.left) > 0)
    return { refusal: { kind: "refund_over", asked, figures } };
  return { paid, figures };
}
