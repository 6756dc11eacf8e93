import { z } from "zod";
import { defineFamily } from "../store/claims/family.js";
import type { ClaimBoard, Enlisting } from "../store/claims/index.js";
import { NOTICE_FIELD, payoutNoticeSchema } from "./notice-model.js";
import { METHOD_CODE, USER_ID } from "./policy.js";

// A payout request is one item of family PAYOUT_FAMILY on the claim board (key = the service's payout
// id) with one state, REQUEST_FIELD. Every change of it is a compare-and-set from the exact state
// read (swapRequest): votes, cancels and the worker's steps racing on several replicas give one
// outcome, and a worker's step carries its claim's token in the state (`attempt`), so a step of an
// older claim finds another state and is refused. The item's schedule is the worker's: due at the
// expiry while waiting, now once approved, then at each follow-up, and finally when it is forgotten.

export const PAYOUT_FAMILY = "payout";
export const REQUEST_FIELD = "request";

/**
 * waiting (votes being given) → approved (enough votes; due now) → submitting (the worker's mark,
 * written before the send) → submitted (the service took it) → ended (payed, failed or canceled at
 * the service). Off the main road: rejected, cancelled (by the requester), expired (not approved in
 * time), changed (the payout at the service is not what was approved, or vanished: never sent) and
 * refused (the service refused the submit, in its own words), stopped (approved, never reached
 * the service, and no longer to be sent: payouts switched off, expired, or an approver whose vote it
 * counted removed from the policy) and outside (Kassa never sent it, yet the service has it on its
 * way or paid: someone holding Secret 2 submitted the quote at the service, without the approvals).
 */
