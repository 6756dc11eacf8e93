import type { LinkBook } from "./book.js";
import { stopReminders } from "./changes.js";
import { quietSchedule } from "./quiet.js";
import { type LinkRecord, linkKey } from "./record.js";

// Stop reminding, pressed on a reminder (issue 51): the link reminds no more, and when it was made
// by a repeating schedule, neither do the schedule's later links. Pressed twice, or on two replicas,
// it changes nothing more.

/** What Stop reminding came to: the record after, and whether a schedule's reminders stopped too. */
export type Stopped = { record: LinkRecord; schedule: boolean } | undefined;

export async function stopReminding(
  book: LinkBook,
  registerKey: string,
  ref: string,
  stopped: { by: string; at: number },
): Promise<Stopped> {
  const board = await book.board();
  const record = await stopReminders(board, linkKey(registerKey, ref));
  if (!record) return undefined;
  if (record.scheduleId) await quietSchedule(board, registerKey, record.scheduleId, stopped);
  return { record, schedule: record.scheduleId !== undefined };
}
