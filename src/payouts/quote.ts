import {
  PayoffDraftError,
  PayoffMismatchError,
  type PayoffRefusal,
  PayoffRefusedError,
} from "../payments/payoff-errors.js";
import type { PayoffAccount, PayoffDraft, PayoffQuote } from "../payments/payoff-model.js";
import type { PayoutDeps } from "./request-deps.js";

// The service's quote for a request (payoff/create), and the cancel of one Kassa will not use.

/** Why there is no quote (a part of requests.ts's RequestRefusal). */
export type QuoteRefusal =
  | { kind: "invalid"; field: "amount" | "method" | "wallet"; problem: string }
  /** The service refused the quote: its own words, as it said them. */
  | { kind: "service_refused"; reason: PayoffRefusal; messages: string[] }
  /** The service's quote was not the payout asked for (it was cancelled). */
  | { kind: "quote_mismatch" };

/** The quote, or why there is none (a refusal said in the service's words; a mismatch cancelled). */
export async function quoteFor(
  deps: PayoutDeps,
  account: PayoffAccount,
  draft: PayoffDraft,
): Promise<{ quote: PayoffQuote } | { refusal: QuoteRefusal }> {
  try {
    return { quote: await deps.payments.createPayoff(account, draft) };
  } catch (error) {
    if (error instanceof PayoffRefusedError)
      return { refusal: { kind: "service_refused", reason: error.reason, messages: error.messages } };
    if (error instanceof PayoffDraftError && error.field !== "salt" && error.field !== "id")
      return {
        refusal: {
          kind: "invalid",
          field: error.field === "walletExtra" ? "wallet" : error.field,
          problem: error.problem,
        },
      };
    if (error instanceof PayoffMismatchError) {
      await cancelQuote(deps, account, error.payoffId);
      return { refusal: { kind: "quote_mismatch" } };
    }
    throw error;
  }
}

/** Cancels a quote Kassa will not use; one the service keeps as `created` harms nobody, so failures are logged. */
export async function cancelQuote(deps: PayoutDeps, account: PayoffAccount, id: string): Promise<void> {
  try {
    await deps.payments.cancelPayoff(account, id);
  } catch (error) {
    deps.logger.warn({ payout: id, err: error }, "could not cancel an unused payout quote");
  }
}
