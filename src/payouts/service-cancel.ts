import { PayoffRefusedError } from "../payments/payoff-errors.js";
import { kassaNeverSent, recordSentOutside, sentAtService } from "./outside.js";
import type { PayoutDeps } from "./request-deps.js";
import { type ReadRequest, readRequest, swapRequest } from "./request-model.js";

/**
 * Cancels at the service the quote of a request that ended without a submit (rejected, cancelled,
 * expired, changed), and writes down that it did. A refusal is settled by reading the payout: already
 * `canceled` is done; a payout on its way or paid was sent by someone else at the service (the
 * request becomes outside, src/payouts/outside.ts); any other state cannot be cancelled (logged). False when the service or the store did not answer: the worker tries
 * again (the request stays "pending").
 */
export async function cancelAtService(deps: PayoutDeps, read: ReadRequest, now: Date): Promise<boolean> {
  const { request } = read;
  if (request.serviceCancel !== "pending") return true;
  const account = await deps.account(request.registerKey);
  if (!account) return false;
  let state: string;
  try {
    state = (await deps.payments.cancelPayoff(account, request.id)).state;
  } catch (error) {
    if (!(error instanceof PayoffRefusedError)) return false;
    try {
      state = (await deps.payments.payoffInfo(account, request.id)).state;
    } catch (infoError) {
      if (!(infoError instanceof PayoffRefusedError && infoError.reason === "not-found")) return false;
      state = "vanished";
    }
  }
  // On its way or paid although Kassa never sent it: someone sent the quote at the service.
  if (sentAtService(state) && state !== "vanished" && kassaNeverSent(read))
    return recordSentOutside(deps, request.id, state, now.getTime());
  const outcome = state === "canceled" || state === "vanished" ? "done" : "impossible";
  if (outcome === "impossible")
    deps.logger.warn({ payout: request.id, state }, "a payout Kassa did not send could not be cancelled");
  const service = { state, message: null, at: now.toISOString() };
  if (await swapRequest(deps.board, read, { ...request, serviceCancel: outcome, service })) return true;
  // Changed meanwhile (another replica wrote it down): fine when it says the same.
  return (await readRequest(deps.board, request.id))?.request.serviceCancel !== "pending";
}
