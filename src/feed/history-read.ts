import { feedChanges, OWED_LIMIT } from "./changes.js";
import type { Turn } from "./deps.js";
import type { FeedState, Subscription } from "./model.js";

export type HistoryRead = { ok: true; more: boolean } | { ok: false; error: unknown };

/**
 * Reads the workspace's history once for all its channels, newest page first, on while a page holds
 * something new. One turn reads at most `maxPages`: a longer run of news (a backlog) is read on from
 * `scanFrom` by the next turns, one page back from where it stopped (new invoices push the pages
 * down). No page is taken on while a channel has no room left to owe its news. `states` is updated
 * in place.
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
  /** Once gone back to it: read at least this far, whatever the overlap page holds. */
  let reachAt = 0;
  let page = 1;
  let nextScan: number | null = null;
  // Pages read again (the top with nothing new, the overlap page) do not count against the share.
  let budget = maxPages;
  for (;;) {
    const full = subscriptions.some((s) => (states.get(s.channel)?.owed.length ?? 0) + pageSize > OWED_LIMIT);
    // Past the turn's share, no page beyond the first: what is owed gets its turn to be posted.
    if (budget <= 0 || turn.over() || full || (page > 1 && turn.late())) {
      nextScan = Math.max(page, resumeAt ?? 0);
      break;
    }
    let history: Awaited<ReturnType<typeof ctx.deps.reader.history>>;
    try {
      history = await ctx.deps.reader.history(team, page, pageSize);
    } catch (error) {
      return { ok: false, error };
    }
    if (history.unreadable > 0)
      ctx.deps.logger.warn({ team, page, unreadable: history.unreadable }, "feed history entries left out");
    let anythingNew = false;
    for (const subscription of subscriptions) {
      const before = states.get(subscription.channel) as FeedState;
      const changes = feedChanges(before, subscription, history.entries);
      if (changes.anythingNew) states.set(subscription.channel, changes.state);
      anythingNew ||= changes.anythingNew;
    }
    const readAgain = !anythingNew && (page < reachAt || resumeAt !== null);
    if (!readAgain) budget -= 1;
    if (history.entries.length < pageSize || history.hasNextPage === false) break;
    if (anythingNew || page < reachAt) {
      page += 1;
      if (resumeAt !== null && page >= resumeAt) resumeAt = null;
    } else if (resumeAt !== null) {
      // Nothing new at the top: go on where the backlog's reading stopped, one page back (new
      // invoices push the pages down).
      page = Math.max(page + 1, resumeAt - 1);
      reachAt = resumeAt;
      resumeAt = null;
    } else {
      break;
    }
  }
  if (nextScan !== null && nextScan <= 1) nextScan = null;
  for (const subscription of subscriptions) {
    const state = states.get(subscription.channel) as FeedState;
    if ((state.scanFrom ?? null) !== nextScan) {
      states.set(subscription.channel, { ...state, scanFrom: nextScan });
    }
  }
  return { ok: true, more: nextScan !== null };
}
