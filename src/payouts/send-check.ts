import type { AuditAction } from "../audit/index.js";
import type { PayoffTerms } from "../payments/payoff-model.js";
import type { Release } from "../store/claims/index.js";
import { type PayoutPolicy, payoutsOn } from "./policy.js";
import { type PayoutDeps, swapRecorded, timingOf } from "./request-deps.js";
import type { PayoutRequest, ReadRequest } from "./request-model.js";
import { approvalsNeeded } from "./requests.js";
import { cancelAtService } from "./service-cancel.js";

// The last look before a send: an approved request is sent only while the policy in force still
// allows it. Checked when the request is about to be marked and again once the service has said the
// payout is still `created` (it never reached the service), just before the submit: a request
// approved, then caught by the service being down, is not sent after the kill switch, its expiry, or
// the removal of an approver whose vote it counts. It is stopped instead, its quote cancelled.

export type StopWhy = NonNullable<PayoutRequest["stop"]>;

/** What the approvers saw on the card: the amount, method and wallet, the fee, what arrives and leaves. */
export function approvedTerms(request: PayoutRequest): PayoffTerms {
  const money = (value: string) => ({ value, currency: request.currency });
  return {
    amount: money(request.amount),
    method: request.method,
    wallet: request.wallet,
    fee: money(request.fee),
    receives: money(request.receives),
    leavesBalance: money(request.leavesBalance),
  };
}

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

/** The approvals the policy asks for now of the request's amount: never fewer than it was made with. */
export function approvalsNeededNow(policy: PayoutPolicy | undefined, request: PayoutRequest): number {
  if (!policy) return request.needed;
  return Math.max(request.needed, approvalsNeeded(request.rubAmount ?? undefined, policy));
}

/**
 * The approvals needed before the send: as the policy asks now, and for a request that one approver
 * sufficed for because it pays a trusted recipient (rule "trusted_one"), once that recipient is no
 * longer trusted with its method and wallet (removed meanwhile), what the two-approver threshold asks
 * of its amount. `recipient`: the recipient's removal is why it needs more.
 */
export async function neededBeforeSend(
  deps: Pick<PayoutDeps, "recipients">,
  policy: PayoutPolicy | undefined,
  request: PayoutRequest,
): Promise<{ needed: number; recipient: boolean }> {
  const needed = approvalsNeededNow(policy, request);
  if (request.rule !== "trusted_one" || needed >= 2) return { needed, recipient: false };
  if ((await deps.recipients?.trusted(request)) ?? false) return { needed, recipient: false };
  // Without the trust, the two-approver threshold as it stands (always two when the policy is gone).
  const threshold = policy ? approvalsNeeded(request.rubAmount ?? undefined, policy) : 2;
  return threshold > needed ? { needed: threshold, recipient: true } : { needed, recipient: false };
}

/**
 * approved or submitting (never reached the service) with fewer approvals than the policy asks now
 * (its two-approver threshold lowered below the amount) → waiting, for the approvals still needed:
 * its votes kept, its card saying how many it has of how many. Audited once, by the swap's winner.
 */
export async function backToWaiting(
  deps: PayoutDeps,
  read: ReadRequest,
  needed: number,
  at: number,
  recipientGone = false,
): Promise<Release> {
  const { approvedAt: _approvedAt, attempt: _attempt, ...rest } = read.request;
  const stored = await swapRecorded(
    deps,
    read,
    { ...rest, status: "waiting", needed, ...(recipientGone ? { rule: "threshold" as const } : {}) },
    {
      action: "payout.reopened",
      actor: "kassa",
      outcome: "done",
      reason: recipientGone
        ? "its recipient is no longer trusted: two approvals again"
        : "the payout policy now asks more approvals of this amount",
      after: { needed, votes: rest.votes.length },
      time: new Date(at),
    },
  );
  if (!stored) return { dueAt: at };
  return { dueAt: Date.parse(stored.request.expiresAt) };
}

const REASONS: Record<StopWhy["why"], string> = {
  payouts_off: "payouts switched off before it was sent",
  expired: "expired before it was sent",
  approver_removed: "an approver whose vote it counted was removed before it was sent",
  day_cap: "sending it today would pass a daily cap",
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
  const action: AuditAction = "payout.cancelled";
  const stored = await swapRecorded(deps, read, next, {
    action,
    actor: "kassa",
    outcome: "done",
    reason: REASONS[stop.why],
    ...(stop.approver ? { after: { approver: stop.approver } } : {}),
    ...(stop.cap ? { after: { cap: stop.cap.which, limit: stop.cap.limit, counted: stop.cap.total } } : {}),
    time,
  });
  if (!stored) return { dueAt: at };
  return { dueAt: (await cancelAtService(deps, stored, time)) ? at : at + timingOf(deps).retryMs };
}
