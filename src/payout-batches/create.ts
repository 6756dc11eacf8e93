import { newRef } from "../payments/marker.js";
import { type ApprovalRule, approvalRule } from "../payouts/approval-rule.js";
import { type CapRefusal, capPassed, todayTotals } from "../payouts/day-totals.js";
import { type PayoutPolicy, payoutsOn } from "../payouts/policy.js";
import { type PayoutDeps, timingOf } from "../payouts/request-deps.js";
import { type RequestRefusal, requestPayout } from "../payouts/requests.js";
import { registerOfKey } from "../store/registers.js";
import { checkedRows, rubBeforeQuotes } from "./checks.js";
import { appendBatchEntries, batchEntry } from "./entries.js";
import {
  BATCH_FAMILY,
  BATCH_FIELD,
  BATCHES,
  type Batch,
  type BatchCard,
  type BatchRow,
  batchSchema,
  batchTotal,
  CARD_FIELD,
  keptRows,
  type MethodBalance,
  type RowRefusal,
} from "./model.js";
import type { PastedRow } from "./rows.js";

// A batch asked for: the policy and every row checked before the service is asked anything (the
// caps with the batch's RUB and the requests still waiting), the batch written ("quoting"), then
// each row's quote asked in turn (each one a payout request of its own, src/payouts, within the
// register's queue), then the batch waiting for approvals with its totals and its rule.

/** How long quoting may take before the follower takes the batch for lost (a replica died mid-way). */
export const QUOTING_MS = 10 * 60_000;

export type BatchAsk = {
  registerKey: string;
  requester: string;
  reason: string;
  rows: readonly PastedRow[];
  balances: readonly MethodBalance[];
  callbackUrl?: string | undefined;
  /** Where its card goes besides the approval channel, and how it is said. */
  card: Omit<BatchCard, "v" | "channel" | "told" | "card" | "shows">;
};

export type BatchRefusal =
  | { kind: "payouts_off" }
  | { kind: "not_a_requester"; requesters: string[] }
  | { kind: "not_connected" }
  | { kind: "invalid"; field: "reason"; problem: string }
  | CapRefusal;

export type BatchStart = { kind: "started"; batch: Batch } | { kind: "refused"; refusal: BatchRefusal };

async function refusalOf(deps: PayoutDeps, policy: PayoutPolicy | undefined, ask: BatchAsk) {
  if (!payoutsOn(policy)) return { kind: "payouts_off" } as const;
  const { team } = registerOfKey(ask.registerKey);
  const allowed =
    policy.requesters.length > 0
      ? policy.requesters.includes(ask.requester)
      : await deps.isAdmin(team, ask.requester);
  if (!allowed) return { kind: "not_a_requester", requesters: policy.requesters } as const;
  if (ask.reason.trim() === "" || ask.reason.length > 500)
    return { kind: "invalid", field: "reason", problem: "empty or longer than 500 characters" } as const;
  if (!(await deps.account(ask.registerKey))) return { kind: "not_connected" } as const;
  return undefined;
}

/**
 * The batch checked and written as "quoting" with its card's state (nothing asked of the service
 * yet), due for the follower once quoting could have ended. A refusal writes nothing.
 */
export async function startBatch(deps: PayoutDeps, ask: BatchAsk, now: Date): Promise<BatchStart> {
  const policy = await deps.policies.get(ask.registerKey);
  const early = await refusalOf(deps, policy, ask);
  if (early || !policy) return { kind: "refused", refusal: early ?? { kind: "payouts_off" } };
  const rows = await checkedRows(deps, ask.registerKey, policy, ask.rows);
  const before = await todayTotals(deps.board, ask.registerKey, ask.requester, now);
  if (!before) return { kind: "refused", refusal: { kind: "totals_unreadable" } };
  const full = capPassed(before, rubBeforeQuotes(rows, ask.balances), policy);
  if (full) return { kind: "refused", refusal: full };
  const batch = batchSchema.parse({
    v: 1,
    id: newRef(),
    registerKey: ask.registerKey,
    team: registerOfKey(ask.registerKey).team,
    requester: ask.requester,
    reason: ask.reason.trim(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + policy.expiryMinutes * 60_000).toISOString(),
    status: "quoting",
    rows,
    balances: ask.balances,
    needed: 2,
    rule: "threshold",
    ruleAt: policy.twoApproversFrom,
    votes: [],
  });
  const card: BatchCard = { v: 1, channel: policy.channel, ...ask.card, told: [] };
  await deps.board.enlist(BATCH_FAMILY, batch.id, now.getTime() + QUOTING_MS);
  if (!(await BATCHES.swap(deps.board, batch.id, CARD_FIELD, undefined, card)))
    throw new Error(`batch ${batch.id} has a card already`);
  if (!(await BATCHES.swap(deps.board, batch.id, BATCH_FIELD, undefined, batch)))
    throw new Error(`batch ${batch.id} is stored already`);
  return { kind: "started", batch };
}

