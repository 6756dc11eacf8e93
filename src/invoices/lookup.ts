import { isKnownState } from "../blocks/invoice.js";
import { NotConnectedError, ServiceError } from "../payments/errors.js";
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

/** A cash register of the workspace: its name and the key its state is kept under. */
export type RegisterRef = { key: string; name: string };

/**
 * Reads an invoice from the first of `registers` that has it, in order (the channel's first): an id
 * belongs to one register, and the others answer "not found". Each read keeps its own register's
 * deadline and turn, so one register's trouble never holds up another's. When none has it and one
 * could not answer, that failure is what the asker hears: the invoice may well be there.
 */
export async function findInvoice(
  deps: Pick<InvoiceDeps, "logger" | "payments">,
  registers: readonly RegisterRef[],
  invoiceId: string,
): Promise<{ invoice: Invoice; register: RegisterRef }> {
  let notFound: InvoiceNotFoundError | undefined;
  let failure: unknown;
  for (const [index, register] of registers.entries()) {
    try {
      return { invoice: await lookupInvoice(deps, register.key, invoiceId), register };
    } catch (error) {
      if (error instanceof InvoiceNotFoundError) notFound ??= error;
      // Another register not connected (or its key gone) is no answer about this invoice.
      else if (!(index > 0 && error instanceof NotConnectedError)) failure ??= error;
    }
  }
  throw failure ?? notFound ?? new InvoiceNotFoundError(invoiceId, []);
}
