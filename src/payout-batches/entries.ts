import type { AuditAction } from "../audit/index.js";
import { appendOwed, type OwedEntry, owedEntry } from "../audit/owed.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { type Batch, keptRows } from "./model.js";

// A batch's steps in the audit trail: each entry owed in the same atomic step as the batch's change
// (src/audit/owed.ts), then appended.

export type BatchAct = {
  action: AuditAction;
  actor: string;
  outcome: "done" | "refused";
  reason?: string | undefined;
  time: Date;
};

/** The audit entry of one step of a batch. */
export function batchEntry(batch: Batch, act: BatchAct): OwedEntry {
  const { name } = registerOfKey(batch.registerKey);
  const kept = keptRows(batch);
  return owedEntry({
    time: act.time.toISOString(),
    team: batch.team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: act.actor,
    action: act.action,
    object: `batch ${batch.id}`,
    after: {
      status: batch.status,
      rows: kept.length,
      payouts: kept.map((row) => row.payout ?? ""),
      needed: batch.needed,
      votes: batch.votes.map((vote) => vote.by),
    },
    outcome: act.outcome,
    ...(act.reason ? { reason: act.reason.slice(0, 200) } : {}),
  });
}

/** The entries owed appended now (what the store does not take stays owed for the next drain). */
export async function appendBatchEntries(deps: PayoutDeps, at: Date): Promise<void> {
  await appendOwed(deps, at.getTime());
}
