import { appendOwed } from "../audit/owed.js";
import { addDecimals, compareDecimals, toDecimalString } from "../payments/decimal.js";
import type { PayoffQuote } from "../payments/payoff-model.js";
import { registerOfKey } from "../store/registers.js";
import { approvalRule, approversFor } from "./approval-rule.js";
import { type CapRefusal, capPassed, type DayTotals, reserveToday, todayTotals } from "./day-totals.js";
import type { PayoutNotice } from "./notice-model.js";
import { swapNotice } from "./notice-store.js";
import { type PayoutPolicy, payoutsOn } from "./policy.js";
import { cancelQuote, type QuoteRefusal, quoteFor } from "./quote.js";
import { holdForRefund, type RefundRefusal, releaseHeld } from "./refund-ask.js";
import type { PayoutAsk } from "./request-ask.js";
import { type PayoutDeps, payoutEntry, timingOf } from "./request-deps.js";
import {
  PAYOUT_FAMILY,
  PAYOUTS,
  type PayoutRequest,
  payoutRequestSchema,
  REQUEST_FIELD,
} from "./request-model.js";

export type { PayoutAsk } from "./request-ask.js";

export type RequestRefusal =
  | { kind: "payouts_off" }
  /** `requesters` empty: only the workspace's admins may request. */
  | { kind: "not_a_requester"; requesters: string[] }
  | { kind: "method_not_allowed"; methods: string[] }
  | { kind: "invalid"; field: "reason" | "reference"; problem: string }
  /** The register is not connected, or has no Secret 2: nothing can be signed. */
  | { kind: "not_connected" }
  /** Invalid amount, method or wallet; the service's refusal in its words; a quote not as asked. */
  | QuoteRefusal
  /** Neither a RUB method nor a RUB amount in the quote: the caps cannot be counted. */
  | { kind: "no_rub_amount" }
  /** The quote's RUB amount is zero, negative or absurd: the quote's own figures (it was cancelled). */
  | { kind: "rub_amount_wrong"; amount: string; currency: string; rub: string }
  /** Fewer approvers than needed besides the requester. */
  | { kind: "too_few_approvers"; needed: number; approvers: string[] }
  | CapRefusal
  | RefundRefusal;

export type RequestResult =
  /** `totals`: the requester's and the register's RUB today, waiting requests and this one included. */
  | { kind: "requested"; request: PayoutRequest; totals: DayTotals }
  | { kind: "refused"; refusal: RequestRefusal };

const PLAIN_DECIMAL = /^(0|[1-9]\d{0,14})(\.\d{1,18})?$/;

/** Who may request, what and how, by the policy in force; undefined when all is well. */
async function policyRefusal(
  deps: PayoutDeps,
  policy: PayoutPolicy | undefined,
  ask: PayoutAsk,
): Promise<RequestRefusal | undefined> {
  if (!payoutsOn(policy)) return { kind: "payouts_off" };
  const { team } = registerOfKey(ask.registerKey);
  const allowed =
    policy.requesters.length > 0
      ? policy.requesters.includes(ask.requester)
      : await deps.isAdmin(team, ask.requester);
  if (!allowed) return { kind: "not_a_requester", requesters: policy.requesters };
  const method = ask.method.toUpperCase();
  if (policy.methods.length > 0 && !policy.methods.some((code) => code.toUpperCase() === method))
    return { kind: "method_not_allowed", methods: policy.methods };
  if (!PLAIN_DECIMAL.test(ask.amount) || compareDecimals(ask.amount, "0") <= 0)
    return { kind: "invalid", field: "amount", problem: "not a plain amount above zero" };
  if (ask.reason.trim() === "" || ask.reason.length > 500)
    return { kind: "invalid", field: "reason", problem: "empty or longer than 500 characters" };
  if (ask.reference.length > 200)
    return { kind: "invalid", field: "reference", problem: "longer than 200 characters" };
  return undefined;
}

/** The RUB the caps count: the amount of a RUB payout, else the service's rub_amount. */
function rubOf(quote: PayoffQuote): string | undefined {
  if (quote.currency.toUpperCase() === "RUB") return toDecimalString(quote.amount.value);
  return quote.rubAmount ? toDecimalString(quote.rubAmount.value) : undefined;
}

/** No cap can be set this high (12 digits of roubles): a RUB amount from here on is the service's mistake. */
const RUB_ABSURD_FROM = "1000000000000";

/**
 * A RUB amount the caps and the approvals cannot rest on: zero or negative (it would pass every cap
 * with one approver) or absurdly large. Such a quote is refused, never read as "no cap".
 */
export function rubAmountWrong(rub: string): boolean {
  return compareDecimals(rub, "0") <= 0 || compareDecimals(rub, RUB_ABSURD_FROM) >= 0;
}

/** Two approvals from the policy's amount in RUB, and always two when the RUB amount is not known. */
export function approvalsNeeded(
  rub: string | undefined,
  policy: Pick<PayoutPolicy, "twoApproversFrom">,
): 1 | 2 {
  return approvalRule(policy, { rub, trusted: false }).needed;
}

