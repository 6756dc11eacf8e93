import { endHold, figuresOf, type RefundDeps, type RefundFigures, refundRecord } from "./refund-record.js";
import { FINAL_STATUSES, type PayoutRequest, readRequest } from "./request-model.js";

// A refund's hold follows its request: paid once the payout ended paid, let go once the request ended
// without paying. The worker ends it when it sees the request's end; anyone reading an invoice's
// refunds ends the holds whose requests ended meanwhile (or never came to be), so the figures shown
// are never older than the requests.

/** A hold with no request this long after it was made: its asker stopped before storing the request. */
const ORPHAN_MS = 10 * 60_000;

/** What became of a refund's request: paid, not paid (the hold let go), or still on its way. */
export function refundOutcome(request: PayoutRequest): "paid" | "unpaid" | "pending" {
  if (request.status === "ended") return request.service?.state === "payed" ? "paid" : "unpaid";
  // Sent at the service by someone else: paid when the service says so, gone when it failed.
  if (request.status === "outside") {
    const state = request.outside?.state;
    if (state === "payed") return "paid";
    return state === "failed" || state === "canceled" ? "unpaid" : "pending";
  }
  return FINAL_STATUSES.has(request.status) ? "unpaid" : "pending";
}

/** The hold of a refund's request ended as its request did (nothing for a request still on its way). */
export async function settleRefundOf(deps: RefundDeps, request: PayoutRequest, now: Date): Promise<void> {
  if (!request.refundOf) return;
  const outcome = refundOutcome(request);
  if (outcome === "pending") return;
  const at = new Date(request.endedAt ?? now.toISOString());
  await endHold(
    deps,
    { registerKey: request.registerKey, invoiceId: request.refundOf.invoiceId, payout: request.id },
    {
      paid: outcome === "paid",
      at: outcome === "paid" ? at : now,
      reason: outcome === "paid" ? undefined : request.status,
    },
  );
}

/**
 * The invoice's refund figures now (undefined: no refund asked): each hold whose request ended
 * meanwhile, or never came to be, ended first.
 */
export async function refundFigures(
  deps: RefundDeps,
  registerKey: string,
  invoiceId: string,
  now: Date,
): Promise<RefundFigures | undefined> {
  const record = await refundRecord(deps, registerKey, invoiceId);
  if (!record) return undefined;
  let ended = false;
  for (const entry of record.refunds.filter((one) => one.status === "reserved")) {
    const read = await readRequest(deps.board, entry.payout);
    if (read && refundOutcome(read.request) !== "pending") {
      await settleRefundOf(deps, read.request, now);
      ended = true;
    } else if (!read && now.getTime() - Date.parse(entry.at) > ORPHAN_MS) {
      const where = { registerKey, invoiceId, payout: entry.payout };
      await endHold(deps, where, { paid: false, at: now, reason: "never requested" });
      ended = true;
    }
  }
  const fresh = ended ? await refundRecord(deps, registerKey, invoiceId) : record;
  return fresh && figuresOf(fresh);
}
