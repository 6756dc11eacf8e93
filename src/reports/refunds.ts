import { z } from "zod";
import { Big } from "../payments/decimal.js";
import type { Span } from "./periods.js";

// Refunds paid out (issue 52): money given back for paid invoices, counted apart from takings. A
// report never nets them against what was paid: it shows them on a line of their own.

/** One refund paid out: the invoice it gave money back for, the payout, its amount and when it ended. */
export const paidRefundSchema = z.object({
  invoiceId: z.string().min(1).max(100),
  payout: z.string().min(1).max(100),
  amount: z.string().regex(/^\d+(\.\d+)?$/),
  currency: z.string().min(1).max(16),
  at: z.iso.datetime(),
});
export type PaidRefund = z.infer<typeof paidRefundSchema>;

/** The refunds paid out in a span: how many, and the total of each currency (exact, largest first). */
export type RefundTally = { count: number; totals: { currency: string; amount: string }[] };

/** The refunds among `refunds` paid out within `span` (epoch seconds, [from, to)). */
export function refundsIn(refunds: readonly PaidRefund[], span: Span): RefundTally {
  const sums = new Map<string, Big>();
  let count = 0;
  for (const refund of refunds) {
    const at = Date.parse(refund.at) / 1000;
    if (at < span.from || at >= span.to) continue;
    count += 1;
    const currency = refund.currency.toUpperCase();
    sums.set(currency, (sums.get(currency) ?? new Big(0)).plus(refund.amount));
  }
  const totals = [...sums]
    .sort(([a, x], [b, y]) => y.cmp(x) || a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount: amount.toFixed() }));
  return { count, totals };
}

/** The refunds paid out for each invoice, summed (one currency per invoice: its payment's). */
export function refundedByInvoice(
  refunds: readonly PaidRefund[],
): Map<string, { amount: string; currency: string }> {
  const byInvoice = new Map<string, { amount: string; currency: string }>();
  for (const refund of refunds) {
    const held = byInvoice.get(refund.invoiceId);
    const amount = held ? new Big(held.amount).plus(refund.amount).toFixed() : refund.amount;
    byInvoice.set(refund.invoiceId, { amount, currency: refund.currency });
  }
  return byInvoice;
}
