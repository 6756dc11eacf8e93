import type { AuditAction } from "../audit/index.js";
import { FamilyBusyError } from "../store/claims/family.js";
import { approversFor, countedVotes, limitOf, ruleNow, setAsideWith, withinLimit } from "./approval-rule.js";
import { type PayoutPolicy, payoutsOn } from "./policy.js";
import { type PayoutDeps, type RequestChange, recordPayoutAct, updateRequest } from "./request-deps.js";
import {
  closedBy,
  PAYOUT_FAMILY,
  type PayoutRequest,
  type ReadRequest,
  type RequestStatus,
  readRequest,
} from "./request-model.js";
import { cancelAtService } from "./service-cancel.js";

// Approve, reject and cancel: each checked against the policy read at the moment of the click, then
// applied by compare-and-set of the request's state, so two clicks at once (on two replicas) give one
// outcome and the other click is answered with what happened ("already approved by … at …").

export type VoteRefusal =
  /** No such request (or one forgotten, or an id tampered with): out of date. */
  | { kind: "not_found" }
  | { kind: "payouts_off" }
  | { kind: "not_an_approver"; approvers: string[] }
  /** The approver's limit (RUB) is below the amount: who else could approve it (none: nobody can). */
  | { kind: "over_limit"; limit: string; canApprove: string[] }
  | { kind: "own_request" }
  | { kind: "already_voted"; at: string }
  | { kind: "not_the_requester"; requester: string }
  | { kind: "reason_required" }
  /** Not approved in time (the worker cancels it at the service). */
  | { kind: "expired"; at: string }
  /** Decided already: by whom and when. */
  | { kind: "closed"; status: RequestStatus; by: string; at: string }
  /** The request kept changing under this click (many clicks at once): try again. */
  | { kind: "busy" };

export type VoteResult =
  /** An approval noted; more are needed. */
  | { kind: "approval_noted"; request: PayoutRequest; votes: number; needed: number }
  /** This approval was the last needed: the request is approved and due for its submit now. */
  | { kind: "approved"; request: PayoutRequest }
  | { kind: "rejected"; request: PayoutRequest }
  | { kind: "cancelled"; request: PayoutRequest }
  | { kind: "refused"; refusal: VoteRefusal; request?: PayoutRequest };

type Decision = { refusal: VoteRefusal } | { next: PayoutRequest; result: VoteResult };
const MAX_ATTEMPTS = 8;

function closed(request: PayoutRequest, now: Date, open: RequestStatus[]): VoteRefusal | undefined {
  if (request.status === "waiting" && now.getTime() >= Date.parse(request.expiresAt))
    return { kind: "expired", at: request.expiresAt };
  if (open.includes(request.status)) return undefined;
  return { kind: "closed", ...closedBy(request) };
}

/** Approve while it waits; reject (stop) while it waits or is approved and not yet on its way. */
export type VoteKind = "approve" | "reject";

/** Whether `person` may give a vote of `kind` on `request` now. */
function voterRefusal(
  policy: PayoutPolicy | undefined,
  request: PayoutRequest,
  person: string,
  now: Date,
  kind: VoteKind,
) {
  if (!payoutsOn(policy)) return { kind: "payouts_off" } as const;
  const shut = closed(request, now, kind === "reject" ? ["waiting", "approved"] : ["waiting"]);
  if (shut) return shut;
  if (person === request.requester) return { kind: "own_request" } as const;
  if (!policy.approvers.includes(person))
    return { kind: "not_an_approver", approvers: policy.approvers } as const;
  // An approver who approved may still stop it before it is on its way.
  const mine = request.votes.find((vote) => vote.by === person);
  if (mine && kind === "approve") return { kind: "already_voted", at: mine.at } as const;
  if (kind === "reject" || withinLimit(policy, person, request.rubAmount)) return undefined;
  const canApprove = approversFor(policy, request.rubAmount, [
    request.requester,
    ...request.votes.map((vote) => vote.by),
  ]);
  return { kind: "over_limit", limit: limitOf(policy, person) ?? "0", canApprove } as const;
}

