import { readExtra } from "../payments/marker.js";
import type { Invoice } from "../payments/model.js";
import type { Logger } from "../util/logger.js";
import type { LinkBook } from "./book.js";

// What a card of a re-issued link says every time it is drawn (issue 51): "Replaced by NEW (by
// @person)", and no Re-issue button. The old link's record keeps the mark (reissue-record.ts); a
// Refresh, `/invoice ID` and the live card's redraws ask here, so none of them forgets it.

/** The invoice that replaced a link's, and who re-issued it (what buildInvoiceMessage's `replacedBy` takes). */
export type Replacement = { invoiceId: string; user: string };

/** What the answer needs: the links' records, and the log for a store that could not be read. */
export type ReplacementDeps = { links: Pick<LinkBook, "read">; logger: Pick<Logger, "warn"> };

/**
 * The invoice's replacement, where its link's record says it was re-issued and the new link's
 * invoice is known. Undefined otherwise, and never an error: no marker (then nothing is read), no
 * record, a record of another invoice (a copied marker), a new link whose answer is not known yet,
 * a store that cannot be read. A card then says less, never something wrong.
 */
export async function replacementOf(
  deps: ReplacementDeps,
  registerKey: string,
  invoice: Pick<Invoice, "id" | "extra">,
): Promise<Replacement | undefined> {
  const ref = readExtra(invoice.extra).ref;
  if (!ref) return undefined;
  try {
    const record = await deps.links.read(registerKey, ref);
    if (!record?.replacedBy || !record.replacedByUser || record.invoiceId !== invoice.id) return undefined;
    const next = await deps.links.read(registerKey, record.replacedBy);
    return next?.invoiceId ? { invoiceId: next.invoiceId, user: record.replacedByUser } : undefined;
  } catch (error) {
    deps.logger.warn({ invoice: invoice.id, err: error }, "could not read whether a link was re-issued");
    return undefined;
  }
}
