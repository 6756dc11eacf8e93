import type { AuditAction } from "../audit/index.js";
import type { Release } from "../store/claims/index.js";
import { type PayoutPolicy, payoutsOn } from "./policy.js";
import { type PayoutDeps, recordPayoutAct, timingOf } from "./request-deps.js";
import { type PayoutRequest, type ReadRequest, swapRequest } from "./request-model.js";
import { cancelAtService } from "./service-cancel.js";

// The last look before a send: an approved request is sent only while the policy in force still
// allows it. Checked when the request is about to be marked and again once the service has said the
// payout is still `created` (it never reached the service), just before the submit: a request
// approved, then caught by the service being down, is not sent after the kill switch, its expiry, or
// the removal of an approver whose vote it counts. It is stopped instead, its quote cancelled.

export type StopWhy = NonNullable<PayoutRequest["stop"]>;

/** Why an approved request must not be sent now; undefined when it may be. */
export function sendStop(
  policy: PayoutPolicy | undefined,
  request: PayoutRequest,
  now: Date,
): Omit<StopWhy, "at"> | undefined {
  if (!payoutsOn(policy)) return { why: "payouts_off" };
  if (now.getTime() >= Date.parse(request.expiresAt)) return { why: "expired" };
  const gone = request.votes.find(
    (vote) => !policy.approvers.includes(vote.by) || vote.by === request.requester,
  );
  return gone ? { why: "approver_removed", approver: gone.by } : undefined;
}

const REASONS: Record<StopWhy["why"], string> = {
  payouts_off: "payouts switched off before it was sent",
  expired: "expired before it was sent",
  approver_removed: "an approver whose vote it counted was removed before it was sent",
};

/**
 * approved or submitting (never reached the service) → stopped: its quote cancelled at the service
 * (tried again by the worker while the service does not answer). Audited once, by the swap's winner.
 */
export async function recordStopped(
  deps: PayoutDeps,
  read: ReadRequest,
  stop: Omit<StopWhy, "at">,
  at: number,
): Promise<Release> {
  const time = new Date(at);
  const next: PayoutRequest = {
    ...read.request,
    status: "stopped",
    stop: { ...stop, at: time.toISOString() },
    serviceCancel: "pending",
    endedAt: time.toISOString(),
  };
  const stored = await swapRequest(deps.board, read, next);
  if (!stored) return { dueAt: at };
  const action: AuditAction = "payout.cancelled";
  await recordPayoutAct(deps, stored.request, {
    action,
    actor: "kassa",
    outcome: "done",
    reason: REASONS[stop.why],
    ...(stop.approver ? { after: { approver: stop.approver } } : {}),
    time,
  });
  return { dueAt: (await cancelAtService(deps, stored, time)) ? at : at + timingOf(deps).retryMs };
}
