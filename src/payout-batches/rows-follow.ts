import { approveRow, type BatchEnd, endRow } from "../payouts/batch-rows.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import { type Batch, batchTotal } from "./model.js";

/** What a batch's work needs: the payouts' own (its board, policies, the service, the audit trail). */
export type BatchWorkDeps = PayoutDeps;

/**
 * The rows brought to what the batch decided: approved with it (its votes, its total, whether every
 * row was trusted), or ended with it and their quotes cancelled. Safe to repeat (the follower does,
 * after a crash between the batch's decision and its rows).
 */
export async function applyToRows(deps: BatchWorkDeps, batch: Batch, now: Date): Promise<void> {
  const ids = batch.rows.flatMap((row) => (row.payout ? [row.payout] : []));
  if (batch.status === "approved") {
    const kept = batch.rows.filter((row) => row.payout && !row.dropped);
    const approval = {
      batch: batch.id,
      votes: batch.votes,
      needed: batch.needed === 1 ? (1 as const) : (2 as const),
      rule: batch.rule,
      ruleAt: batch.ruleAt,
      total: batchTotal(batch),
      trusted: kept.length > 0 && kept.every((row) => row.recipient !== undefined),
      at: now,
    };
    for (const row of kept) if (row.payout) await approveRow(deps, row.payout, approval);
    return;
  }
  if (batch.status !== "rejected" && batch.status !== "cancelled" && batch.status !== "expired") return;
  const end: BatchEnd = {
    batch: batch.id,
    status: batch.status,
    by: batch.rejection?.by ?? batch.cancellation?.by ?? "kassa",
    reason: batch.rejection?.reason,
    at: now,
  };
  for (const id of ids) await endRow(deps, id, end);
}