export const REQUEST_STATUSES = [
  "waiting",
  "approved",
  "submitting",
  "submitted",
  "ended",
  "rejected",
  "cancelled",
  "expired",
  "changed",
  "refused",
  "stopped",
  "outside",
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * Every move a request's status may make (a write keeping its status is a move to itself). Only
 * "submitting", Kassa's mark written before its one send, leads to submitted. Outside is reached from
 * the statuses Kassa never sends from, and from "submitting" only by the worker whose mark it is,
 * before its send (src/payouts/outside.ts).
 */
export const STATUS_MOVES: Readonly<Record<RequestStatus, readonly RequestStatus[]>> = {
  waiting: ["waiting", "approved", "rejected", "cancelled", "expired", "outside"],
  approved: ["approved", "submitting", "waiting", "stopped", "rejected", "cancelled", "outside"],
  submitting: ["submitting", "approved", "waiting", "submitted", "changed", "refused", "stopped", "outside"],
  submitted: ["submitted", "ended"],
  ended: ["ended"],
  rejected: ["rejected", "outside"],
  cancelled: ["cancelled", "outside"],
  expired: ["expired", "outside"],
  changed: ["changed", "outside"],
  refused: ["refused", "outside"],
  stopped: ["stopped", "outside"],
  outside: ["outside"],
};

/** Whether a request may move from `from` to `to` (STATUS_MOVES). */
export function mayMove(from: RequestStatus, to: RequestStatus): boolean {
  return STATUS_MOVES[from].includes(to);
}

/** Statuses no vote or send can leave. */
export const FINAL_STATUSES: ReadonlySet<RequestStatus> = new Set([
  "ended",
  "rejected",
  "cancelled",
  "expired",
  "changed",
  "refused",
  "stopped",
  "outside",
]);

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const time = z.iso.datetime();
const person = z.string().regex(USER_ID);
const byAt = z.object({ by: person, at: time });
const BASE32_ID = z.string().regex(/^[a-z2-7]{10}$/);
const BATCH_ROW = z
  .object({ id: BASE32_ID, row: z.number().int().min(1).max(50), total: decimal.optional() })
  .extend({ trusted: z.boolean().optional() });
const PAID = z.object({ amount: decimal, currency: z.string().min(1).max(16), at: time.nullable() });

export const payoutRequestSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  registerKey: z.string().min(1).max(200),
  team: z.string().min(1),
  requester: person,
  /** The quote's figures, exact decimals in `currency`; `rubAmount` what the service counts in RUB. */
  amount: decimal,
  fee: decimal,
  receives: decimal,
  leavesBalance: decimal,
  currency: z.string().min(1).max(16),
  rubAmount: decimal.nullable(),
  method: z.string().regex(METHOD_CODE),
  /** As the requester gave it (v2's quote names none). */
  wallet: z.string().min(1).max(512),
  subtractFrom: z.enum(["balance", "amount"]),
  reason: z.string().max(500),
  reference: z.string().max(200),
  createdAt: time,
  expiresAt: time,
  needed: z.number().int().min(1).max(2),
  votes: z.array(byAt),
  status: z.enum(REQUEST_STATUSES),
  /** When it became approved (the last vote's time). */
  approvedAt: time.optional(),
  rejection: byAt.extend({ reason: z.string().min(1).max(500) }).optional(),
  cancellation: byAt.optional(),
  /** The worker's claim that marked it submitting (or approved it for submitting), and when. */
  attempt: z.object({ token: z.string().min(1), at: time }).optional(),
  submittedAt: time.optional(),
  /** What the service said last (its state and message). */
  service: z.object({ state: z.string(), message: z.string().nullable(), at: time }).optional(),
  /**
   * Changed: which terms differ from what the approvers saw (the fee, what arrives and what leaves the
   * balance among them), or "state" (cancelled at the service) or "vanished".
   */
  changed: z
    .array(z.enum(["amount", "method", "wallet", "fee", "receives", "leavesBalance", "state", "vanished"]))
    .optional(),
  /** The service's refusal of the submit, in its words. */
  refusal: z.array(z.string()).optional(),
  /**
   * Stopped before the send: why, when, the approver whose vote no longer counts, and for a daily cap
   * the day's sending would pass: which cap, its limit and what counted already (RUB).
   */
  stop: z
    .object({
      why: z.enum(["payouts_off", "expired", "approver_removed", "day_cap", "over_limit", "batch_approvals"]),
      at: time,
      approver: person.optional(),
      limit: decimal.optional(), // over_limit: the approver's limit (RUB) now, below the amount
      cap: z.object({ which: z.enum(["requester", "register"]), limit: decimal, total: decimal }).optional(),
    })
    .optional(),
  /**
   * The UTC day (YYYY-MM-DD) its money counts on against the daily caps, once it is sent on a later
   * day than it was made (absent: the day it was made). See day-totals.ts.
   */
  countsOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Sent at the service by someone else (outside): what the service showed, and when Kassa saw it. */
  outside: z.object({ state: z.string().min(1).max(40), at: time, was: z.enum(REQUEST_STATUSES) }).optional(),
  /** The quote still to be cancelled at the service (rejected, cancelled, expired, changed). */
  serviceCancel: z.enum(["pending", "done", "impossible"]).optional(),
  /** When it reached a final status. */
  endedAt: time.optional(),
  // Issue 52: who it goes to, and what it is part of.
  /** The trusted recipient whose method and wallet it pays (as stored when it was asked). */
  recipient: z.object({ id: BASE32_ID, label: z.string().min(1).max(80) }).optional(),
  /** Which approval rule set `needed`: the two-approver threshold, or one approver to a trusted recipient. */
  rule: z.enum(["threshold", "trusted_one"]).optional(),
  /** That rule's figure (RUB) as the policy had it: two approvers from it, or one to a trusted recipient below it. */
  ruleAt: decimal.optional(),
  /** Approvals that no longer count: given by an approver whose limit (RUB) was lowered below the amount since. */
  setAside: z.array(byAt.extend({ limit: decimal })).optional(),
  /** A refund: the paid invoice it gives money back for, and what its payment brought in (as read then). */
  refundOf: z.object({ invoiceId: z.string().min(1).max(100), paid: PAID.optional() }).optional(),
  /** Its batch, its row there; once approved, the total (RUB) approved and whether every row was trusted. */
  batch: BATCH_ROW.optional(),
});
export type PayoutRequest = z.infer<typeof payoutRequestSchema>;

