import { mayStillChange } from "../payments/history.js";
import { feedChanges, OWED_LIMIT } from "./changes.js";
import type { Turn } from "./deps.js";
import type { FeedState, Subscription } from "./model.js";
import { oncePerInvoice } from "./repeats.js";

export type HistoryRead = { ok: true; more: boolean } | { ok: false; error: unknown };

/**
 * Reads the workspace's history once for all its channels, newest page first, on while a page holds
 * something new, and at least down to the oldest invoice that may still change (`openSince`: an
 * unpaid invoice before its expiry, one `processing`), so that one paid deep in the history, with
 * nothing newer above it, is seen too. One turn reads at most `maxPages`: a longer run of news (a
 * backlog) or of open invoices is read on from `scanFrom` by the next turns, one page back from
 * where it stopped (new invoices push the pages down). No page is taken on while a channel has no
 * room left to owe its news. An invoice listed more than once counts once a turn, as its listing
 * furthest along (repeats.ts). `states` is updated in place.
 */
export async function readHistory(
  turn: Turn,
  subscriptions: readonly Subscription[],
  states: Map<string, FeedState>,
): Promise<HistoryRead> {
  const { ctx, team } = turn;
  const { pageSize, maxPages } = ctx.options;
  const scanFrom = Math.min(
    ...subscriptions.map((s) => states.get(s.channel)?.scanFrom ?? Number.POSITIVE_INFINITY),
  );
  /** Where an earlier turn stopped reading a backlog, until this turn gets there. */
  let resumeAt: number | null = Number.isFinite(scanFrom) ? scanFrom : null;
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  /** The oldest open invoice as earlier turns left it: read down to it. */
  const openBefore = oldestOf(subscriptions.map((s) => states.get(s.channel)?.openSince ?? null));
  /** The oldest open invoice among the pages this turn reads. */
  let openNow: number | null = null;
  /** This turn read down to `openBefore` (or to the end of the history). */
  let reachedOpen = openBefore === null;
  /** Once gone back to it: read at least this far, whatever the overlap page holds. */
  let reachAt = 0;
  let page = 1;
  let nextScan: number | null = null;
  // Pages read again (the top with nothing new, the overlap page) do not count against the share.
  let budget = maxPages;
  /** Reading on only towards open invoices: cut short, the rest waits for the next interval. */
  let sweeping = false;
  /** Invoices listed more than once: the state that counted for each, across this turn's pages. */
  const counted = new Map<string, string>();
  for (;;) {
    const full = subscriptions.some((s) => (states.get(s.channel)?.owed.length ?? 0) + pageSize > OWED_LIMIT);
    // Past the turn's share, no page beyond the first: what is owed gets its turn to be posted.
    if (budget <= 0 || turn.over() || full || (page > 1 && turn.late())) {
      nextScan = Math.max(page, resumeAt ?? 0);
      break;
    }
    let history: Awaited<ReturnType<typeof ctx.deps.reader.history>>;
    try {
      // Looking again at open invoices is no one's question now: it yields to people's calls.
      history = await ctx.deps.reader.history(team, page, pageSize, sweeping ? "background" : "command");
    } catch (error) {
      return { ok: false, error };
    }
    if (history.unreadable > 0)
      ctx.deps.logger.warn({ team, page, unreadable: history.unreadable }, "feed history entries left out");
    let anythingNew = false;
    const entries = oncePerInvoice(history.entries, counted);
    for (const entry of entries) {
      const createdAt = entry.createdAt.epochSeconds;
      const expiresAt = entry.expiresAt?.epochSeconds ?? null;
      if (mayStillChange({ state: entry.state, createdAt, expiresAt }, nowSeconds))
        openNow = oldestOf([openNow, createdAt]);
      if (openBefore !== null && createdAt <= openBefore) reachedOpen = true;
    }
    for (const subscription of subscriptions) {
      const before = states.get(subscription.channel) as FeedState;
      const changes = feedChanges(before, subscription, entries);
      if (changes.anythingNew) states.set(subscription.channel, changes.state);
      anythingNew ||= changes.anythingNew;
    }
    const readAgain = !anythingNew && (page < reachAt || resumeAt !== null);
    if (!readAgain) budget -= 1;
    if (history.entries.length < pageSize || history.hasNextPage === false) {
      reachedOpen = true;
      break;
    }
    sweeping = false;
    if (anythingNew || page < reachAt) {
      page += 1;
      if (resumeAt !== null && page >= resumeAt) resumeAt = null;
    } else if (resumeAt !== null) {
      // Nothing new at the top: go on where the backlog's reading stopped, one page back (new
      // invoices push the pages down).
      page = Math.max(page + 1, resumeAt - 1);
      reachAt = resumeAt;
      resumeAt = null;
    } else if (!reachedOpen) {
      // Nothing new here, but open invoices lie deeper: on towards them, within this turn's share.
      page += 1;
      sweeping = true;
    } else {
      break;
    }
  }
  if (nextScan !== null && nextScan <= 1) nextScan = null;
  // Read down to it: what this turn saw is the whole open window; else the window reaches deeper still.
  const openSince = reachedOpen ? openNow : oldestOf([openBefore, openNow]);
  for (const subscription of subscriptions) {
    const state = states.get(subscription.channel) as FeedState;
    if ((state.scanFrom ?? null) !== nextScan || (state.openSince ?? null) !== openSince) {
      states.set(subscription.channel, { ...state, scanFrom: nextScan, openSince });
    }
  }
  // A backlog of news is read on at once; the open window, a share per interval (it is re-read).
  return { ok: true, more: nextScan !== null && !sweeping };
}

function oldestOf(times: ReadonlyArray<number | null>): number | null {
  let oldest: number | null = null;
  for (const time of times) if (time !== null && (oldest === null || time < oldest)) oldest = time;
  return oldest;
}
