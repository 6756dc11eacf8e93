import { type HistoryEntry, isFinalState } from "../payments/history.js";

/**
 * How far along its life a state puts an invoice, for an invoice the history lists more than once
 * (it was seen to list one paid, unpaid, paid: issue 43): the furthest along is its current state.
 * Unknown states come just after unpaid.
 */
const ALONG = ["notpayed", "processing", "wrongamount", "unavailable", "failed", "payed"];

function along(state: string): number {
  const index = ALONG.indexOf(state);
  return index === -1 ? 0.5 : index;
}

/** Whether `state` says more of where an invoice is than `than`: the order of the listing never matters. */
function further(state: string, than: string): boolean {
  const a = along(state);
  const b = along(than);
  return a !== b ? a > b : state > than;
}

/**
 * One page's entries with each invoice once: the entry furthest along among its listings on this
 * page and the pages this turn read before (`counted`: id to the state that counted, updated in
 * place). A listing that is not further along than one already counted is left out, so the pages
 * read later in a turn never take an invoice back, and every pass decides the same way.
 */
export function oncePerInvoice(
  entries: readonly HistoryEntry[],
  counted: Map<string, string>,
): HistoryEntry[] {
  const chosen = new Map<string, HistoryEntry>();
  for (const entry of entries) {
    const before = chosen.get(entry.id)?.state ?? counted.get(entry.id);
    if (before !== undefined && !further(entry.state, before)) continue;
    chosen.set(entry.id, entry);
  }
  for (const [id, entry] of chosen) counted.set(id, entry.state);
  // In the page's order (newest first), one place per invoice.
  return entries.filter((entry) => chosen.get(entry.id) === entry);
}

/**
 * An invoice seen in a final state (it never leaves one) listed with a state less far along: a
 * stale repeat of it, not news (a turn that reads only the page with the stale listing).
 */
export function staleRepeat(seen: string, listed: string): boolean {
  return isFinalState(seen) && further(seen, listed);
}