/** A request as read: its parsed state and the raw value a compare-and-set compares with. */
export type ReadRequest = { request: PayoutRequest; raw: unknown };

/**
 * The family, declared once: an item per request (key: the service's payout id), its states `request`
 * and `notice` (notice-model.ts), kept until keepMs after the request's end, then forgotten.
 */
export const PAYOUTS = defineFamily({
  name: PAYOUT_FAMILY,
  fields: () => ({ [REQUEST_FIELD]: payoutRequestSchema, [NOTICE_FIELD]: payoutNoticeSchema }),
  kept: "until 30 days after the request ended (the worker forgets it then)",
});

/** The request stored under `id`; undefined when none or unreadable (a tampered id reads as none). */
export async function readRequest(board: ClaimBoard, id: string): Promise<ReadRequest | undefined> {
  const stored = await PAYOUTS.read(board, id, REQUEST_FIELD);
  return stored.value ? { request: stored.value, raw: stored.raw } : undefined;
}

/** The request `id` when it is workspace `team`'s; undefined otherwise (a click from elsewhere reads as none). */
export async function requestOfTeam(
  { board }: { board: ClaimBoard },
  id: string,
  team: string,
): Promise<ReadRequest | undefined> {
  const read = id ? await readRequest(board, id) : undefined;
  return read?.request.team === team ? read : undefined;
}

/** Refuses a move STATUS_MOVES does not have: a bug, thrown where the status is written. */
export function checkMove(from: PayoutRequest, to: PayoutRequest): void {
  if (!mayMove(from.status, to.status))
    throw new Error(`payout ${from.id}: no move from ${from.status} to ${to.status}`);
}

/**
 * Compare-and-set of the request: only while it is still `read.raw`, and only along STATUS_MOVES (any
 * other move is a bug, thrown); with `owed`, the act's audit entry is written in the same step
 * (src/audit/owed.ts). The new state is checked first; what was stored comes back, ready for the next
 * compare-and-set (undefined: the state was otherwise).
 */
export async function swapRequest(
  board: ClaimBoard,
  read: ReadRequest,
  next: PayoutRequest,
  owed?: Enlisting,
): Promise<ReadRequest | undefined> {
  checkMove(read.request, next);
  const checked = payoutRequestSchema.parse(next);
  const swapped = await PAYOUTS.swap(board, checked.id, REQUEST_FIELD, read.raw, checked, owed);
  return swapped ? { request: checked, raw: checked } : undefined;
}

/**
 * Who closed a request and when, for a stale click's answer ("already approved by … at …"): the
 * last vote for approved and later, the rejecter, the requester who cancelled, Kassa for the rest.
 */
export function closedBy(request: PayoutRequest): { status: RequestStatus; by: string; at: string } {
  const { status } = request;
  if (status === "rejected" && request.rejection)
    return { status, by: request.rejection.by, at: request.rejection.at };
  if (status === "cancelled" && request.cancellation)
    return { status, by: request.cancellation.by, at: request.cancellation.at };
  if (status === "expired") return { status, by: "kassa", at: request.expiresAt };
  // Nobody Kassa knows: someone holding Secret 2, at the service.
  if (status === "outside") return { status, by: "outside", at: request.outside?.at ?? request.createdAt };
  const last = request.votes.at(-1);
  // Approved, then sent (and maybe ended, or stopped at the service): the approval is what closed it.
  if (request.approvedAt && last) return { status, by: last.by, at: request.approvedAt };
  if ((status === "approved" || status === "submitting" || status === "submitted") && last)
    return { status, by: last.by, at: last.at };
  return { status, by: "kassa", at: request.endedAt ?? request.createdAt };
}
