import { type PayoutDeps, updateRequest } from "./request-deps.js";
import { PAYOUT_FAMILY, type PayoutRequest, readRequest } from "./request-model.js";
import { cancelAtService } from "./service-cancel.js";

// A batch's rows are payout requests of their own (src/payout-batches decides for them all): the
// batch's approval given to each waiting row, and the batch's end (rejected, cancelled, expired)
// given to each row not yet on its way. Each move is the request's own compare-and-set with its
// audit entry, so it is safe to repeat: a row moved already, or gone its own way, is left as it is.

/** What a batch's approval gives each row: its votes and rule, its total and whether all rows were trusted. */
export type BatchApproval = {
  batch: string;
  votes: PayoutRequest["votes"];
  needed: 1 | 2;
  rule: NonNullable<PayoutRequest["rule"]>;
  ruleAt: string;
  total: string;
  trusted: boolean;
  at: Date;
};

/** Row `id` of batch `approval.batch`, waiting → approved with the batch's votes, due now. False: it was not waiting. */
export async function approveRow(deps: PayoutDeps, id: string, approval: BatchApproval): Promise<boolean> {
  const at = approval.at.toISOString();
  const { result } = await updateRequest(deps, id, (read) => {
    const request = read?.request;
    if (request?.batch?.id !== approval.batch || request.status !== "waiting") return { result: false };
    if (approval.at.getTime() >= Date.parse(request.expiresAt)) return { result: false };
    const next: PayoutRequest = {
      ...request,
      status: "approved",
      votes: approval.votes,
      needed: approval.needed,
      rule: approval.rule,
      ruleAt: approval.ruleAt,
      approvedAt: at,
      batch: { ...request.batch, total: approval.total, trusted: approval.trusted },
    };
    const act = {
      action: "payout.approved" as const,
      actor: approval.votes.at(-1)?.by ?? "kassa",
      outcome: "done" as const,
      reason: `approved with its batch ${approval.batch}`,
      after: { batch: approval.batch, row: request.batch.row },
      time: approval.at,
    };
    return { next, act, result: true };
  });
  if (result) await deps.board.nudge(PAYOUT_FAMILY, id, approval.at.getTime());
  return result;
}

/** How a batch ended before its rows went: who ended it, and the row's status for it. */
export type BatchEnd = {
  batch: string;
  status: "rejected" | "cancelled" | "expired";
  by: string;
  reason?: string | undefined;
  at: Date;
};

/**
 * Row `id` of a batch that ended unsent: waiting or approved (never marked for its send) → the
 * batch's end, its quote cancelled at the service (the worker tries again while the service does not
 * answer). True when the row is at an end now (moved, or it was already).
 */
export async function endRow(deps: PayoutDeps, id: string, end: BatchEnd): Promise<boolean> {
  const at = end.at.toISOString();
  const { result, stored } = await updateRequest(deps, id, (read) => {
    const request = read?.request;
    if (request?.batch?.id !== end.batch) return { result: true };
    if (request.status !== "waiting" && request.status !== "approved")
      return { result: request.status !== "submitting" };
    // An approved row never expires (STATUS_MOVES): its batch was decided, and the policy stops it.
    if (end.status === "expired" && request.status !== "waiting") return { result: false };
    const person = /^[UW]/.test(end.by) ? end.by : undefined;
    const next: PayoutRequest = {
      ...request,
      status: end.status,
      ...(end.status === "rejected" && person
        ? { rejection: { by: person, at, reason: end.reason ?? "-" } }
        : {}),
      ...(end.status === "cancelled" && person ? { cancellation: { by: person, at } } : {}),
      serviceCancel: "pending",
      endedAt: at,
    };
    const act = {
      action: end.status === "rejected" ? ("payout.rejected" as const) : ("payout.cancelled" as const),
      actor: end.by,
      outcome: "done" as const,
      reason: end.reason ?? `its batch ${end.batch} ${end.status}`,
      after: { batch: end.batch, row: request.batch.row },
      time: end.at,
    };
    return { next, act, result: true };
  });
  if (stored && !(await cancelAtService(deps, stored, end.at)))
    await deps.board.nudge(PAYOUT_FAMILY, id, end.at.getTime());
  return result;
}

/** The rows' requests as stored now (a row whose request is gone reads as undefined). */
export async function readRows(
  deps: Pick<PayoutDeps, "board">,
  ids: readonly string[],
): Promise<Map<string, PayoutRequest | undefined>> {
  const read = await Promise.all(
    ids.map(async (id) => [id, (await readRequest(deps.board, id))?.request] as const),
  );
  return new Map(read);
}
