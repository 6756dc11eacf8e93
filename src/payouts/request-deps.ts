import type { AuditAction, AuditRecorder } from "../audit/index.js";
import { appendOwed, type OwedEntry, owedEntry, recordOwed } from "../audit/owed.js";
import type { PaymentsClient } from "../payments/client.js";
import type { PayoffAccount } from "../payments/payoff-model.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { CredentialsStore } from "../store/credentials.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import type { Logger } from "../util/logger.js";
import type { NoticeDeps } from "./notices.js";
import type { PayoutPolicies } from "./policy-store.js";
import {
  checkMove,
  PAYOUTS,
  type PayoutRequest,
  payoutRequestSchema,
  REQUEST_FIELD,
  type ReadRequest,
  swapRequest,
} from "./request-model.js";

/** How long the worker holds, waits and keeps (ms), and how many items it takes per run. */
export type PayoutTiming = {
  /** A worker's claim on one request. */
  leaseMs: number;
  /**
   * How long after a "submitting" mark another worker waits before it may send a payout the service
   * still has as `created`: longer than a send can take (the client's deadline), so the first send
   * has arrived or never will.
   */
  graceMs: number;
  /** Between two readings of a submitted payout. */
  followMs: number;
  /** Before trying again after the service or the store did not answer. */
  retryMs: number;
  /** How long an ended request is kept (stale clicks answered "already … by … at …"), then forgotten. */
  keepMs: number;
  /**
   * After a request is made, when the worker first looks at it: a card its requester's process did
   * not post (it stopped, or Slack refused) is posted then. Longer than that process's posts can take
   * (openPayouts: five SLACK_TIMEOUT_MS at least), so the two never post the same card.
   */
  announceMs: number;
  batch: number;
};

export const DEFAULT_PAYOUT_TIMING: PayoutTiming = {
  leaseMs: 60_000,
  graceMs: 120_000,
  followMs: 60_000,
  retryMs: 30_000,
  keepMs: 30 * 24 * 3_600_000,
  announceMs: 60_000,
  batch: 20,
};

/** What requests, votes and the worker need. Every fact is read from the board; nothing is cached. */
export type PayoutDeps = {
  board: ClaimBoard;
  policies: Pick<PayoutPolicies, "get">;
  payments: Pick<PaymentsClient, "createPayoff" | "submitPayoff" | "cancelPayoff" | "payoffInfo">;
  /** The register's account with its Secret 2; undefined when not connected or no Secret 2 is stored. */
  account(registerKey: string): Promise<PayoffAccount | undefined>;
  /** Whether a person is an admin of the workspace (the requesters when the policy names none). */
  isAdmin(team: string, user: string): Promise<boolean>;
  audit: AuditRecorder;
  logger: Logger;
  timing?: Partial<PayoutTiming>;
  /** The workspace's Slack client: the worker keeps each request's cards and notes told (none: not told). */
  slack?: NoticeDeps["slack"];
  /** The trusted recipients (src/payout-recipients): still trusted before a send, last paid at the end. */
  recipients?: RecipientHooks;
  /** The batches (src/payout-batches): followed with each run, told when one of their rows moved. */
  batches?: BatchHooks;
};

/** What the worker asks of the batches (none: no batch is followed). */
export type BatchHooks = {
  /** The batches due, each moved a step (with each run of the worker). */
  run(now: Date): Promise<void>;
  /** A row of a batch took a step: its batch is looked at next. */
  rowMoved(request: PayoutRequest, at: number): Promise<void>;
};

/** What the worker asks of a request's trusted recipient (none: no request counts as trusted). */
export type RecipientHooks = {
  /** Whether the request's recipient is still trusted with the method and wallet it pays. */
  trusted(request: PayoutRequest): Promise<boolean>;
  /** Its payout ended paid. */
  paid(request: PayoutRequest, at: Date): Promise<void>;
};

/**
 * Timing that keeps the one submit safe with the payment client's deadline and its register's
 * queue: a claim outlives a send (the client's deadline, three times over) and the longest wait for
 * a turn in the register's queue with the attempts a submit may make (PAYMENTS_MAX_QUEUE_MS, plus
 * four deadlines: two earlier attempts' waits, their backoff and the call itself); another worker's
 * grace outlives the claim and a send. The submit also checks its claim when its turn comes.
 */
