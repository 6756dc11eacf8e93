import type { ClaimBoard } from "../store/claims/board.js";
import type { Change } from "../store/claims/family.js";
import { reminderSending } from "./next-look.js";
import { changeLink, type LinkRecord } from "./record.js";

// The changes a link's life after its create makes to its record (issue 51), each one
// compare-and-set of the family (record.ts): of two replicas, or two clicks, one wins.

export type LinkOutcome = NonNullable<LinkRecord["outcome"]>;

/** How the link ended, written once (the record as it is after: another's outcome stays). */
export function writeOutcome(
  board: ClaimBoard,
  key: string,
  outcome: LinkOutcome,
): Promise<LinkRecord | undefined> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was || was.outcome) return { result: was };
    const next: LinkRecord = { ...was, outcome };
    return { next, result: next };
  });
}

/** What taking the reminder came to: taken at `since` (`stale`: the stopped sender's mark it replaced), or not. */
export type ReminderTake = { taken: true; since: number; stale?: number } | { taken: false };

/**
 * The reminder taken before it is sent, marked as being sent since `now`: for one replica only, and
 * only while it is still owed (not sent, not stopped, the link not ended or re-issued) and nobody
 * is sending it (no mark, or one older than `graceMs`: its sender stopped before Slack's answer).
 */
export function takeReminder(
  board: ClaimBoard,
  key: string,
  now: number,
  graceMs: number,
): Promise<ReminderTake> {
  return changeLink(board, key, (stored): Change<LinkRecord, ReminderTake> => {
    const was = stored.value;
    if (!was?.remind || was.reminded || was.outcome || was.replacedBy) return { result: { taken: false } };
    if (reminderSending(was, now, graceMs)) return { result: { taken: false } };
    const stale = was.reminding === undefined ? {} : { stale: was.reminding };
    return { next: { ...was, reminding: now }, result: { taken: true, since: now, ...stale } };
  });
}

/** Slack took the reminder: sent, never again (whoever's mark it carried). */
export function reminderSent(board: ClaimBoard, key: string): Promise<void> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was || (was.reminded && was.reminding === undefined)) return { result: undefined };
    return { next: { ...withoutMark(was), reminded: true }, result: undefined };
  });
}

/** Slack did not take the reminder: this sender's mark cleared (owed again, for the next pass). */
export function giveBackReminder(board: ClaimBoard, key: string, since: number): Promise<void> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was || was.reminding !== since) return { result: undefined };
    return { next: withoutMark(was), result: undefined };
  });
}

/** The record without a reminder's being-sent mark. */
export function withoutMark(record: LinkRecord): LinkRecord {
  const { reminding: _since, ...rest } = record;
  return rest;
}

/** Stop reminding: the link reminds no more (its record after; undefined: Kassa no longer keeps it). */
export function stopReminders(board: ClaimBoard, key: string): Promise<LinkRecord | undefined> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was || was.remind === 0) return { result: was };
    const next: LinkRecord = { ...was, remind: 0 };
    return { next, result: next };
  });
}

/** The paid-twice alert taken before it is given: true once, whatever the replicas. */
export function takePaidTwice(board: ClaimBoard, key: string): Promise<boolean> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was || was.paidTwiceTold) return { result: false };
    return { next: { ...was, paidTwiceTold: true }, result: true };
  });
}

/** Nobody could be told: the alert owed again, for the next pass. */
export function giveBackPaidTwice(board: ClaimBoard, key: string): Promise<void> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was?.paidTwiceTold) return { result: undefined };
    const { paidTwiceTold: _told, ...rest } = was;
    return { next: rest, result: undefined };
  });
}
