import { compareDecimals } from "../payments/decimal.js";
import type { PayoutPolicy } from "./policy.js";
import type { PayoutRequest } from "./request-model.js";

// Issue 52: how many approvals a payout needs, and whose count. One rule decides `needed` for a
// request (and for a batch's total): to a trusted recipient below the policy's `trustedOneBelow`,
// one approver; else the two-approver threshold as before (two when the RUB amount is unknown). An
// approver with a limit in the policy approves only amounts up to it: a vote over it is refused, and
// one given before the limit was lowered no longer counts.

export type ApprovalRuleName = NonNullable<PayoutRequest["rule"]>;
/** The approvals needed, the rule that said so, and that rule's figure in RUB (its threshold). */
export type ApprovalRule = { needed: 1 | 2; rule: ApprovalRuleName; at: string };

type RulePolicy = Pick<PayoutPolicy, "twoApproversFrom" | "trustedOneBelow">;
type LimitPolicy = Pick<PayoutPolicy, "approvers" | "approverLimits">;
type Vote = PayoutRequest["votes"][number];

/**
 * The approvals a payout of `rub` (RUB; undefined: not known) needs. `trusted`: it goes to a trusted
 * recipient (a request's `recipient` set; a batch: every row's).
 */
export function approvalRule(
  policy: RulePolicy,
  ask: { rub: string | undefined; trusted: boolean },
): ApprovalRule {
  const below = policy.trustedOneBelow;
  if (ask.trusted && below !== undefined && ask.rub !== undefined && compareDecimals(ask.rub, below) < 0)
    return { needed: 1, rule: "trusted_one", at: below };
  const two = ask.rub === undefined || compareDecimals(ask.rub, policy.twoApproversFrom) >= 0;
  return { needed: two ? 2 : 1, rule: "threshold", at: policy.twoApproversFrom };
}

/** The RUB the approvals of a request rest on: its batch's total for a batch's row, else its own. */
export function approvalRubOf(request: PayoutRequest): string | null {
  return request.batch?.total ?? request.rubAmount;
}

/** Whether a request counts as paying a trusted recipient: a batch's row only when all its rows did. */
export function countsTrusted(request: PayoutRequest): boolean {
  return request.batch ? request.batch.trusted === true : request.recipient !== undefined;
}

/** The rule the policy in force asks of a request now: never fewer approvals than it was made with. */
export function ruleNow(
  policy: RulePolicy,
  request: PayoutRequest,
  trusted = countsTrusted(request),
): ApprovalRule {
  const now = approvalRule(policy, { rub: approvalRubOf(request) ?? undefined, trusted });
  if (now.needed > request.needed) return now;
  const needed = request.needed === 1 ? 1 : 2;
  return { needed, rule: request.rule ?? "threshold", at: request.ruleAt ?? policy.twoApproversFrom };
}

/** An approver's limit in RUB; undefined: they approve any amount. */
export function limitOf(policy: Pick<PayoutPolicy, "approverLimits">, approver: string): string | undefined {
  return policy.approverLimits?.[approver];
}

/** Whether `approver`'s limit covers `rub` (inclusive); an unknown amount only with no limit. */
export function withinLimit(
  policy: Pick<PayoutPolicy, "approverLimits">,
  approver: string,
  rub: string | null | undefined,
): boolean {
  const limit = limitOf(policy, approver);
  if (limit === undefined) return true;
  return rub !== null && rub !== undefined && compareDecimals(rub, limit) <= 0;
}

/** The approvers who could approve `rub` (their limits cover it), leaving out `except` (the requester, the voters). */
export function approversFor(
  policy: LimitPolicy,
  rub: string | null | undefined,
  except: readonly string[],
): string[] {
  return policy.approvers.filter(
    (approver) => !except.includes(approver) && withinLimit(policy, approver, rub),
  );
}

/**
 * A request's votes as the policy counts them now: those of its approvers within their limits; and
 * those set aside, of approvers whose limit no longer covers the amount (a vote of someone no longer
 * an approver is neither: sendStop stops the request for it).
 */
export function countedVotes(
  policy: LimitPolicy,
  request: PayoutRequest,
): { counted: Vote[]; overLimit: Vote[] } {
  const mine = request.votes.filter((vote) => policy.approvers.includes(vote.by));
  const rub = approvalRubOf(request);
  return {
    counted: mine.filter((vote) => withinLimit(policy, vote.by, rub)),
    overLimit: mine.filter((vote) => !withinLimit(policy, vote.by, rub)),
  };
}

/** The request's votes set aside, with these over their approvers' limits added (undefined: none). */
export function setAsideWith(
  policy: Pick<PayoutPolicy, "approverLimits">,
  request: PayoutRequest,
  overLimit: Vote[],
): PayoutRequest["setAside"] {
  const added = overLimit.map((vote) => ({ ...vote, limit: limitOf(policy, vote.by) ?? "0" }));
  const all = [...(request.setAside ?? []), ...added];
  return all.length > 0 ? all : undefined;
}
