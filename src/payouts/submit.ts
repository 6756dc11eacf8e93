import { BusyError } from "../payments/errors.js";
import { PayoffRefusedError } from "../payments/payoff-errors.js";
import { changedTerms, type Payoff, type PayoffAccount } from "../payments/payoff-model.js";
import type { ClaimedItem, Release } from "../store/claims/index.js";
import { outsideBeforeSend, sentAtService } from "./outside.js";
import { type PayoutDeps, swapRecorded, timingOf } from "./request-deps.js";
import { PAYOUT_FAMILY, type PayoutRequest, type ReadRequest, swapRequest } from "./request-model.js";
import { approvedTerms, recheckBeforeSend } from "./send-check.js";
import { cancelAtService } from "./service-cancel.js";
import { infoOf, recordChanged, recordSubmitted, serviceOf, settleFrom } from "./settle.js";

// The one submit. A worker holding a request's claim marks it "submitting" with its claim's token
// (compare-and-set from "approved", so a cancel racing it wins or loses as a whole) BEFORE it calls
// the service, reads the payout again, checks its claim still holds, sends once, and records
// "submitted". Whoever finds a "submitting" request later never sends on sight: it asks payoff/info;
// only a payout the service still has as `created` after the grace (the first send has arrived or
// never will) is marked again, with the finder's token, and sent.

/** A worker's step: the release of its claim, or undefined when the claim was lost (nothing to release). */
export type StepEnd = Release | undefined;

/** Now, as the run's clock plus the time this step has taken (the fence needs real time). */
export type StepClock = () => number;

function marked(request: PayoutRequest, claim: ClaimedItem, at: number): PayoutRequest {
  return {
    ...request,
    status: "submitting",
    attempt: { token: claim.token, at: new Date(at).toISOString() },
  };
}

/**
 * Sends a request this claim has marked "submitting": the payout read again (still `created`, the
 * same amount, method, wallet, fee, receiving and leaving figures as approved, else changed and not
 * sent), the claim renewed (the fence: a worker that lost it stops here), then payoff/submit once,
 * the claim renewed again when its turn in the register's queue comes (lost: not sent).
 */
export async function sendMarked(
  deps: PayoutDeps,
  claim: ClaimedItem,
  read: ReadRequest,
  account: PayoffAccount,
  clock: StepClock,
): Promise<StepEnd> {
  const { request } = read;
  const timing = timingOf(deps);
  const info = await infoOf(deps, account, request.id);
  if (info === undefined) return unmark(deps, read, clock() + timing.retryMs);
  if (info === "vanished") return recordChanged(deps, read, ["vanished"], undefined, clock());
  // Not `created` before this claim's send, the first since Kassa saw it `created` with no send of its
  // own on the way: cancelled at the service (changed), or sent there by someone else (outside).
  if (info.state !== "created")
    return sentAtService(info.state)
      ? outsideBeforeSend(deps, claim.token, request.id, info.state, clock())
      : recordChanged(deps, read, ["state"], info, clock());
  const changed = changedTerms(approvedTerms(request), info);
  if (changed.length > 0) return recordChanged(deps, read, changed, info, clock());
  // Not at the service yet: the policy in force now decides whether it still goes.
  const policy = await deps.policies.get(request.registerKey);
  const held = await recheckBeforeSend(deps, read, policy, clock());
  if (held) return held;
  const holds = () => deps.board.renew(PAYOUT_FAMILY, request.id, claim.token, clock(), timing.leaseMs);
  if (!(await holds())) return undefined;
  let payoff: Payoff;
  try {
    // The claim is checked again when the call's turn in the register's queue comes: a worker whose
    // lease ran out while it waited sends nothing (another holds the request now).
    payoff = await deps.payments.submitPayoff(account, request.id, holds);
  } catch (error) {
    if (error instanceof BusyError && error.reason === "withdrawn") {
      deps.logger.warn({ payout: request.id }, "a payout's claim ran out while its submit waited: not sent");
      return undefined;
    }
    deps.logger.warn({ payout: request.id, err: error }, "a payout's submit got no clear answer");
    return afterUnclearSubmit(deps, read, account, error, clock);
  }
  return recordSubmitted(deps, read, payoff, clock(), "sent");
}

