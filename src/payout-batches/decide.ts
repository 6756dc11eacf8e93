import type { AuditAction } from "../audit/index.js";
import { recordOwed } from "../audit/owed.js";
import { withinLimit } from "../payouts/approval-rule.js";
import { type PayoutPolicy, payoutsOn } from "../payouts/policy.js";
import { FamilyBusyError } from "../store/claims/family.js";
import { batchRule } from "./create.js";
import {
  approveRefusal,
  type BatchVoteRefusal,
  closedRefusal,
  rejectClosed,
  typedMatches,
  unsentRows,
} from "./vote-checks.js";

export type { BatchVoteRefusal } from "./vote-checks.js";
export { batchCheck } from "./vote-checks.js";

import { appendBatchEntries, batchEntry } from "./entries.js";
import {
  BATCH_FAMILY,
  BATCH_FIELD,
  BATCHES,
  type Batch,
  batchTotal,
  keptRows,
  refusedRows,
} from "./model.js";
import { applyToRows, type BatchWorkDeps } from "./rows-follow.js";

// A batch's decisions: approve (an approver types its row count and total), reject (with a reason),
// Cancel batch (its requester, until it is approved) and Drop refused rows (its requester, before
// any approval). Each is checked against the policy read at the click and written by compare-and-set
// of the batch with its audit entry, so two clicks on two replicas give one outcome; then the rows
// (payout requests) follow: approved with the batch, or ended with it and their quotes cancelled.

export type BatchDecision =
  | { kind: "approval_noted"; batch: Batch; votes: number; needed: number }
  | { kind: "approved"; batch: Batch }
  | { kind: "rejected"; batch: Batch }
  /** Approved, some rows not yet sent: those stopped (each rejected, its quote cancelled); the rest go on. */
  | { kind: "stopped"; batch: Batch }
  | { kind: "cancelled"; batch: Batch }
  | { kind: "dropped"; batch: Batch; rows: number }
  | { kind: "refused"; refusal: BatchVoteRefusal; batch?: Batch };

type Change = { refusal: BatchVoteRefusal } | { next: Batch; result: BatchDecision };

/** Reads, decides and compare-and-sets until one decision lands; a refusal recorded once; the rows follow. */
async function decide(
  deps: BatchWorkDeps,
  id: string,
  team: string,
  act: { action: AuditAction; actor: string; now: Date },
  change: (batch: Batch, policy: PayoutPolicy | undefined) => Change,
): Promise<BatchDecision> {
  const first = (await BATCHES.read(deps.board, id, BATCH_FIELD)).value;
  if (first?.team !== team) return { kind: "refused", refusal: { kind: "not_found" } };
  const policy = await deps.policies.get(first.registerKey);
  let decision: BatchDecision;
  try {
    decision = await BATCHES.update(deps.board, id, BATCH_FIELD, (stored) => {
      const batch = stored.value;
      if (!batch) return { result: { kind: "refused", refusal: { kind: "not_found" } } as BatchDecision };
      const step = change(batch, policy);
      if ("refusal" in step)
        return { result: { kind: "refused", refusal: step.refusal, batch } as BatchDecision };
      const along = batchEntry(step.next, { ...act, outcome: "done", time: act.now });
      return { next: step.next, along, result: step.result };
    });
  } catch (error) {
    if (error instanceof FamilyBusyError) return { kind: "refused", refusal: { kind: "busy" } };
    throw error;
  }
  if (decision.kind === "refused") {
    const reason = decision.refusal.kind;
    if (decision.batch && reason !== "not_found")
      await recordBatchRefusal(deps, decision.batch, { ...act, reason });
    return decision;
  }
  await appendBatchEntries(deps, act.now);
  await applyToRows(deps, decision.batch, act.now);
  await deps.board.nudge(BATCH_FAMILY, id, act.now.getTime());
  return decision;
}

async function recordBatchRefusal(
  deps: BatchWorkDeps,
  batch: Batch,
  act: { action: AuditAction; actor: string; now: Date; reason: string },
) {
  const entry = batchEntry(batch, { ...act, outcome: "refused", time: act.now });
  await recordOwed(deps, entry, act.now.getTime());
}

