import type { HistoryPage } from "../payments/history.js";
import type { DayChunks } from "./chunks.js";
import { dayKey, keep, type Manifest, oldestOpen } from "./model.js";

/** Invoices asked for per history page (the service's most). */
export const PAGE_SIZE = 100;

export type ReadProgress = { pages: number; invoices: number };

type Pass = "reached" | "end" | "capped";

/**
 * The pages a kept record needs, within `maxPages`: all of them back to `since` for an empty record;
 * otherwise the newest pages down to the older of its newest invoice and its oldest one that may
 * still change (unless refreshed a moment ago), then, when `since` is older than what is kept,
 * onwards from where the record ends (the page of its count: invoices made meanwhile only push
 * pages down, so some come twice and are kept once). The manifest is saved after every page.
 */
export async function readPages(
  manifest: Manifest,
  chunks: DayChunks,
  save: () => Promise<void>,
  readPage: (page: number, items: number) => Promise<HistoryPage>,
  options: {
    since: number;
    fresh: boolean;
    maxPages: number;
    signal?: AbortSignal | undefined;
    onProgress?: ((progress: ReadProgress) => void) | undefined;
  },
): Promise<ReadProgress & { unreadable: number; partial: boolean; gap: boolean }> {
  const progress: ReadProgress = { pages: 0, invoices: 0 };
  let unreadable = 0;
  /** Reads pages from `first` until an invoice created before `stopBefore`, the end, or the cap. */
  const pass = async (first: number, stopBefore: number, extendsCoverage: boolean): Promise<Pass> => {
    for (let page = first; ; page += 1) {
      if (progress.pages >= options.maxPages) return "capped";
      options.signal?.throwIfAborted();
      const history = await readPage(page, PAGE_SIZE);
      progress.pages += 1;
      unreadable += history.unreadable;
      let oldest: number | null = null;
      let older = false;
      for (const entry of history.entries) {
        const at = entry.createdAt.epochSeconds;
        if (await chunks.upsert(keep(entry))) manifest.count += 1;
        progress.invoices += 1;
        if (oldest === null || at < oldest) oldest = at;
        if (manifest.newest === null || at > manifest.newest) manifest.newest = at;
        if (at < stopBefore) older = true;
      }
      if (oldest !== null) {
        await chunks.flush(dayKey(oldest));
        if (extendsCoverage && (manifest.coveredFrom === null || oldest < manifest.coveredFrom))
          manifest.coveredFrom = oldest;
      }
      await save();
      options.onProgress?.({ ...progress });
      const last = history.entries.length + history.unreadable < PAGE_SIZE || history.hasNextPage === false;
      if (older) return "reached";
      if (last) return "end";
    }
  };
  const finish = async (ended: Pass, gap = false) => {
    await chunks.flush();
    if (ended === "end") manifest.complete = true;
    await save();
    return { ...progress, unreadable, partial: ended === "capped", gap };
  };

  if (manifest.coveredFrom === null || manifest.newest === null) {
    const ended = await pass(1, options.since, true);
    manifest.refreshedAt = Date.now();
    // An empty history: nothing is older than now.
    if (ended === "end" && manifest.coveredFrom === null)
      manifest.coveredFrom = Math.floor(Date.now() / 1000);
    return finish(ended);
  }
  if (!options.fresh) {
    const stopAt = Math.min(oldestOpen(manifest) ?? manifest.newest, manifest.newest);
    const ended = await pass(1, stopAt, false);
    if (ended === "capped") return finish(ended, true);
    manifest.refreshedAt = Date.now();
  }
  if (manifest.complete || manifest.coveredFrom <= options.since) return finish("reached");
  return finish(await pass(Math.floor(manifest.count / PAGE_SIZE) + 1, options.since, true));
}