/** Reads, decides and swaps until one decision lands; records the act (or its refusal) once. */
async function vote(
  deps: PayoutDeps,
  id: string,
  act: { action: AuditAction; actor: string; now: Date },
  decide: (read: ReadRequest, policy: PayoutPolicy | undefined) => Decision,
): Promise<VoteResult> {
  const policy = await (async () => {
    const first = await readRequest(deps.board, id);
    return first && deps.policies.get(first.request.registerKey);
  })();
  let outcome: { result: VoteResult; stored?: ReadRequest };
  try {
    outcome = await updateRequest(
      deps,
      id,
      async (read): Promise<RequestChange<VoteResult>> => {
        if (!read) return { result: { kind: "refused", refusal: { kind: "not_found" } } };
        const decision = decide(read, policy);
        if (!("refusal" in decision))
          return {
            next: decision.next,
            act: { ...act, outcome: "done", time: act.now },
            result: decision.result,
          };
        const { refusal } = decision;
        await recordPayoutAct(deps, read.request, {
          ...act,
          outcome: "refused",
          reason: refusal.kind,
          time: act.now,
        });
        return { result: { kind: "refused", refusal, request: read.request } };
      },
      MAX_ATTEMPTS,
    );
  } catch (error) {
    if (error instanceof FamilyBusyError) return { kind: "refused", refusal: { kind: "busy" } };
    throw error;
  }
  const { result, stored } = outcome;
  if (!stored) return result;
  if (stored.request.status === "approved") await deps.board.nudge(PAYOUT_FAMILY, id, act.now.getTime());
  if (stored.request.serviceCancel !== "pending") return result;
  if (!(await cancelAtService(deps, stored, act.now)))
    await deps.board.nudge(PAYOUT_FAMILY, id, act.now.getTime());
  const after = await readRequest(deps.board, id);
  return after ? { ...result, request: after.request } : result;
}

/**
 * An approver's approval: one of the policy's approvers now, never the requester, once each. Votes
 * count only while their givers are still approvers; with the votes needed the request is approved
 * and the worker submits it (due now).
 */
export function approve(deps: PayoutDeps, id: string, approver: string, now: Date): Promise<VoteResult> {
  return vote(deps, id, { action: "payout.approved", actor: approver, now }, ({ request }, policy) => {
    const refusal = voterRefusal(policy, request, approver, now, "approve");
    if (refusal || !payoutsOn(policy)) return { refusal: refusal ?? { kind: "payouts_off" } };
    const at = now.toISOString();
    // The votes that count now (their givers still approvers, within their limits) and this one.
    const { counted, overLimit } = countedVotes(policy, request);
    const votes = [...counted, { by: approver, at }];
    // The approvals the policy asks for now (its threshold may have been lowered since the request).
    const { needed, rule, at: ruleAt } = ruleNow(policy, request);
    const setAside = setAsideWith(policy, request, overLimit);
    const counts = { ...request, votes, needed, rule, ruleAt, ...(setAside ? { setAside } : {}) };
    if (votes.length < needed) {
      const next = counts;
      return { next, result: { kind: "approval_noted", request: next, votes: votes.length, needed } };
    }
    const next: PayoutRequest = { ...counts, status: "approved", approvedAt: at };
    return { next, result: { kind: "approved", request: next } };
  });
}

/**
 * An approver's rejection, with a reason (required): the quote is cancelled at the service. Also
 * stops an approved request the worker has not marked yet (the service down, say): the mark is a
 * compare-and-set from "approved", so the stop and the send cannot both land.
 */
export function reject(
  deps: PayoutDeps,
  id: string,
  approver: string,
  reason: string,
  now: Date,
): Promise<VoteResult> {
  return vote(deps, id, { action: "payout.rejected", actor: approver, now }, ({ request }, policy) => {
    const refusal = voterRefusal(policy, request, approver, now, "reject");
    if (refusal) return { refusal };
    const said = reason.trim();
    if (said === "" || said.length > 500) return { refusal: { kind: "reason_required" } };
    const at = now.toISOString();
    const next: PayoutRequest = {
      ...request,
      status: "rejected",
      rejection: { by: approver, at, reason: said },
      serviceCancel: "pending",
      endedAt: at,
    };
    return { next, result: { kind: "rejected", request: next } };
  });
}

/**
 * The requester's cancel, until the worker marks it submitting (payouts off or not: it only stops
 * money): the quote is cancelled at the service.
 */
export function cancel(deps: PayoutDeps, id: string, requester: string, now: Date): Promise<VoteResult> {
  return vote(deps, id, { action: "payout.cancelled", actor: requester, now }, ({ request }) => {
    if (requester !== request.requester)
      return { refusal: { kind: "not_the_requester", requester: request.requester } };
    const shut = closed(request, now, ["waiting", "approved"]);
    if (shut) return { refusal: shut };
    const at = now.toISOString();
    const next: PayoutRequest = {
      ...request,
      status: "cancelled",
      cancellation: { by: requester, at },
      serviceCancel: "pending",
      endedAt: at,
    };
    return { next, result: { kind: "cancelled", request: next } };
  });
}

/**
 * A click's first check: whether `person` may decide on request `id` now, before a modal opens. The
 * vote itself checks again when it is given (the policy or the request may change meanwhile).
 */
export async function voteCheck(
  deps: Pick<PayoutDeps, "board" | "policies">,
  id: string,
  person: string,
  now: Date,
  kind: VoteKind,
): Promise<{ request?: PayoutRequest; refusal?: VoteRefusal }> {
  const read = await readRequest(deps.board, id);
  if (!read) return { refusal: { kind: "not_found" } };
  const policy = await deps.policies.get(read.request.registerKey);
  const refusal = voterRefusal(policy, read.request, person, now, kind);
  return refusal ? { request: read.request, refusal } : { request: read.request };
}