/** An approver's approval, typed as `ROWS/TOTAL`: the last one needed approves every row at once. */
export function approveBatch(
  deps: BatchWorkDeps,
  id: string,
  team: string,
  approver: string,
  typed: string,
  now: Date,
) {
  return decide(deps, id, team, { action: "batch.approved", actor: approver, now }, (batch, policy) => {
    const refusal = approveRefusal(policy, batch, approver, now);
    if (refusal || !policy) return { refusal: refusal ?? { kind: "payouts_off" } };
    const kept = keptRows(batch);
    const total = batchTotal(batch);
    if (!typedMatches(typed, kept.length, total))
      return { refusal: { kind: "typed_mismatch", rows: kept.length, total } };
    const at = now.toISOString();
    const counted = batch.votes.filter(
      (vote) => policy.approvers.includes(vote.by) && withinLimit(policy, vote.by, total),
    );
    const votes = [...counted, { by: approver, at }];
    const rule = batchRule(policy, total, kept);
    const needed = Math.max(rule.needed, batch.needed);
    const counts: Batch = {
      ...batch,
      votes,
      needed,
      ...(rule.needed >= batch.needed ? { rule: rule.rule, ruleAt: rule.at } : {}),
    };
    if (votes.length < needed)
      return { next: counts, result: { kind: "approval_noted", batch: counts, votes: votes.length, needed } };
    const next: Batch = { ...counts, status: "approved", approvedAt: at };
    return { next, result: { kind: "approved", batch: next } };
  });
}

/**
 * An approver's rejection, with a reason: every row's quote cancelled. Once approved, Stop unsent
 * rows: those not yet on their way (none left: it is closed, as approved).
 */
export async function rejectBatch(
  deps: BatchWorkDeps,
  id: string,
  team: string,
  approver: string,
  reason: string,
  now: Date,
) {
  const unsent = await unsentRows(deps, id);
  return decide(deps, id, team, { action: "batch.rejected", actor: approver, now }, (batch, policy) => {
    if (!payoutsOn(policy)) return { refusal: { kind: "payouts_off" } };
    const closed = rejectClosed(batch, now, unsent);
    if (closed) return { refusal: closed };
    if (approver === batch.requester) return { refusal: { kind: "own_request" } };
    if (!policy.approvers.includes(approver))
      return { refusal: { kind: "not_an_approver", approvers: policy.approvers } };
    const said = reason.trim();
    if (said === "" || said.length > 500) return { refusal: { kind: "reason_required" } };
    const at = now.toISOString();
    // Approved already: the rows not yet on their way are stopped; those sent go on to their end.
    if (batch.status === "approved") {
      const next: Batch = { ...batch, stopped: { by: approver, at, reason: said } };
      return { next, result: { kind: "stopped", batch: next } };
    }
    const next: Batch = {
      ...batch,
      status: "rejected",
      rejection: { by: approver, at, reason: said },
      endedAt: at,
    };
    return { next, result: { kind: "rejected", batch: next } };
  });
}

/** Cancel batch: its requester, until it is approved; every row's quote cancelled. */
export function cancelBatch(deps: BatchWorkDeps, id: string, team: string, requester: string, now: Date) {
  return decide(deps, id, team, { action: "batch.cancelled", actor: requester, now }, (batch) => {
    if (requester !== batch.requester)
      return { refusal: { kind: "not_the_requester", requester: batch.requester } };
    const closed = closedRefusal(batch, now);
    if (closed) return { refusal: closed };
    const at = now.toISOString();
    const next: Batch = {
      ...batch,
      status: "cancelled",
      cancellation: { by: requester, at, why: "requester" },
      endedAt: at,
    };
    return { next, result: { kind: "cancelled", batch: next } };
  });
}

/** Drop refused rows: its requester, before any approval; the rest of the batch goes on. */
export function dropRefusedRows(deps: BatchWorkDeps, id: string, team: string, requester: string, now: Date) {
  return decide(deps, id, team, { action: "batch.rows_dropped", actor: requester, now }, (batch, policy) => {
    if (requester !== batch.requester)
      return { refusal: { kind: "not_the_requester", requester: batch.requester } };
    const closed = closedRefusal(batch, now);
    if (closed) return { refusal: closed };
    const refused = refusedRows(batch);
    if (refused.length === 0) return { refusal: { kind: "refused_rows", count: 0 } };
    const dropped = { by: requester, at: now.toISOString() };
    const rows = batch.rows.map((row) => (row.refusal && !row.dropped ? { ...row, dropped } : row));
    const next: Batch = { ...batch, rows, votes: [] };
    if (keptRows(next).length === 0)
      return {
        next: {
          ...next,
          status: "cancelled",
          cancellation: { ...dropped, why: "requester" },
          endedAt: dropped.at,
        },
        result: { kind: "cancelled", batch: next },
      };
    const rule = policy ? batchRule(policy, batchTotal(next), keptRows(next)) : undefined;
    const ruled = rule ? { ...next, needed: rule.needed, rule: rule.rule, ruleAt: rule.at } : next;
    return { next: ruled, result: { kind: "dropped", batch: ruled, rows: refused.length } };
  });
}
