import type { Money } from "../payments/model.js";
import type { Span } from "../reports/periods.js";
import { type PaidRefund, type RefundTally, refundedByInvoice, refundsIn } from "../reports/refunds.js";

// Refunds in an export (issue 52): each invoice's row says what refunds of it gave back, in a column
// of its own, and the file's line counts the refunds paid out in the period. Neither is ever taken
// off the takings: the paid amounts and the paid total stay what the customers paid.

/** The register's refunds as an export shows them; `unread`: the list could not be read just now. */
export type ExportRefunds =
  | { unread: false; byInvoice: Map<string, { amount: string; currency: string }>; inPeriod: RefundTally }
  | { unread: true };

/** No refunds read at all (an export that was given no way to read them: none shown, nothing said). */
const NONE: ExportRefunds = { unread: false, byInvoice: new Map(), inPeriod: { count: 0, totals: [] } };

/** The register's paid refunds through `read`, for an export of `span`; a failed read is said, never hidden. */
export async function exportRefunds(
  read: (() => Promise<readonly PaidRefund[]>) | undefined,
  span: Span,
): Promise<ExportRefunds> {
  if (!read) return NONE;
  try {
    const refunds = await read();
    return { unread: false, byInvoice: refundedByInvoice(refunds), inPeriod: refundsIn(refunds, span) };
  } catch {
    return { unread: true };
  }
}

/** What refunds of invoice `id` gave back so far (null: none, or the refunds could not be read). */
export function refundedOf(refunds: ExportRefunds, id: string): Money | null {
  if (refunds.unread) return null;
  const refunded = refunds.byInvoice.get(id);
  return refunded ? { value: refunded.amount, currency: refunded.currency.toUpperCase() } : null;
}

/** What the file's line says of refunds: those paid out in the period, or that they could not be read. */
export function refundsNote(refunds: ExportRefunds): RefundTally | "unread" {
  return refunds.unread ? "unread" : refunds.inPeriod;
}
