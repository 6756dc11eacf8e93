import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { Logger } from "../util/logger.js";
import type { LinkBook } from "./book.js";
import { type LinkOutcome, writeOutcome } from "./changes.js";
import { AFTER_EXPIRY_MS, PROCESSING_WAIT_MS } from "./next-look.js";
import type { OwnerDeps } from "./owner.js";
import type { LinkRecord } from "./record.js";

// How a created link stands (issue 51): paid, expired unpaid, or still open, read at the service
// only while its record has no outcome, and the outcome written once known (what /invoice unpaid
// reads for closed links without asking the service).

/** What a link's life after its create needs: the records, the service, Slack, the log, the pass's pace. */
export type LifeDeps = OwnerDeps & {
  book: LinkBook;
  payments: Pick<WorkspacePayments, "invoice">;
  logger: Logger;
  checkMs: number;
  /** How long a reminder being sent is left to its sender (remindGraceFor(SLACK_TIMEOUT_MS); REMIND_GRACE_MS when absent). */
  remindGraceMs?: number | undefined;
};

/** How a link stands: ended (paid, or expired unpaid) or still open. */
export type Standing = { record: LinkRecord; state: LinkOutcome | "open" };

/**
 * How the link stands, its outcome written once known: paid whenever the service says so, expired
 * once its page closed (a payment still processing is waited for). Reads the service only while no
 * outcome is written.
 */
export async function settleOutcome(
  deps: Pick<LifeDeps, "book" | "payments">,
  key: string,
  registerKey: string,
  record: LinkRecord,
  now: number,
): Promise<Standing> {
  if (record.outcome) return { record, state: record.outcome };
  if (record.status !== "created" || !record.invoiceId || record.expiresAt === undefined)
    return { record, state: "open" };
  const invoice = await deps.payments.invoice(registerKey, record.invoiceId);
  const ended = endingOf(invoice.state, record.expiresAt, now);
  if (!ended) return { record, state: "open" };
  const written = await writeOutcome(await deps.book.board(), key, ended);
  return { record: written ?? record, state: written?.outcome ?? ended };
}

/** The service's state read as how the link ended; undefined while it may still be paid. */
export function endingOf(state: string, expiresAt: number, now: number): LinkOutcome | undefined {
  if (state === "payed") return "paid";
  if (now < expiresAt + AFTER_EXPIRY_MS) return undefined;
  if (state === "processing" && now < expiresAt + PROCESSING_WAIT_MS) return undefined;
  return "expired";
}
