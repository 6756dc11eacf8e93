import type { ClaimBoard } from "../store/claims/board.js";
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

/**
 * The reminder taken before it is sent: true for one replica only, and only while it is still owed
 * (not sent, not stopped, the link not ended or re-issued).
 */
export function takeReminder(board: ClaimBoard, key: string): Promise<boolean> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was?.remind || was.reminded || was.outcome || was.replacedBy) return { result: false };
    return { next: { ...was, reminded: true }, result: true };
  });
}

/** Slack did not take the reminder: owed again, so the next pass sends it. */
export function giveBackReminder(board: ClaimBoard, key: string): Promise<void> {
  return changeLink(board, key, (stored) => {
    const was = stored.value;
    if (!was?.reminded) return { result: undefined };
    const { reminded: _sent, ...rest } = was;
    return { next: rest, result: undefined };
  });
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
