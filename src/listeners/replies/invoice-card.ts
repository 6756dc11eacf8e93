import type { InvoiceCardOptions } from "../../blocks/invoice.js";
import { chosenMethod } from "../../invoices/method.js";
import { replacementOf } from "../../links/replaced.js";
import type { Invoice } from "../../payments/model.js";
import type { ListenerDeps } from "../deps.js";
import { refundsOnCard } from "../payouts/refund.js";

/** What drawing an invoice's card reads besides the invoice. */
export type CardReadsDeps = Pick<
  ListenerDeps,
  "payments" | "now" | "payouts" | "payoutPolicies" | "links" | "logger"
>;

/**
 * What an invoice's card reads besides the invoice, side by side (`/invoice ID`, Refresh, Share,
 * Open): its chosen method (cached, or read within a short budget), its refunds where it is paid,
 * and, where Kassa made it and its link was re-issued, what replaced it (issue 51: the card keeps
 * "Replaced by" and offers no Re-issue). No more calls to the payment service than the method's.
 */
export async function cardReads(
  deps: CardReadsDeps,
  registerKey: string,
  invoice: Invoice,
): Promise<Pick<InvoiceCardOptions, "method" | "refund" | "replacedBy">> {
  const [method, refund, replacedBy] = await Promise.all([
    chosenMethod(deps, registerKey, invoice),
    refundsOnCard(deps, registerKey, invoice),
    replacementOf(deps, registerKey, invoice),
  ]);
  return { method, refund, replacedBy };
}
