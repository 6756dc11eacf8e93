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
  const reading = new HistoryReading(turn, subscriptions, states);
  while (!reading.outOfShare()) {
    let history: HistoryPage;
    try {
      // Looking again at open invoices is no one's question now: it yields to people's calls.
      const lane = reading.sweeping ? "background" : "command";
      history = await ctx.deps.reader.history(team, reading.page, ctx.options.pageSize, lane);
    } catch (error) {
      return { ok: false, error };
    }
    if (history.unreadable > 0)
      ctx.deps.logger.warn(
        { team, page: reading.page, unreadable: history.unreadable },
        "feed history entries left out",
      );
    const anythingNew = reading.takeIn(history.entries);
    if (!reading.movedOn(anythingNew, history)) break;
  }
  return reading.finish();
}

type HistoryPage = Awaited<ReturnType<Turn["ctx"]["deps"]["reader"]["history"]>>;

/** Where one turn's reading of the history is: the page, the backlog's mark, the open window. */
class HistoryReading {
  page = 1;
  /** Where an earlier turn stopped reading a backlog, until this turn gets there. */
  resumeAt: number | null;
  /** Once gone back to it: read at least this far, whatever the overlap page holds. */
  reachAt = 0;
  /** Reading on only towards open invoices: cut short, the rest waits for the next interval. */
  sweeping = false;
  nextScan: number | null = null;
  /** The oldest open invoice among the pages this turn reads. */
  openNow: number | null = null;
  /** The oldest open invoice as earlier turns left it: read down to it. */
  readonly openBefore: number | null;
  /** This turn read down to `openBefore` (or to the end of the history). */
  reachedOpen: boolean;
  // Pages read again (the top with nothing new, the overlap page) do not count against the share.
  budget: number;
  /** Invoices listed more than once: the state that counted for each, across this turn's pages. */
  readonly counted = new Map<string, string>();
  readonly nowSeconds: number;

  constructor(
    private readonly turn: Turn,
    private readonly subscriptions: readonly Subscription[],
    private readonly states: Map<string, FeedState>,
  ) {
    const scanFrom = Math.min(
      ...subscriptions.map((s) => states.get(s.channel)?.scanFrom ?? Number.POSITIVE_INFINITY),
    );
    this.resumeAt = Number.isFinite(scanFrom) ? scanFrom : null;
    this.openBefore = oldestOf(subscriptions.map((s) => states.get(s.channel)?.openSince ?? null));
    this.reachedOpen = this.openBefore === null;
    this.budget = turn.ctx.options.maxPages;
    this.nowSeconds = Math.floor(turn.ctx.now().getTime() / 1000);
  }

  /** Past the turn's share, no page beyond the first: what is owed gets its turn to be posted. */
  outOfShare(): boolean {
    const { pageSize } = this.turn.ctx.options;
    const full = this.subscriptions.some(
      (s) => (this.states.get(s.channel)?.owed.length ?? 0) + pageSize > OWED_LIMIT,
    );
    if (!(this.budget <= 0 || this.turn.over() || full || (this.page > 1 && this.turn.late()))) return false;
    this.nextScan = Math.max(this.page, this.resumeAt ?? 0);
    return true;
  }

  /** A page's invoices into the open window and each channel's state; whether any was news. */
  takeIn(listed: HistoryPage["entries"]): boolean {
    const entries = oncePerInvoice(listed, this.counted);
    for (const entry of entries) {
      const createdAt = entry.createdAt.epochSeconds;
      const expiresAt = entry.expiresAt?.epochSeconds ?? null;
      if (mayStillChange({ state: entry.state, createdAt, expiresAt }, this.nowSeconds))
        this.openNow = oldestOf([this.openNow, createdAt]);
      if (this.openBefore !== null && createdAt <= this.openBefore) this.reachedOpen = true;
    }
    let anythingNew = false;
    for (const subscription of this.subscriptions) {
      const before = this.states.get(subscription.channel) as FeedState;
      const changes = feedChanges(before, subscription, entries);
      if (changes.anythingNew) this.states.set(subscription.channel, changes.state);
      anythingNew ||= changes.anythingNew;
    }
    return anythingNew;
  }

  /** Chooses the next page to read; false when the reading ends here. */
  movedOn(anythingNew: boolean, history: HistoryPage): boolean {
    const readAgain = !anythingNew && (this.page < this.reachAt || this.resumeAt !== null);
    if (!readAgain) this.budget -= 1;
    if (history.entries.length < this.turn.ctx.options.pageSize || history.hasNextPage === false) {
      this.reachedOpen = true;
      return false;
    }
    this.sweeping = false;
    if (anythingNew || this.page < this.reachAt) {
      this.page += 1;
      if (this.resumeAt !== null && this.page >= this.resumeAt) this.resumeAt = null;
    } else if (this.resumeAt !== null) {
      // Nothing new at the top: go on where the backlog's reading stopped, one page back (new
      // invoices push the pages down).
      this.page = Math.max(this.page + 1, this.resumeAt - 1);
      this.reachAt = this.resumeAt;
      this.resumeAt = null;
    } else if (!this.reachedOpen) {
      // Nothing new here, but open invoices lie deeper: on towards them, within this turn's share.
      this.page += 1;
      this.sweeping = true;
    } else {
      return false;
    }
    return true;
  }

  /** Each channel's mark of where to read on, and of its open window; whether to read on at once. */
  finish(): HistoryRead {
    const nextScan = this.nextScan !== null && this.nextScan <= 1 ? null : this.nextScan;
    // Read down to it: what this turn saw is the whole open window; else the window reaches deeper still.
    const openSince = this.reachedOpen ? this.openNow : oldestOf([this.openBefore, this.openNow]);
    for (const subscription of this.subscriptions) {
      const state = this.states.get(subscription.channel) as FeedState;
      if ((state.scanFrom ?? null) !== nextScan || (state.openSince ?? null) !== openSince) {
        this.states.set(subscription.channel, { ...state, scanFrom: nextScan, openSince });
      }
    }
    // A backlog of news is read on at once; the open window, a share per interval (it is re-read).
    return { ok: true, more: nextScan !== null && !this.sweeping };
  }
}

function oldestOf(times: ReadonlyArray<number | null>): number | null {
  let oldest: number | null = null;
  for (const time of times) if (time !== null && (oldest === null || time < oldest)) oldest = time;
  return oldest;
}
