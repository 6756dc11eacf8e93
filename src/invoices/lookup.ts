import { isKnownState } from "../blocks/invoice.js";
import { ServiceError } from "../payments/errors.js";
import type { Invoice } from "../payments/model.js";
import type { Logger } from "../util/logger.js";
import type { InvoiceDeps } from "./deps.js";

/** The cash register has no such invoice (the service said "not found"): the asker typed a wrong id. */
export class InvoiceNotFoundError extends Error {
  override readonly name = "InvoiceNotFoundError";
  constructor(
    readonly invoiceId: string,
    /** The service's own words. */
    readonly messages: string[],
  ) {
    super(`no invoice ${invoiceId}`);
  }
}

/** States this process has already logged as unknown: one warning per state, not one per lookup. */
const reportedStates = new Set<string>();

/** The first sight of a state Kassa has no label for goes to the log, so it can be added. */
export function noteUnknownState(logger: Logger, state: string, team: string): void {
  if (isKnownState(state) || reportedStates.has(state)) return;
  reportedStates.add(state);
  logger.warn({ team, state: state.slice(0, 100) }, "payment service reported an unknown invoice state");
}

/**
 * Reads one invoice for `/invoice` and its Refresh button. "Not found" from the service becomes an
 * InvoiceNotFoundError (answered with the id quoted and the payment link suggested); other failures
 * go on as they are.
 */
export async function lookupInvoice(
  deps: Pick<InvoiceDeps, "logger" | "payments">,
  teamId: string,
  invoiceId: string,
): Promise<Invoice> {
  try {
    const invoice = await deps.payments.invoice(teamId, invoiceId);
    noteUnknownState(deps.logger, invoice.state, teamId);
    return invoice;
  } catch (error) {
    if (error instanceof ServiceError && error.messages.some((message) => /not found/i.test(message))) {
      throw new InvoiceNotFoundError(invoiceId, error.messages);
    }
    throw error;
  }
}
