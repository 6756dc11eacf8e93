import type { HistoryEntry } from "../payments/history.js";
import { rubOfEntry, wanted } from "./filter.js";
import { type Announcement, type FeedState, filterOf, type Subscription, type Unpaid } from "./model.js";

/**
 * Unpaid invoices a channel waits on at most. When more are open at once, those expiring last are
 * left out (a register with thousands of open invoices at once); the rest are still told.
 */
export const UNPAID_LIMIT = 2000;

/**
 * The unpaid list after a history entry was seen for the first time or changed: an unpaid
 * (`notpayed`) invoice whose expiry comes after the subscription is noted with its expiry, amount
 * and method; any other state takes it off (paid, failed, processing: not "expired unpaid").
 * The service keeps an expired invoice `notpayed`: its expiry passing is Kassa's to notice.
 */
export function noteUnpaid(unpaid: Unpaid[], entry: HistoryEntry, sinceMs: number): Unpaid[] {
  const rest = unpaid.filter((item) => item[0] !== entry.id);
  const expiresAt = entry.expiresAt?.epochSeconds;
  if (entry.state !== "notpayed" || expiresAt === undefined || expiresAt * 1000 <= sinceMs) return rest;
  return [...rest, [entry.id, expiresAt, rubOfEntry(entry), entry.method]];
}

/** The UNPAID_LIMIT that expire first. */
export function boundUnpaid(unpaid: Unpaid[]): Unpaid[] {
  if (unpaid.length <= UNPAID_LIMIT) return unpaid;
  return [...unpaid].sort((a, b) => a[1] - b[1]).slice(0, UNPAID_LIMIT);
}

/**
 * Pure: the unpaid invoices whose expiry has passed at `now` leave the list, and those the feed's
 * filter takes are owed as "expired unpaid", soonest first, once (the list and owed change in the
 * same write). Only after a good read of the history (a payment just before the expiry would
 * otherwise be missed), and only while the channel has room to owe them: the rest wait a turn.
 */
export function expiredUnpaid(
  state: FeedState,
  subscription: Subscription,
  now: number,
  room: number,
): { state: FeedState; announce: Announcement[] } {
  const due = state.unpaid
    .filter((item) => item[1] * 1000 <= now)
    .sort((a, b) => a[1] - b[1])
    .slice(0, Math.max(0, room));
  if (due.length === 0) return { state, announce: [] };
  const gone = new Set(due.map((item) => item[0]));
  const filter = filterOf(subscription);
  const announce: Announcement[] = due
    .filter(([, , rub, method]) => wanted(filter, { event: "expired", rub, method }))
    .map(([id, , rub, method]) => ({ id, state: "notpayed", event: "expired", rub, method }));
  return {
    state: {
      ...state,
      unpaid: state.unpaid.filter((item) => !gone.has(item[0])),
      owed: [...state.owed, ...announce],
    },
    announce,
  };
}