export function payoutTimingFor(
  paymentsTimeoutMs: number,
  paymentsMaxQueueMs = 0,
): Pick<PayoutTiming, "leaseMs" | "graceMs"> {
  const leaseMs = Math.max(
    DEFAULT_PAYOUT_TIMING.leaseMs,
    3 * paymentsTimeoutMs,
    paymentsMaxQueueMs + 4 * paymentsTimeoutMs,
  );
  return { leaseMs, graceMs: Math.max(DEFAULT_PAYOUT_TIMING.graceMs, leaseMs + 2 * paymentsTimeoutMs) };
}

export function timingOf(deps: Pick<PayoutDeps, "timing">): PayoutTiming {
  return { ...DEFAULT_PAYOUT_TIMING, ...deps.timing };
}

/** `PayoutDeps.account` from the credentials store: the register's account and its Secret 2. */
export function payoffAccounts(
  credentials: Pick<CredentialsStore, "get">,
): (registerKey: string) => Promise<PayoffAccount | undefined> {
  return async (registerKey) => {
    const connection = await credentials.get(registerKey);
    if (!connection?.salt) return undefined;
    return { ...connection.account, salt: connection.salt };
  };
}

/** What a step of a request says in its audit entry. */
export type PayoutAct = {
  action: AuditAction;
  actor: string;
  outcome: "done" | "refused" | "failed";
  reason?: string | undefined;
  after?: Record<string, string | number | boolean | null | string[]> | undefined;
  time: Date;
};

/** The audit entry of one step of a request, as owed with the step's write (src/audit/owed.ts). */
export function payoutEntry(request: PayoutRequest, act: PayoutAct): OwedEntry {
  const { name } = registerOfKey(request.registerKey);
  return owedEntry({
    time: act.time.toISOString(),
    team: request.team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: act.actor,
    action: act.action,
    object: `payout ${request.id}`,
    after: {
      status: request.status,
      amount: request.amount,
      currency: request.currency,
      method: request.method,
      ...act.after,
    },
    outcome: act.outcome,
    ...(act.reason ? { reason: act.reason.slice(0, 200) } : {}),
  });
}

/**
 * A step of a request and its audit entry as one: the compare-and-set of the request writes the
 * entry owed in the same atomic step, then the entries owed are appended (never throws there: what
 * the store does not take now stays owed for the next drain). Undefined: the request was otherwise.
 */
export async function swapRecorded(
  deps: Pick<PayoutDeps, "board" | "audit" | "logger">,
  read: ReadRequest,
  next: PayoutRequest,
  act: PayoutAct,
): Promise<ReadRequest | undefined> {
  const owed = payoutEntry(next, act);
  const stored = await swapRequest(deps.board, read, next, owed);
  if (stored) await appendOwed(deps, act.time.getTime());
  return stored;
}

/** A step of a request with no write of its own (a refused vote) written down: owed, then appended. */
export async function recordPayoutAct(
  deps: Pick<PayoutDeps, "board" | "audit" | "logger">,
  request: PayoutRequest,
  act: PayoutAct,
): Promise<void> {
  await recordOwed(deps, payoutEntry(request, act), act.time.getTime());
}

/** What a change of a request decides: a result, and the next state with its act (audited), if any. */
export type RequestChange<R> = { result: R } | { result: R; next: PayoutRequest; act: PayoutAct };

/**
 * Request `id` read, changed as `change` decides (undefined read: none, or unreadable) and
 * compare-and-set along STATUS_MOVES with its act's entry owed in the same step, asked again on a
 * lost swap (PAYOUTS.update); the entries owed appended after. The result, and the request as
 * stored when written (FamilyBusyError: it kept changing).
 */
export async function updateRequest<R>(
  deps: Pick<PayoutDeps, "board" | "audit" | "logger">,
  id: string,
  change: (read: ReadRequest | undefined) => RequestChange<R> | Promise<RequestChange<R>>,
  attempts?: number,
): Promise<{ result: R; stored?: ReadRequest }> {
  let time: Date | undefined;
  const outcome = await PAYOUTS.update<typeof REQUEST_FIELD, { result: R; stored?: ReadRequest }>(
    deps.board,
    id,
    REQUEST_FIELD,
    async (stored) => {
      const read = stored.value ? { request: stored.value, raw: stored.raw } : undefined;
      const step = await change(read);
      if (!("next" in step)) return { result: { result: step.result } };
      if (read) checkMove(read.request, step.next);
      time = step.act.time;
      // As stored: the schema's own order of keys, which the next compare-and-set compares with.
      const next = payoutRequestSchema.parse(step.next);
      const result = { result: step.result, stored: { request: next, raw: next } };
      return { next, along: payoutEntry(next, step.act), result };
    },
    attempts,
  );
  if (outcome.stored && time) await appendOwed(deps, time.getTime());
  return outcome;
}