/**
 * This claim's mark taken back (submitting → approved) when the service could not be read before the
 * send: nothing was sent by this claim, and any earlier send had passed its grace with the payout still
 * `created`, so it never reached the service. As approved, the next step checks the policy again without
 * the service, and an approver's stop or the requester's cancel lands at once.
 */
async function unmark(deps: PayoutDeps, read: ReadRequest, dueAt: number): Promise<Release> {
  const { attempt: _mark, ...request } = read.request;
  await swapRequest(deps.board, read, { ...request, status: "approved" });
  return { dueAt };
}

/**
 * The submit failed or its answer was lost: never sent again here. payoff/info says what happened:
 * taken (submitted), or still `created` (a refusal in the service's words ends it as refused; an
 * answer lost stays "submitting" until the grace has passed).
 */
async function afterUnclearSubmit(
  deps: PayoutDeps,
  read: ReadRequest,
  account: PayoffAccount,
  error: unknown,
  clock: StepClock,
): Promise<StepEnd> {
  const info = await infoOf(deps, account, read.request.id);
  const graceEnd =
    Date.parse(read.request.attempt?.at ?? new Date(clock()).toISOString()) + timingOf(deps).graceMs;
  if (info === undefined) return { dueAt: graceEnd };
  if (info === "vanished") return recordChanged(deps, read, ["vanished"], undefined, clock());
  if (info.state !== "created") return settleFrom(deps, read, info, clock());
  if (!(error instanceof PayoffRefusedError)) return { dueAt: graceEnd };
  const at = clock();
  const next: PayoutRequest = {
    ...read.request,
    status: "refused",
    refusal: error.messages,
    service: serviceOf(info, at),
    serviceCancel: "pending",
    endedAt: new Date(at).toISOString(),
  };
  const stored = await swapRecorded(deps, read, next, {
    action: "payout.submitted",
    actor: "kassa",
    outcome: "failed",
    reason: error.messages.join("; ") || error.reason,
    time: new Date(at),
  });
  if (!stored) return { dueAt: at };
  return { dueAt: (await cancelAtService(deps, stored, new Date(at))) ? at : at + timingOf(deps).retryMs };
}

/** approved → submitting (this claim's mark), then the send. A cancel that came first wins. */
export async function submitApproved(
  deps: PayoutDeps,
  claim: ClaimedItem,
  read: ReadRequest,
  account: PayoffAccount,
  clock: StepClock,
): Promise<StepEnd> {
  const mine = await swapRequest(deps.board, read, marked(read.request, claim, clock()));
  if (!mine) return { dueAt: clock() };
  return sendMarked(deps, claim, mine, account, clock);
}

/**
 * A request found "submitting" (its worker died or lost its claim, or the answer was lost): the
 * service is asked first. Taken: recorded. Still `created` after the grace: the send never arrived,
 * so this claim marks it its own and sends; before the grace: looked at again when it ends.
 */
export async function recoverSubmitting(
  deps: PayoutDeps,
  claim: ClaimedItem,
  read: ReadRequest,
  account: PayoffAccount,
  clock: StepClock,
): Promise<StepEnd> {
  const timing = timingOf(deps);
  const info = await infoOf(deps, account, read.request.id);
  if (info === undefined) return { dueAt: clock() + timing.retryMs };
  if (info === "vanished") return recordChanged(deps, read, ["vanished"], undefined, clock());
  if (info.state !== "created") return settleFrom(deps, read, info, clock());
  const graceEnd = Date.parse(read.request.attempt?.at ?? read.request.createdAt) + timing.graceMs;
  if (clock() < graceEnd) return { dueAt: graceEnd };
  const mine = await swapRequest(deps.board, read, marked(read.request, claim, clock()));
  if (!mine) return { dueAt: clock() };
  return sendMarked(deps, claim, mine, account, clock);
}
