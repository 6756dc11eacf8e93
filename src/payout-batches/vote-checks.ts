import { compareDecimals } from "../payments/decimal.js";
import { approversFor, limitOf, withinLimit } from "../payouts/approval-rule.js";
import { readRows } from "../payouts/batch-rows.js";
import { type PayoutPolicy, payoutsOn } from "../payouts/policy.js";
import type { VoteRefusal } from "../payouts/votes.js";
import { readWrittenAmount } from "../util/rub-amount.js";
import { type Batch, batchTotal, keptRows, readBatch, refusedRows } from "./model.js";
import type { BatchWorkDeps } from "./rows-follow.js";

// Who may decide on a batch now, checked at the click and again when the decision is written.

export type BatchVoteRefusal =
  | VoteRefusal
  /** What was typed is not this batch's row count and total. */
  | { kind: "typed_mismatch"; rows: number; total: string }
  /** Rows refused and not dropped yet: nobody may approve until its requester drops them. */
  | { kind: "refused_rows"; count: number };

export function closedRefusal(batch: Batch, now: Date): VoteRefusal | undefined {
  if (batch.status === "waiting" && now.getTime() >= Date.parse(batch.expiresAt))
    return { kind: "expired", at: batch.expiresAt };
  if (batch.status === "waiting") return undefined;
  if (batch.status === "quoting") return { kind: "busy" };
  // Cancelled by Kassa (its quoting lost, its card refused) rather than by its requester.
  const cancelledBy =
    batch.cancellation && (batch.cancellation.why === "requester" ? batch.cancellation.by : "kassa");
  const by = batch.rejection?.by ?? cancelledBy ?? (batch.approvedAt ? batch.votes.at(-1)?.by : undefined);
  const at =
    batch.rejection?.at ?? batch.cancellation?.at ?? batch.approvedAt ?? batch.endedAt ?? batch.createdAt;
  return { kind: "closed", status: batch.status, by: by ?? "kassa", at };
}

/**
 * Whether Reject is closed: open while the batch waits, and once approved until someone stopped its
 * rows not yet sent (Stop unsent rows); then it says who stopped them, and when.
 */
export function rejectClosed(batch: Batch, now: Date, unsent: number): VoteRefusal | undefined {
  const stopped = batch.stopped;
  if (stopped) return { kind: "closed", status: "rejected", by: stopped.by, at: stopped.at };
  return batch.status === "approved" && unsent > 0 ? undefined : closedRefusal(batch, now);
}

/** How many of the batch's rows are approved or waiting still, not yet marked for their send. */
export async function unsentRows(deps: Pick<BatchWorkDeps, "board">, id: string): Promise<number> {
  const batch = await readBatch(deps.board, id);
  const ids = batch ? keptRows(batch).flatMap((row) => (row.payout ? [row.payout] : [])) : [];
  const rows = await readRows(deps, ids);
  return [...rows.values()].filter((row) => row?.status === "waiting" || row?.status === "approved").length;
}

/** Whether `typed` is `ROWS/TOTAL` of this batch (the total as people write amounts). */
export function typedMatches(typed: string, rows: number, total: string): boolean {
  const match = /^\s*(\d+)\s*\/\s*(\S(?:.*\S)?)\s*$/.exec(typed);
  if (!match || Number(match[1]) !== rows) return false;
  const amount = readWrittenAmount((match[2] ?? "").replace(/\s*(rub|руб\.?|₽)$/i, ""));
  return amount.ok && compareDecimals(amount.value, total) === 0;
}

/** Whether `person` may approve the batch now (the typed figures aside); undefined when they may. */
export function approveRefusal(
  policy: PayoutPolicy | undefined,
  batch: Batch,
  person: string,
  now: Date,
): BatchVoteRefusal | undefined {
  if (!payoutsOn(policy)) return { kind: "payouts_off" };
  const closed = closedRefusal(batch, now);
  if (closed) return closed;
  const refused = refusedRows(batch).length;
  if (refused > 0) return { kind: "refused_rows", count: refused };
  if (person === batch.requester) return { kind: "own_request" };
  if (!policy.approvers.includes(person)) return { kind: "not_an_approver", approvers: policy.approvers };
  const mine = batch.votes.find((vote) => vote.by === person);
  if (mine) return { kind: "already_voted", at: mine.at };
  const total = batchTotal(batch);
  if (withinLimit(policy, person, total)) return undefined;
  const canApprove = approversFor(policy, total, [batch.requester, ...batch.votes.map((vote) => vote.by)]);
  return { kind: "over_limit", limit: limitOf(policy, person) ?? "0", canApprove };
}

/**
 * A click's first check, before a modal opens: whether `person` may approve or reject batch `id`
 * now; with the figures the approve modal shows. The decision checks again when it is given.
 */
export async function batchCheck(
  deps: Pick<BatchWorkDeps, "board" | "policies">,
  id: string,
  team: string,
  person: string,
  now: Date,
  kind: "approve" | "reject",
): Promise<{ refusal: BatchVoteRefusal } | { id: string; rows: number; total: string; approved: boolean }> {
  const batch = await readBatch(deps.board, id, team);
  if (!batch) return { refusal: { kind: "not_found" } };
  const policy = await deps.policies.get(batch.registerKey);
  const refusal =
    kind === "approve"
      ? approveRefusal(policy, batch, person, now)
      : !payoutsOn(policy)
        ? ({ kind: "payouts_off" } as const)
        : (rejectClosed(batch, now, await unsentRows(deps, id)) ??
          (person === batch.requester
            ? ({ kind: "own_request" } as const)
            : policy.approvers.includes(person)
              ? undefined
              : ({ kind: "not_an_approver", approvers: policy.approvers } as const)));
  if (refusal) return { refusal };
  return {
    id: batch.id,
    rows: keptRows(batch).length,
    total: batchTotal(batch),
    approved: batch.status === "approved",
  };
}
