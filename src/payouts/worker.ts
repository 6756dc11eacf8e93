import { isFinalPayoffState } from "../payments/payoff-model.js";
import type { ClaimedItem, Release } from "../store/claims/index.js";
import { countOnLeaveDay, DAY_FAMILY } from "./day-totals.js";
import { showPayout } from "./notices.js";
import { settleRefundOf } from "./refund-settle.js";
import { type PayoutDeps, swapRecorded, timingOf } from "./request-deps.js";
import {
  FINAL_STATUSES,
  PAYOUT_FAMILY,
  type PayoutRequest,
  REQUEST_FIELD,
  type ReadRequest,
  readRequest,
} from "./request-model.js";
import { recheckBeforeSend, recordStopped } from "./send-check.js";
import { cancelAtService } from "./service-cancel.js";
import { recoverSubmitting, type StepClock, type StepEnd, submitApproved } from "./submit.js";

// The payout worker: each run claims the requests due (claimDue, with a lease) and moves each one
// step: a waiting one past its time expires (cancelled at the service), an approved one is submitted
// once (submit.ts), one found submitting is settled from payoff/info, a submitted one is read until
// it ends (told once: the swap to "ended" has one winner), an ended one is kept for stale clicks and
// then forgotten. Started on every replica; the board gives each request to one claim at a time.

/** What a run did with one request: its status after the step. */
export type WorkerStep = {
  id: string;
  status: PayoutRequest["status"] | "forgotten" | "unreadable" | "skipped";
};

/** waiting past its time → expired, cancelled at the service. */
async function expire(deps: PayoutDeps, read: ReadRequest, at: number): Promise<Release> {
  const time = new Date(at);
  const next: PayoutRequest = {
    ...read.request,
    status: "expired",
    serviceCancel: "pending",
    endedAt: time.toISOString(),
  };
  const stored = await swapRecorded(deps, read, next, {
    action: "payout.cancelled",
    actor: "kassa",
    outcome: "done",
    reason: "expired",
    time,
  });
  if (!stored) return { dueAt: at };
  return { dueAt: (await cancelAtService(deps, stored, time)) ? at : at + timingOf(deps).retryMs };
}

/** A submitted payout read until it ends: → ended (payed, failed, canceled), told once. */
async function follow(deps: PayoutDeps, read: ReadRequest, at: number): Promise<Release> {
  const timing = timingOf(deps);
  const account = await deps.account(read.request.registerKey);
  if (!account) return { dueAt: at + timing.followMs };
  let state: string;
  let message: string | null;
  try {
    ({ state, message } = await deps.payments.payoffInfo(account, read.request.id));
  } catch (error) {
    deps.logger.warn({ payout: read.request.id, err: error }, "could not read a submitted payout");
    return { dueAt: at + timing.followMs };
  }
  if (!isFinalPayoffState(state)) return { dueAt: at + timing.followMs };
  const time = new Date(at);
  const service = { state, message, at: time.toISOString() };
  const ended: PayoutRequest = { ...read.request, status: "ended", service, endedAt: time.toISOString() };
  const stored = await swapRecorded(deps, read, ended, {
    action: "payout.ended",
    actor: "kassa",
    outcome: state === "payed" ? "done" : "failed",
    ...(state === "payed" ? {} : { reason: message ?? state }),
    after: { serviceState: state, message },
    time,
  });
  if (!stored) return { dueAt: at };
  if (state === "payed") await deps.recipients?.paid(ended, time).catch(() => undefined);
  return { dueAt: at + timing.keepMs };
}

/**
 * An ended request: its quote cancelled if still owed (tried until it is forgotten), kept until
 * keepMs after its end for stale clicks, then forgotten.
 */
async function afterEnd(deps: PayoutDeps, read: ReadRequest, at: number): Promise<Release | "forget"> {
  const { request } = read;
  const until = Date.parse(request.endedAt ?? request.createdAt) + timingOf(deps).keepMs;
  if (at >= until) {
    if (request.serviceCancel === "pending")
      deps.logger.warn(
        { payout: request.id },
        "forgetting a payout request whose quote could not be cancelled",
      );
    return "forget";
  }
  if (request.serviceCancel === "pending" && !(await cancelAtService(deps, read, new Date(at))))
    return { dueAt: Math.min(at + timingOf(deps).retryMs, until) };
  return { dueAt: until };
}

