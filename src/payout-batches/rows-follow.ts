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
  if (batch.status === "approved" && batch.stopped) {
    const { by, reason } = batch.stopped;
    const stop: BatchEnd = { batch: batch.id, status: "rejected", by, reason, at: now };
    for (const id of ids) await eachRow(deps, id, () => endRow(deps, id, stop));
    return;
  }
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
    for (const row of kept)
      if (row.payout) await eachRow(deps, row.payout, () => approveRow(deps, row.payout ?? "", approval));
    return;
  }
  if (batch.status !== "rejected" && batch.status !== "cancelled" && batch.status !== "expired") return;
  const end: BatchEnd = {
    batch: batch.id,
    status: batch.status,
    by: batch.rejection?.by ?? (batch.cancellation?.why === "requester" ? batch.cancellation.by : "kassa"),
    reason: batch.rejection?.reason,
    at: now,
  };
  for (const id of ids) await eachRow(deps, id, () => endRow(deps, id, end));
}

/** One row's move: a failure is logged and left to the follower's next look (it repeats the batch's). */
async function eachRow(deps: BatchWorkDeps, id: string, move: () => Promise<unknown>): Promise<void> {
  try {
    await move();
  } catch (error) {
    deps.logger.warn({ payout: id, err: error }, "a batch's row did not follow its batch yet: tried again");
  }
}
