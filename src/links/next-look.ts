import { keptUntil, type LinkRecord } from "./record.js";

// When the links' pass looks at a created link next (issue 51): at its reminder (if it has one, not
// sent yet), a minute after its page closes (to write how it ended), every pass while a pair paid
// twice may be coming, and at last when its record may be forgotten. Pure: the pass calls it.

/** The pass reads how a link ended this long after its page closed (the service's clock may be behind). */
export const AFTER_EXPIRY_MS = 60_000;
/** A payment still processing at expiry is waited for this long before the link counts as expired. */
export const PROCESSING_WAIT_MS = 24 * 3_600_000;

/** When the link's reminder is due (undefined: none owed: off, sent, ended, re-issued, or not created). */
export function remindAt(record: LinkRecord): number | undefined {
  if (!record.remind || record.reminded || record.outcome || record.replacedBy) return undefined;
  if (record.status !== "created" || record.expiresAt === undefined) return undefined;
  return record.expiresAt - record.remind * 60_000;
}

/** A reminder is owed now: its time came and the page is still open. */
export function reminderDue(record: LinkRecord, now: number): boolean {
  const at = remindAt(record);
  return at !== undefined && record.expiresAt !== undefined && now >= at && now < record.expiresAt;
}

/** How the link ended is to be read now: created, its page closed a minute ago, no outcome yet. */
export function outcomeDue(record: LinkRecord, now: number): boolean {
  return (
    record.status === "created" &&
    record.outcome === undefined &&
    record.expiresAt !== undefined &&
    now >= record.expiresAt + AFTER_EXPIRY_MS
  );
}

/**
 * The link's next look after one at `now`: the earliest of what is still owed (a reminder or an
 * outcome not done yet is tried again next pass), every pass while `watching` (a pair that may be
 * paid twice), and the record's forgetting.
 */
export function nextLook(record: LinkRecord, now: number, checkMs: number, watching = false): number {
  const soon = now + checkMs;
  const times = [keptUntil(record)];
  const at = remindAt(record);
  if (at !== undefined && record.expiresAt !== undefined && now < record.expiresAt)
    times.push(at > now ? at : soon);
  if (record.status === "created" && record.outcome === undefined && record.expiresAt !== undefined) {
    const closes = record.expiresAt + AFTER_EXPIRY_MS;
    times.push(closes > now ? closes : soon);
  }
  if (watching) times.push(soon);
  return Math.min(...times);
}
