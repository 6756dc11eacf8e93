import { PayoffRefusedError } from "../payments/payoff-errors.js";
import { isFinalPayoffState, type Payoff, type PayoffAccount } from "../payments/payoff-model.js";
import type { Release } from "../store/claims/index.js";
import { type PayoutDeps, swapRecorded, timingOf } from "./request-deps.js";
import type { PayoutRequest, ReadRequest } from "./request-model.js";
import { cancelAtService } from "./service-cancel.js";

// What the service says became of a payout Kassa marked for its send: taken (submitted, audited
// once by the swap's winner), changed or gone (never sent, its quote cancelled), read by payoff/info.

export function serviceOf(payoff: Payoff, at: number): PayoutRequest["service"] {
  return { state: payoff.state, message: payoff.message, at: new Date(at).toISOString() };
}

/** submitting → submitted, as the service reports the payout taken; audited once (by the swap's winner). */
export async function recordSubmitted(
  deps: PayoutDeps,
  read: ReadRequest,
  payoff: Payoff,
  at: number,
  how: "sent" | "read back",
): Promise<Release> {
  const time = new Date(at);
  const next = { ...read.request, status: "submitted" as const, submittedAt: time.toISOString() };
  const stored = await swapRecorded(
    deps,
    read,
    { ...next, service: serviceOf(payoff, at) },
    {
      action: "payout.submitted",
      actor: "kassa",
      outcome: "done",
      after: { serviceState: payoff.state, how },
      time,
    },
  );
  if (!stored) return { dueAt: at };
  // A payout already ended is told at once, by the follow-up step.
  return { dueAt: isFinalPayoffState(payoff.state) ? at : at + timingOf(deps).followMs };
}

/** → changed: not what was approved (or gone); never sent, its quote cancelled when still `created`. */
export async function recordChanged(
  deps: PayoutDeps,
  read: ReadRequest,
  changed: NonNullable<PayoutRequest["changed"]>,
  payoff: Payoff | undefined,
  at: number,
): Promise<Release> {
  const time = new Date(at);
  const next: PayoutRequest = {
    ...read.request,
    status: "changed",
    changed,
    endedAt: time.toISOString(),
    ...(payoff ? { service: serviceOf(payoff, at) } : {}),
    ...(payoff?.state === "created" ? { serviceCancel: "pending" as const } : {}),
  };
  const stored = await swapRecorded(deps, read, next, {
    action: "payout.ended",
    actor: "kassa",
    outcome: "failed",
    reason: `changed at the service: ${changed.join(", ")}`,
    time,
  });
  if (!stored) return { dueAt: at };
  const cancelled = await cancelAtService(deps, stored, time);
  return { dueAt: cancelled ? at : at + timingOf(deps).retryMs };
}

/** The payout as the service has it; "vanished" when it says there is none; undefined: no answer. */
export async function infoOf(
  deps: PayoutDeps,
  account: PayoffAccount,
  id: string,
): Promise<Payoff | "vanished" | undefined> {
  try {
    return await deps.payments.payoffInfo(account, id);
  } catch (error) {
    if (error instanceof PayoffRefusedError && error.reason === "not-found") return "vanished";
    deps.logger.warn({ payout: id, err: error }, "could not read a payout");
    return undefined;
  }
}

/** What the service reports of a payout Kassa may have sent: submitted (or later), or changed. */
export async function settleFrom(
  deps: PayoutDeps,
  read: ReadRequest,
  payoff: Payoff,
  at: number,
): Promise<Release> {
  if (payoff.state === "canceled") return recordChanged(deps, read, ["state"], payoff, at);
  return recordSubmitted(deps, read, payoff, at, "read back");
}
