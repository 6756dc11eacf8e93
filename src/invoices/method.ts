import type { Invoice, PaymentMethod } from "../payments/model.js";
import type { InvoiceDeps } from "./deps.js";

/**
 * The method the payer chose, as the workspace's method list describes it (name, currency), when the
 * list is cached or read within its budget; undefined otherwise, and the card shows the code alone.
 */
export function chosenMethod(
  deps: Pick<InvoiceDeps, "payments">,
  teamId: string,
  invoice: Invoice,
): Promise<PaymentMethod | undefined> {
  return invoice.method ? deps.payments.methodFor(teamId, invoice.method) : Promise.resolve(undefined);
}
