import type { FeedState } from "./model.js";

/** At most one "feed paused" note per feed in this long, however often the service flaps. */
export const PAUSED_NOTE_EVERY_MS = 3600_000;
/** History reads that must go well in a row before a paused feed is said to be back. */
export const GOOD_READS_TO_RESUME = 3;

/** What to tell the subscriber after a read, if anything. */
export type PauseNote = "paused" | "resumed" | null;

/**
 * The history could not be read. The first failure pauses the feed (what is already owed is still
 * posted); the subscriber hears of it unless a paused note went out within the hour.
 */
export function afterUnreadableHistory(state: FeedState, now: number): { state: FeedState; note: PauseNote } {
  if (state.pause) return { state: { ...state, goodReads: 0 }, note: null };
  const tell = state.pausedNoteAt == null || now - state.pausedNoteAt >= PAUSED_NOTE_EVERY_MS;
  return {
    state: {
      ...state,
      goodReads: 0,
      pause: { reason: "unreadable_history", at: now, told: tell },
      ...(tell ? { pausedNoteAt: now } : {}),
    },
    note: tell ? "paused" : null,
  };
}

/**
 * The history was read. A feed paused for an unreadable history is back after a few good reads in a
 * row, said once, and only if its pause was said.
 */
export function afterGoodRead(state: FeedState): { state: FeedState; note: PauseNote } {
  if (state.pause?.reason !== "unreadable_history") return { state, note: null };
  const goodReads = state.goodReads + 1;
  if (goodReads < GOOD_READS_TO_RESUME) return { state: { ...state, goodReads }, note: null };
  return { state: { ...state, goodReads: 0, pause: null }, note: state.pause.told ? "resumed" : null };
}