/** A row's refusal as the batch keeps it: the service's own words, or what Kassa found. */
function rowRefusal(refusal: RequestRefusal): RowRefusal {
  switch (refusal.kind) {
    case "service_refused":
      return { kind: "service_refused", words: refusal.messages.slice(0, 5).map((one) => one.slice(0, 500)) };
    case "invalid":
      return { kind: "invalid", words: [refusal.field, refusal.problem] };
    case "method_not_allowed":
      return { kind: "method_not_allowed", words: refusal.methods.slice(0, 5) };
    case "cap_reached":
      return { kind: "cap", words: [refusal.cap, refusal.limit, refusal.total] };
    default:
      return { kind: "other", words: [refusal.kind] };
  }
}

/** One row's quote asked (a payout request of the batch's), written into the batch as it came. */
async function quoteRow(deps: PayoutDeps, batch: Batch, row: BatchRow, ask: BatchAsk, now: Date) {
  const currency = ask.balances.find((one) => one.method === row.method)?.currency;
  // A quote the service did not answer (or the store did not take) leaves this row refused, not the batch stuck.
  const result = await requestPayout(
    deps,
    {
      registerKey: batch.registerKey,
      requester: batch.requester,
      amount: row.amount,
      method: row.method,
      wallet: row.wallet,
      subtractFrom: row.feeFrom,
      reason: batch.reason,
      reference: row.reference,
      currency,
      callbackUrl: ask.callbackUrl,
      ...(row.recipient ? { recipient: row.recipient } : {}),
      batch: { id: batch.id, row: row.row },
    },
    now,
  ).catch((error: unknown) => {
    deps.logger.warn({ batch: batch.id, row: row.row, err: error }, "a batch row's quote got no answer");
    return undefined;
  });
  const quoted: Partial<BatchRow> = !result
    ? { refusal: { kind: "unanswered", words: [] } }
    : result.kind === "requested"
      ? {
          payout: result.request.id,
          quote: {
            amount: result.request.amount,
            fee: result.request.fee,
            receives: result.request.receives,
            leavesBalance: result.request.leavesBalance,
            currency: result.request.currency,
            rub: result.request.rubAmount ?? "0",
          },
        }
      : { refusal: rowRefusal(result.refusal) };
  await BATCHES.update(deps.board, batch.id, BATCH_FIELD, (stored) => {
    const now = stored.value;
    if (now?.status !== "quoting") return { result: undefined };
    const rows = now.rows.map((one) => (one.row === row.row ? { ...one, ...quoted } : one));
    return { next: { ...now, rows }, result: undefined };
  });
  return result?.kind === "requested" ? result.request.expiresAt : undefined;
}

/**
 * The approvals a batch needs: with every row to a trusted recipient, as a payout of its total to
 * one would; with any other wallet, always two.
 */
export function batchRule(policy: PayoutPolicy, total: string, kept: readonly BatchRow[]): ApprovalRule {
  const trusted = kept.length > 0 && kept.every((row) => row.recipient !== undefined);
  if (trusted) return approvalRule(policy, { rub: total, trusted });
  return { needed: 2, rule: "threshold", at: policy.twoApproversFrom };
}

/**
 * Each row's quote asked in turn, then the batch waiting: its total (RUB), the rule it needs (one
 * approver only when every row pays a trusted recipient below the policy's figure), approvals until
 * its first quote's expiry. The batch as stored, or undefined when it was no longer quoting.
 */
export async function quoteBatch(deps: PayoutDeps, batch: Batch, ask: BatchAsk, now: () => Date) {
  const expiries: string[] = [];
  for (const row of batch.rows) {
    if (row.refusal) continue;
    const expiry = await quoteRow(deps, batch, row, ask, now());
    if (expiry) expiries.push(expiry);
  }
  const policy = await deps.policies.get(batch.registerKey);
  const at = now();
  const waiting = await BATCHES.update(deps.board, batch.id, BATCH_FIELD, (stored) => {
    const current = stored.value;
    if (current?.status !== "quoting" || !policy) return { result: undefined };
    const kept = keptRows(current);
    const total = batchTotal(current);
    const rule = batchRule(policy, total, kept);
    const expiresAt = expiries.sort()[0] ?? current.expiresAt;
    const next: Batch = {
      ...current,
      status: "waiting",
      needed: rule.needed,
      rule: rule.rule,
      ruleAt: rule.at,
      expiresAt,
    };
    const act = {
      action: "batch.requested" as const,
      actor: current.requester,
      outcome: "done" as const,
      time: at,
    };
    return { next, along: batchEntry(next, act), result: next };
  });
  if (!waiting) return undefined;
  const firstLook = at.getTime() + timingOf(deps).announceMs;
  await deps.board.enlist(BATCH_FAMILY, batch.id, Math.min(firstLook, Date.parse(waiting.expiresAt)));
  await appendBatchEntries(deps, at);
  return waiting;
}