function newRequest(
  ask: PayoutAsk,
  quote: PayoffQuote,
  policy: PayoutPolicy,
  rub: string,
  now: Date,
): PayoutRequest {
  const { needed, rule, at } = approvalRule(policy, { rub, trusted: ask.recipient !== undefined });
  return payoutRequestSchema.parse({
    v: 1,
    id: quote.id,
    registerKey: ask.registerKey,
    team: registerOfKey(ask.registerKey).team,
    requester: ask.requester,
    amount: quote.amount.value,
    fee: quote.fee.value,
    receives: quote.receives.value,
    leavesBalance: quote.leavesBalance.value,
    currency: quote.currency,
    rubAmount: rub,
    method: quote.method,
    wallet: ask.wallet,
    subtractFrom: quote.subtractFrom,
    reason: ask.reason.trim(),
    reference: ask.reference.trim(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + policy.expiryMinutes * 60_000).toISOString(),
    needed,
    rule,
    ruleAt: at,
    votes: [],
    status: "waiting",
    ...(ask.refundOf ? { refundOf: ask.refundOf } : {}),
    ...(ask.recipient ? { recipient: ask.recipient } : {}),
    ...(ask.batch ? { batch: ask.batch } : {}),
  });
}

/** Where a request's card goes and what it shows besides the request (the notice), made once it is known. */
export type Announce = (request: PayoutRequest, totals: DayTotals, policy: PayoutPolicy) => PayoutNotice;

/**
 * Scheduled first, then its notice, then the request: a process that dies in between leaves a
 * schedule or a notice without a request (forgotten when due), never a request the worker does not
 * know of. It is due once `announceMs` has passed, when a card its requester's process did not post
 * is posted by the worker; then at its expiry.
 */
async function store(
  deps: PayoutDeps,
  request: PayoutRequest,
  notice: PayoutNotice | undefined,
  owed: ReturnType<typeof payoutEntry>,
) {
  const firstLook = Date.parse(request.createdAt) + timingOf(deps).announceMs;
  await deps.board.enlist(PAYOUT_FAMILY, request.id, Math.min(firstLook, Date.parse(request.expiresAt)));
  if (notice && !(await swapNotice(deps.board, request.id, undefined, notice)))
    throw new Error(`payout ${request.id} has a notice already`);
  // Its entry (payout.requested) is written in the same step as the request.
  if (!(await PAYOUTS.swap(deps.board, request.id, REQUEST_FIELD, undefined, request, owed)))
    throw new Error(`payout ${request.id} is stored already`);
}

/**
 * A payout request: the policy checked at this moment (payouts on, the requester, the method, the
 * caps with requests still waiting), the service's quote (`payoff/create`), the caps counted again
 * with its RUB amount and the request added to the day, then scheduled and stored as "waiting" with
 * its notice (`announce`). A refusal stores nothing (a quote made for it is cancelled at the service).
 */
export async function requestPayout(
  deps: PayoutDeps,
  ask: PayoutAsk,
  now: Date,
  announce?: Announce,
): Promise<RequestResult> {
  const refused = (refusal: RequestRefusal): RequestResult => ({ kind: "refused", refusal });
  const policy = await deps.policies.get(ask.registerKey);
  const early = await policyRefusal(deps, policy, ask);
  if (early || !payoutsOn(policy)) return refused(early ?? { kind: "payouts_off" });
  const account = await deps.account(ask.registerKey);
  if (!account) return refused({ kind: "not_connected" });
  // No room left (for a RUB payout: for its amount): say so before asking the service for a quote.
  const before = await todayTotals(deps.board, ask.registerKey, ask.requester, now);
  if (!before) return refused({ kind: "totals_unreadable" });
  const full = capPassed(before, ask.currency?.toUpperCase() === "RUB" ? ask.amount : "0.01", policy);
  if (full) return refused(full);
  const { amount, method, wallet, subtractFrom, callbackUrl, walletExtra } = ask;
  const draft = {
    amount,
    method,
    wallet,
    subtractFrom,
    callbackUrl,
    ...(walletExtra ? { walletExtra } : {}),
  };
  const quoted = await quoteFor(deps, account, draft);
  if ("refusal" in quoted) return refused(quoted.refusal);
  const { quote } = quoted;
  const unused = async (refusal: RequestRefusal) => {
    await cancelQuote(deps, account, quote.id);
    return refused(refusal);
  };
  const rub = rubOf(quote);
  if (rub !== undefined && rubAmountWrong(rub))
    return unused({ kind: "rub_amount_wrong", amount: quote.amount.value, currency: quote.currency, rub });
  // Approvers besides the requester whose limits cover the amount: enough of them, or nobody could approve it.
  const approvers = approversFor(policy, rub, [ask.requester]);
  const { needed } = approvalRule(policy, { rub, trusted: ask.recipient !== undefined });
  if (approvers.length < needed) return unused({ kind: "too_few_approvers", needed, approvers });
  if (rub === undefined) return unused({ kind: "no_rub_amount" });
  const held = await holdForRefund(deps, ask, quote, now);
  if (held) return unused(held);
  const entry = { id: quote.id, requester: ask.requester, rub, at: now.toISOString() };
  const reserved = await reserveToday(deps.board, ask.registerKey, entry, policy, now);
  if (!reserved.ok) {
    await releaseHeld(deps, ask, quote.id, now);
    return unused(reserved.refusal);
  }
  const request = newRequest(ask, quote, policy, rub, now);
  const owed = payoutEntry(request, {
    action: "payout.requested",
    actor: ask.requester,
    outcome: "done",
    after: {
      wallet: request.wallet,
      reason: request.reason,
      needed: request.needed,
      rule: request.rule ?? null,
      ...(request.recipient ? { recipient: request.recipient.id } : {}),
    },
    time: now,
  });
  const totals = {
    requester: addDecimals(reserved.totals.requester, rub),
    register: addDecimals(reserved.totals.register, rub),
  };
  await store(deps, request, announce?.(request, totals, policy), owed);
  await appendOwed(deps, now.getTime());
  return { kind: "requested", request, totals };
}
