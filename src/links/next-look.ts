import { keptUntil, type LinkRecord } from "./record.js";

// When the links' pass looks at a created link next (issue 51): at its reminder (if it has one, not
// sent yet; one being sent once its sender's mark goes stale), a minute after its page closes (to
// write how it ended), every pass while a pair paid twice may be coming, and at last when its record
// may be forgotten. Pure: the pass calls it.

/** The pass reads how a link ended this long after its page closed (the service's clock may be behind). */
export const AFTER_EXPIRY_MS = 60_000;
/** A payment still processing at expiry is waited for this long before the link counts as expired. */
export const PROCESSING_WAIT_MS = 24 * 3_600_000;

/**
 * How long a reminder being sent is left to its sender: longer than the Slack calls sending it can
 * take (who the creator is, the message, the channel's), each within SLACK_TIMEOUT_MS, and than a
 * link's claim in the pass. A mark older than this is a stopped sender's: the reminder is owed again.
 */
export const REMIND_GRACE_MS = 120_000;

/** The grace for Slack's deadline (SLACK_TIMEOUT_MS): five of it, and never under REMIND_GRACE_MS. */
export function remindGraceFor(slackTimeoutMs: number): number {
  return Math.max(REMIND_GRACE_MS, 5 * slackTimeoutMs);
}

/** The reminder is being sent (its mark younger than the grace): another look leaves it alone. */
export function reminderSending(record: LinkRecord, now: number, graceMs = REMIND_GRACE_MS): boolean {
  return record.reminding !== undefined && now - record.reminding < graceMs;
}

/**
 * When the link's reminder is due (undefined: none owed: off, sent, ended, re-issued, or not
 * created). One being sent is due again when its mark goes stale (its sender stopped).
 */
export function remindAt(record: LinkRecord, graceMs = REMIND_GRACE_MS): number | undefined {
  if (!record.remind || record.reminded || record.outcome || record.replacedBy) return undefined;
  if (record.status !== "created" || record.expiresAt === undefined) return undefined;
  const at = record.expiresAt - record.remind * 60_000;
  return record.reminding === undefined ? at : Math.max(at, record.reminding + graceMs);
}

/** A reminder is owed now: its time came (no fresh mark on it) and the page is still open. */
export function reminderDue(record: LinkRecord, now: number, graceMs = REMIND_GRACE_MS): boolean {
  const at = remindAt(record, graceMs);
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
 * outcome not done yet is tried again next pass; one being sent when its mark goes stale), every
 * pass while `watching` (a pair that may be paid twice), and the record's forgetting.
 */
export function nextLook(
  record: LinkRecord,
  now: number,
  checkMs: number,
  watching = false,
  graceMs = REMIND_GRACE_MS,
): number {
  const soon = now + checkMs;
  const times = [keptUntil(record)];
  const at = remindAt(record, graceMs);
  if (at !== undefined && record.expiresAt !== undefined && now < record.expiresAt)
    times.push(at > now ? at : soon);
  if (record.status === "created" && record.outcome === undefined && record.expiresAt !== undefined) {
    const closes = record.expiresAt + AFTER_EXPIRY_MS;
    times.push(closes > now ? closes : soon);
  }
  if (watching) times.push(soon);
  return Math.min(...times);
}
