import type { Invoice } from "../payments/model.js";
import { inlineCode, truncate } from "./mrkdwn.js";

export type StateLook = { emoji: string; label: string };

/** Every state the service is known to use (notes/payments-api.md); others are shown verbatim. */
export const INVOICE_STATES: Record<string, StateLook> = {
  notpayed: { emoji: ":hourglass_flowing_sand:", label: "Not paid" },
  processing: { emoji: ":arrows_counterclockwise:", label: "Payment processing" },
  wrongamount: { emoji: ":warning:", label: "Wrong amount paid (more payment needed)" },
  failed: { emoji: ":x:", label: "Payment failed" },
  payed: { emoji: ":white_check_mark:", label: "Paid" },
  unavailable: { emoji: ":no_entry:", label: "Payment method unavailable" },
};

/** Own keys only: a state named "constructor" or "__proto__" is unknown, not Object's. */
export function lookup<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function isKnownState(state: string): boolean {
  return lookup(INVOICE_STATES, state) !== undefined;
}

/** "Not paid" with its emoji, or "Unknown state `refunded`" (escaped, in code). */
export function stateText(state: string): string {
  const look = lookup(INVOICE_STATES, state);
  return look
    ? `${look.emoji} ${look.label}`
    : `:grey_question: Unknown state ${inlineCode(truncate(state, 100))}`;
}

/** Said under an unknown state, so nobody reads more into it than the service told us. */
export const UNKNOWN_STATE_HINT = "_The payment service reported a state Kassa does not know yet._";

export function plainState(state: string): string {
  return lookup(INVOICE_STATES, state)?.label ?? state;
}

/** An unpaid invoice past its expiry: the service keeps it `notpayed`, so we compare with now. */
export function isExpired(invoice: Invoice, now: Date): boolean {
  return invoice.state === "notpayed" && invoice.expiredAt.epochSeconds * 1000 < now.getTime();
}
