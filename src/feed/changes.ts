import type { HistoryEntry } from "../payments/history.js";
import { boundUnpaid, noteUnpaid } from "./expiry.js";
import { eventOf, rubOfEntry, wanted } from "./filter.js";
import { type Announcement, type FeedState, filterOf, type Seen, type Subscription } from "./model.js";
import { staleRepeat } from "./repeats.js";

/**
 * Invoices remembered per channel: more than a long backlog's pages, bounded in the store. When
 * full, those created longest ago are forgotten first: the history lists the newest first, so they
 * are the ones a later read never reaches again.
 */
export const SEEN_LIMIT = 10_000;
/** Announcements a channel may owe at once: history is read on only while there is room for a page. */
export const OWED_LIMIT = 2000;

export type FeedChanges = {
  state: FeedState;
  /** Newly owed, oldest first (a channel reads them in the order they happened). */
  announce: Announcement[];
  /** Some entry was not seen before, or changed: the next page may hold more. */
  anythingNew: boolean;
};

/**
 * What one page of history means for one channel. Pure: the state in, the next state out.
 * - An invoice not seen before but created before the subscription is noted, not announced: Kassa
 *   cannot tell whether it was paid before or after (v2 history has no payment time). The first read
 *   after subscribing so notes what exists; one created since is announced even on that read.
 * - A change is announced once: it is added to `owed` and its state to `seen` in the same write.
 *   An invoice seen in a final state is not taken back by a stale listing of it (repeats.ts).
 * - What is announced is what the feed's filter takes (filter.ts), but every change is noted
 *   in `seen` whatever the filter: a filter changed later never makes an old change news.
 * - An unpaid invoice is noted with its expiry (expiry.ts tells it once it passes).
 */
export function feedChanges(
  before: FeedState,
  subscription: Subscription,
  entries: readonly HistoryEntry[],
): FeedChanges {
  const seen = new Map(before.seen.map((entry) => [entry[0], entry]));
  const filter = filterOf(subscription);
  let unpaid = before.unpaid;
  const announce: Announcement[] = [];
  let anythingNew = false;
  // Oldest first, so owed follows the order of events.
  for (const entry of [...entries].reverse()) {
    const previous = seen.get(entry.id)?.[1];
    if (previous === entry.state || (previous !== undefined && staleRepeat(previous, entry.state))) continue;
    anythingNew = true;
    seen.set(entry.id, [entry.id, entry.state, entry.createdAt.epochSeconds]);
    unpaid = noteUnpaid(unpaid, entry, subscription.since);
    const isNew = previous === undefined;
    // Service times have whole seconds: an invoice made in the second of subscribing counts as after it.
    if (isNew && entry.createdAt.epochSeconds < Math.floor(subscription.since / 1000)) continue;
    const event = eventOf(entry.state, isNew);
    if (!event) continue;
    const facts = { event, rub: rubOfEntry(entry), method: entry.method };
    if (wanted(filter, facts))
      announce.push({ id: entry.id, state: entry.state, ...(isNew ? { isNew } : {}), ...facts });
  }
  return {
    state: {
      ...before,
      seen: newestCreated([...seen.values()]),
      owed: [...before.owed, ...announce],
      unpaid: boundUnpaid(unpaid),
    },
    announce,
    anythingNew,
  };
}

/** The SEEN_LIMIT entries created last (entries kept from before creation times were noted count as oldest). */
function newestCreated(entries: Seen[]): Seen[] {
  if (entries.length <= SEEN_LIMIT) return entries;
  return entries.sort((a, b) => (a[2] ?? 0) - (b[2] ?? 0)).slice(-SEEN_LIMIT);
}
