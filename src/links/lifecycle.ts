import { reminderMessage } from "../blocks/link-reminder.js";
import type { Release } from "../store/claims/board.js";
import {
  giveBackReminder,
  reminderSent,
  stopReminders,
  takeReminder,
  withoutMark,
  writeOutcome,
} from "./changes.js";
import { nextLook, outcomeDue, REMIND_GRACE_MS, reminderDue } from "./next-look.js";
import { ownerOf, tellOwner } from "./owner.js";
import { watchPair } from "./paid-twice.js";
import { scheduleQuiet } from "./quiet.js";
import { type LinkRecord, readLink } from "./record.js";
import { type LifeDeps, settleOutcome } from "./standing.js";

export type { LifeDeps } from "./standing.js";

// A created link's life in the links' pass (issue 51): its reminder before it expires (at least
// once, never sent by two replicas at a time; none for a paid one), how it ended once its page
// closed, and, for a re-issue made before the first expired, the watch for both being paid. Then
// its next look.

/** How long after a failed read of how a link ended it is read again. */
const OUTCOME_RETRY_MS = 15 * 60_000;

/** One look at a created link: what is owed now done, and when to look next. */
export async function lookAtCreated(
  deps: LifeDeps,
  key: string,
  registerKey: string,
  record: LinkRecord,
  now: number,
): Promise<Release> {
  let current = record;
  if (reminderDue(current, now, graceOf(deps))) current = await remind(deps, key, registerKey, current, now);
  if (outcomeDue(current, now)) {
    const settled = await settleOutcome(deps, key, registerKey, current, now).catch((error: unknown) => {
      // Not urgent (a disconnected register, the service down): looked at again a while later.
      deps.logger.warn(
        { team: current.team, link: key, err: error },
        "how a payment link ended could not be read",
      );
      return undefined;
    });
    if (!settled) return { dueAt: now + Math.max(deps.checkMs, OUTCOME_RETRY_MS) };
    current = settled.record;
  }
  let watching = false;
  if (current.replaces)
    ({ watching, record: current } = await watchPair(deps, key, registerKey, current, now));
  return { dueAt: nextLook(current, now, deps.checkMs, watching, graceOf(deps)) };
}

/**
 * The reminder: none for a paid link (its outcome written instead), nor for one a payment is being
 * made for (looked at again next pass), nor for a stopped schedule's; else marked as being sent by
 * compare-and-set, sent, and marked sent once Slack took it: never two at a time, never lost. Slack
 * refusing it clears the mark (the next pass tries again); a sender that stopped before Slack's answer
 * was written leaves its mark, and once that is stale the next look sends it again (may show twice).
 */
async function remind(
  deps: LifeDeps,
  key: string,
  registerKey: string,
  record: LinkRecord,
  now: number,
): Promise<LinkRecord> {
  const board = await deps.book.board();
  if (!record.invoiceId || record.expiresAt === undefined) return record;
  if (record.scheduleId && (await scheduleQuiet(board, registerKey, record.scheduleId)))
    return (await stopReminders(board, key)) ?? record;
  const invoice = await deps.payments.invoice(registerKey, record.invoiceId);
  if (invoice.state === "payed") return (await writeOutcome(board, key, "paid")) ?? record;
  if (invoice.state === "processing") return record;
  // Failed, a wrong amount, unavailable: a reminder to send the link again would mislead.
  if (invoice.state !== "notpayed") return (await stopReminders(board, key)) ?? record;
  const taken = await takeReminder(board, key, now, graceOf(deps));
  // Another replica is sending it, or it was sent or stopped meanwhile: the record as it is now.
  if (!taken.taken) return (await readLink(board, key)) ?? record;
  const facts = { invoiceId: record.invoiceId, expiresAt: record.expiresAt };
  const line = { team: record.team, link: key, invoice: record.invoiceId };
  if (taken.stale !== undefined)
    deps.logger.warn(
      { ...line, since: new Date(taken.stale).toISOString() },
      "a payment link's reminder was being sent when its sender stopped: it is sent again and may show twice",
    );
  try {
    const owner = await ownerOf(deps, record);
    const told = owner
      ? await tellOwner(owner, record, (here) =>
          reminderMessage({ ...record, ...facts, zone: owner.zone, lang: owner.lang, here }),
        )
      : "nobody";
    deps.logger.info({ ...line, outcome: "link_reminded", told }, "a payment link's reminder was sent");
  } catch (error) {
    await giveBackReminder(board, key, taken.since);
    deps.logger.warn(
      { ...line, err: error },
      "a payment link's reminder could not be sent; the next pass tries again",
    );
    return withoutMark(record);
  }
  await reminderSent(board, key);
  return { ...withoutMark(record), reminded: true };
}

/** How long a reminder being sent is left to its sender. */
function graceOf(deps: Pick<LifeDeps, "remindGraceMs">): number {
  return deps.remindGraceMs ?? REMIND_GRACE_MS;
}