async function stepOf(
  deps: PayoutDeps,
  claim: ClaimedItem,
  read: ReadRequest,
  clock: StepClock,
): Promise<StepEnd> {
  const { request } = read;
  const at = clock();
  if (FINAL_STATUSES.has(request.status)) return afterEnd(deps, read, at);
  if (request.status === "submitted") return follow(deps, read, at);
  const expired = at >= Date.parse(request.expiresAt);
  if (request.status === "waiting")
    return expired ? expire(deps, read, at) : { dueAt: Date.parse(request.expiresAt) };
  const account = await deps.account(request.registerKey);
  if (request.status === "submitting")
    return account
      ? recoverSubmitting(deps, claim, read, account, clock)
      : { dueAt: at + timingOf(deps).retryMs };
  // Approved, never marked (so never sent): stopped when the policy in force no longer lets it go
  // (switched off, expired, a voter removed or a limit lowered); sent once the register can sign.
  const policy = await deps.policies.get(request.registerKey);
  const held = await recheckBeforeSend(deps, read, policy, at);
  if (held) return held;
  if (!account || !policy)
    return { dueAt: Math.min(at + timingOf(deps).retryMs, Date.parse(request.expiresAt)) };
  // Its money leaves today: counted against today's caps first (a request made on an earlier day).
  const leave = await countOnLeaveDay(deps.board, read, policy, new Date(at));
  if (!leave) return { dueAt: at };
  if (leave.ok) return submitApproved(deps, claim, leave.read, account, clock);
  if (leave.refusal.kind === "totals_unreadable") return { dueAt: at + timingOf(deps).retryMs };
  const cap =
    leave.refusal.kind === "cap_reached"
      ? { which: leave.refusal.cap, limit: leave.refusal.limit, total: leave.refusal.total }
      : undefined;
  return recordStopped(deps, read, { why: "day_cap", ...(cap ? { cap } : {}) }, at);
}

/** One claimed request moved one step, its claim released with its next due time (or forgotten). */
async function runOne(deps: PayoutDeps, claim: ClaimedItem, clock: StepClock): Promise<WorkerStep> {
  // A batch is worked one request after another: a claim whose lease ran out meanwhile is left alone.
  if (!(await deps.board.renew(PAYOUT_FAMILY, claim.key, claim.token, clock(), timingOf(deps).leaseMs)))
    return { id: claim.key, status: "skipped" };
  const read = await readRequest(deps.board, claim.key);
  if (!read) {
    const raw = await deps.board.readState(PAYOUT_FAMILY, claim.key, REQUEST_FIELD);
    if (raw === undefined) {
      await deps.board.release(PAYOUT_FAMILY, claim.key, claim.token, "forget");
      return { id: claim.key, status: "forgotten" };
    }
    // Kept for an operator to look at; never acted on.
    deps.logger.error({ payout: claim.key }, "a stored payout request is unreadable");
    await deps.board.release(PAYOUT_FAMILY, claim.key, claim.token, {
      dueAt: clock() + timingOf(deps).keepMs,
    });
    return { id: claim.key, status: "unreadable" };
  }
  let end = await stepOf(deps, claim, read, clock);
  // Slack is told under the same claim: the cards follow the request, the end's notes go once (the
  // claim checked again before each). Owed: tried again when Slack said, else after retryMs.
  if (end && end !== "forget" && deps.slack) {
    const holder = {
      token: claim.token,
      holds: () => deps.board.renew(PAYOUT_FAMILY, claim.key, claim.token, clock(), timingOf(deps).leaseMs),
      now: clock,
    };
    const notices = { board: deps.board, slack: deps.slack, logger: deps.logger };
    const shown = await showPayout(notices, claim.key, true, holder);
    if (shown.owed)
      end = { dueAt: Math.min(end.dueAt, clock() + (shown.retryInMs ?? timingOf(deps).retryMs)) };
  }
  if (end === "forget") await deps.board.drop(PAYOUT_FAMILY, claim.key);
  else if (end) await deps.board.release(PAYOUT_FAMILY, claim.key, claim.token, end);
  const after = end === "forget" ? undefined : await readRequest(deps.board, claim.key);
  // A refund's hold follows its request's end: paid out, or let go (refund-settle.ts).
  if (after?.request.refundOf) await settleRefundOf(deps, after.request, new Date(clock()));
  if (after?.request.batch) await deps.batches?.rowMoved(after.request, clock());
  return { id: claim.key, status: after?.request.status ?? "forgotten" };
}

/**
 * One run of the worker at `now`: the due requests claimed and each moved one step (a failing one is
 * logged and looked at again after retryMs), and the days whose lists are no longer needed dropped.
 */
export async function runDuePayouts(deps: PayoutDeps, now: Date): Promise<WorkerStep[]> {
  const timing = timingOf(deps);
  const started = performance.now();
  const clock: StepClock = () => now.getTime() + Math.round(performance.now() - started);
  const steps: WorkerStep[] = [];
  for (const claim of await deps.board.claimDue(PAYOUT_FAMILY, now.getTime(), timing.leaseMs, timing.batch)) {
    try {
      steps.push(await runOne(deps, claim, clock));
    } catch (error) {
      deps.logger.error({ payout: claim.key, err: error }, "a payout step failed");
      await deps.board
        .release(PAYOUT_FAMILY, claim.key, claim.token, { dueAt: clock() + timing.retryMs })
        .catch(() => undefined);
    }
  }
  await deps.batches
    ?.run(now)
    .catch((error: unknown) => deps.logger.error({ err: error }, "the payout batches' run failed"));
  for (const day of await deps.board.claimDue(DAY_FAMILY, now.getTime(), timing.leaseMs, timing.batch))
    await deps.board.drop(DAY_FAMILY, day.key);
  return steps;
}

/** Makes a request due now (a callback from the service said it changed): the worker reads it next. */
export async function followNow(deps: Pick<PayoutDeps, "board">, id: string, now: Date): Promise<void> {
  await deps.board.nudge(PAYOUT_FAMILY, id, now.getTime());
}
