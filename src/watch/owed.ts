import type { Owed, WatchCard } from "./model.js";

// What a card is owed: pure, so the queue can write it in the same compare-and-set as the change.

/** What a change (or a redraw) owes a card, added to what it may still owe from before. */
export function owe(card: WatchCard, notice: { from: string; to: string } | undefined): Owed {
  const before = card.owed;
  // A DM card cannot be edited: it is owed only notes. A newer note replaces an older unsent one
  // (the asker learns the latest change; "was" still names where it came from).
  const note = notice ? { from: before?.note?.from ?? notice.from, to: notice.to } : before?.note;
  return {
    redraw: card.kind === "channel",
    ...(note ? { note } : {}),
    ...(before?.attempts ? { attempts: before.attempts } : {}),
  };
}

export function nothingOwed(owed: Owed | undefined): boolean {
  return !owed || (!owed.redraw && !owed.note);
}
