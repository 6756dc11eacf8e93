import type { AuditAction } from "../audit/index.js";
import type { PayoffTerms } from "../payments/payoff-model.js";
import type { Release } from "../store/claims/index.js";
import {
  approvalRubOf,
  approversFor,
  countedVotes,
  limitOf,
  ruleNow,
  setAsideWith,
} from "./approval-rule.js";
import { type PayoutPolicy, payoutsOn } from "./policy.js";
import { type PayoutDeps, swapRecorded, timingOf } from "./request-deps.js";
import type { PayoutRequest, ReadRequest } from "./request-model.js";
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
  return policy ? ruleNow(policy, request).needed : request.needed;
}

/**
 * The policy in force checked once more before a send (approved or submitting, never reached the
 * service): stopped when sendStop says so; back to waiting when the approvals that count now (its
 * approvers within their limits) are fewer than the rule asks now (a lowered threshold, a lowered
 * limit: that vote set aside); stopped when a lowered limit leaves nobody else who could approve.
 * A request one approver sufficed for because it pays a trusted recipient ("trusted_one") needs
 * the threshold's approvals again once that recipient is no longer trusted (removed meanwhile).
 * Undefined: it may be sent.
 */
export async function recheckBeforeSend(
  deps: PayoutDeps,
  read: ReadRequest,
  policy: PayoutPolicy | undefined,
  at: number,
): Promise<Release | undefined> {
  const { request } = read;
  const recipientTrusted = request.recipient ? ((await deps.recipients?.trusted(request)) ?? false) : false;
  // A batch's row counts as trusted only when its whole batch was, and its own recipient still is.
  const trusted = request.batch ? request.batch.trusted === true && recipientTrusted : recipientTrusted;
  const stop = sendStop(policy, request, new Date(at));
  if (stop || !policy) return recordStopped(deps, read, stop ?? { why: "payouts_off" }, at);
  const { counted, overLimit } = countedVotes(policy, request);
  const rule = ruleNow(policy, request, trusted);
  if (counted.length >= rule.needed) return undefined;
  const voters = request.votes.map((vote) => vote.by);
  const others = approversFor(policy, approvalRubOf(request), [request.requester, ...voters]);
  const over = overLimit[0];
  if (over && counted.length + others.length < rule.needed)
    return recordStopped(
      deps,
      read,
      { why: "over_limit", approver: over.by, limit: limitOf(policy, over.by) },
      at,
    );
  // A batch's row is approved with its batch, on the batch's card: it is not asked again alone.
  if (request.batch) return recordStopped(deps, read, { why: "batch_approvals" }, at);
  const setAside = setAsideWith(policy, request, overLimit);
  const reopened = { needed: rule.needed, rule: rule.rule, ruleAt: rule.at, votes: counted, setAside };
  return backToWaiting(deps, read, reopened, at, request.rule === "trusted_one" && !trusted);
}

/** What a request back to waiting asks: the approvals needed by which rule, the votes still counted. */
type Reopened = Pick<PayoutRequest, "needed" | "rule" | "ruleAt" | "votes" | "setAside">;

/**
 * approved or submitting (never reached the service) with fewer approvals than the policy asks now
 * (its two-approver threshold lowered below the amount, an approver's limit lowered below it) →
 * waiting, for the approvals still needed: the votes that count kept, its card saying how many it
 * has of how many (and whose approval no longer counts). Audited once, by the swap's winner.
 */
export async function backToWaiting(
  deps: PayoutDeps,
  read: ReadRequest,
  reopened: Reopened,
  at: number,
  recipientGone = false,
): Promise<Release> {
  const { approvedAt: _approvedAt, attempt: _attempt, ...rest } = read.request;
  const aside = (reopened.setAside?.length ?? 0) > (rest.setAside?.length ?? 0);
  const stored = await swapRecorded(
    deps,
    read,
    { ...rest, ...reopened, status: "waiting" },
    {
      action: "payout.reopened",
      actor: "kassa",
      outcome: "done",
      reason: recipientGone
        ? "its recipient is no longer trusted: the threshold's approvals again"
        : aside
          ? "an approver's limit now is below this amount: their approval no longer counts"
          : "the payout policy now asks more approvals of this amount",
      after: {
        needed: reopened.needed,
        votes: reopened.votes.length,
        ...(aside ? { setAside: (reopened.setAside ?? []).map((vote) => vote.by) } : {}),
      },
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
  over_limit: "an approver's limit now is below this amount, and nobody else could approve it",
  batch_approvals: "the payout policy now asks more approvals than its batch was given",
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
    ...(stop.approver
      ? { after: { approver: stop.approver, ...(stop.limit ? { limit: stop.limit } : {}) } }
      : {}),
    ...(stop.cap ? { after: { cap: stop.cap.which, limit: stop.cap.limit, counted: stop.cap.total } } : {}),
    time,
  });
  if (!stored) return { dueAt: at };
  return { dueAt: (await cancelAtService(deps, stored, time)) ? at : at + timingOf(deps).retryMs };
}
