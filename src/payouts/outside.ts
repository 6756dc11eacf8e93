import type { ClaimBoard, Release } from "../store/claims/index.js";
import { type PayoutDeps, type RequestChange, updateRequest } from "./request-deps.js";
import { PAYOUT_FAMILY, type PayoutRequest, type ReadRequest, type RequestStatus } from "./request-model.js";

// A Kassa request whose quote the service has on its way (or paid, or failed) although Kassa never
// sent it: someone holding Secret 2 submitted it at the service, without the approvals. Found by the
// outside-payout watch (its history) or by the worker about to send it (payoff/info). The request
// becomes "outside", an entry says so, its card and notes follow (the worker, nudged), and it counts
// against the caps: the money left.

/** Service states that mean the payout was sent: the quote is no longer `created`, nor cancelled. */
export function sentAtService(state: string): boolean {
  return state !== "created" && state !== "canceled";
}

/** Statuses Kassa never sends from: a payout on its way in one of these was sent by someone else. */
const NEVER_SENT: ReadonlySet<RequestStatus> = new Set([
  "waiting",
  "approved",
  "rejected",
  "cancelled",
  "expired",
  "changed",
  "refused",
  "stopped",
]);

/**
 * Whether Kassa never sent this request: a status it never sends from, or the mark of `claim` (the
 * worker that holds it and has not sent yet: its mark is written before its send).
 */
export function kassaNeverSent(read: ReadRequest, claim?: string): boolean {
  const { status, attempt } = read.request;
  if (status === "submitting") return claim !== undefined && attempt?.token === claim;
  return NEVER_SENT.has(status);
}

/**
 * Moves request `id` to outside (compare-and-set, a few tries) when Kassa never sent it (see
 * kassaNeverSent; `claim`: the worker holding it, before its send) and the service shows `state`;
 * its audit entry written in the same step; the worker nudged to tell Slack. True when this call
 * moved it.
 */
export async function recordSentOutside(
  deps: Pick<PayoutDeps, "board" | "audit" | "logger">,
  id: string,
  state: string,
  at: number,
  claim?: string,
): Promise<boolean> {
  const time = new Date(at);
  const { result: was, stored } = await updateRequest(
    deps,
    id,
    (read): RequestChange<RequestStatus | undefined> => {
      if (!read || !kassaNeverSent(read, claim) || !sentAtService(state)) return { result: undefined };
      const { serviceCancel: _owed, attempt: _mark, ...request } = read.request;
      const from = read.request.status;
      const next: PayoutRequest = {
        ...request,
        status: "outside",
        outside: { state, at: time.toISOString(), was: from },
        endedAt: request.endedAt ?? time.toISOString(),
      };
      const act = {
        action: "payout.outside" as const,
        actor: "kassa",
        outcome: "done" as const,
        reason: `sent at the service without approval while ${from}`,
        after: { serviceState: state, was: from },
        time,
      };
      return { next, act, result: from };
    },
    5,
  );
  if (!stored || was === undefined) return false;
  deps.logger.warn(
    { team: stored.request.team, payout: id, was, state, outcome: "payout_outside" },
    "a Kassa payout request was sent at the service without its approvals",
  );
  await nudge(deps.board, id, at);
  return true;
}

/** The worker's step when its claim, about to send, finds the payout sent already by someone else. */
export async function outsideBeforeSend(
  deps: Pick<PayoutDeps, "board" | "audit" | "logger">,
  token: string,
  id: string,
  state: string,
  at: number,
): Promise<Release> {
  await recordSentOutside(deps, id, state, at, token);
  return { dueAt: at };
}

async function nudge(board: ClaimBoard, id: string, at: number): Promise<void> {
  await board.nudge(PAYOUT_FAMILY, id, at).catch(() => undefined);
}
