import type { HistoryEntry, HistoryPage } from "../payments/history.js";

/** Invoices asked for per history page (the service's most). */
export const HISTORY_PAGE_SIZE = 100;

export type ScanProgress = { pages: number; invoices: number };

export type ScanResult = ScanProgress & {
  unreadable: number;
  /** Stopped at `maxPages` with older invoices still to come. */
  partial: boolean;
};

/**
 * Reads the history newest first until an invoice created before `since` (epoch seconds), or the
 * end, handing each entry created at or after `since` to `onEntry` once: an invoice made while the
 * pages are read pushes the older ones down a place, so one may come again on the next page.
 * Stops early when `signal` aborts (the caller says so). Keeps the ids of the current span only.
 */
export async function scanHistory(
  readPage: (page: number, items: number) => Promise<HistoryPage>,
  since: number,
  onEntry: (entry: HistoryEntry) => void,
  options: { maxPages: number; onPage?: (progress: ScanProgress) => void; signal?: AbortSignal },
): Promise<ScanResult> {
  const seen = new Set<string>();
  const result: ScanResult = { pages: 0, invoices: 0, unreadable: 0, partial: false };
  for (let page = 1; page <= options.maxPages; page += 1) {
    options.signal?.throwIfAborted();
    const history = await readPage(page, HISTORY_PAGE_SIZE);
    result.pages += 1;
    result.unreadable += history.unreadable;
    let older = false;
    for (const entry of history.entries) {
      if (entry.createdAt.epochSeconds < since) {
        older = true;
        continue;
      }
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      result.invoices += 1;
      onEntry(entry);
    }
    options.onPage?.({ pages: result.pages, invoices: result.invoices });
    const last =
      history.entries.length + history.unreadable < HISTORY_PAGE_SIZE || history.hasNextPage === false;
    if (older || last) return result;
  }
  result.partial = true;
  return result;
}
