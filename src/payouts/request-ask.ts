import type { SubtractFrom } from "../payments/payoff-model.js";
import type { InvoicePaid } from "./refund-record.js";

/** What a requester asks for: `amount` in the method's currency, as an exact decimal string. */
export type PayoutAsk = {
  registerKey: string;
  requester: string;
  amount: string;
  method: string;
  wallet: string;
  subtractFrom: SubtractFrom;
  reason: string;
  reference: string;
  /**
   * The method's currency as known before any quote (its balance), if known: a RUB request is held
   * against the caps with its own amount before the service is asked.
   */
  currency?: string | undefined;
  /** Where the service posts the payout's end (the register's callback address); none: followed by reading. */
  callbackUrl?: string | undefined;
  /** A refund of a paid invoice: its amount is held against what the payment brought in (refund-record.ts). */
  refundOf?: { invoiceId: string; paid: InvoicePaid } | undefined;
  /** The trusted recipient it pays (its method and wallet are the ask's), and its v3 wallet_extra. */
  recipient?: { id: string; label: string } | undefined;
  walletExtra?: string | undefined;
  /** A row of a batch (src/payout-batches): its card is the batch's, its approvals the batch's. */
  batch?: { id: string; row: number } | undefined;
};
