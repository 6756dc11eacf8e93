import type { WatchQueue } from "./model.js";

// Each cash register's read budget: a read reserves the register's next slot (the queue's takeRead,
// across replicas), slots a little over 1000 / perSecond ms apart, so no second, wherever it starts,
// holds more than perSecond reads (a count per calendar second would let 2 x perSecond through
// across a second's boundary). The caller waits for its slot when it is near; a slot further than
// its longest wait is not reserved, and the read is tried again later.

/**
 * How far apart one register's reads are: 550 ms at 2 a second. A tenth more than 1000 / perSecond,
 * so that the service, counting reads as they arrive, never sees more than perSecond in a second
 * when a timer or the network delays one read a little and not the next (the 10,000-watch bench saw
 * 3 in a second with exact spacing).
 */
export function readSpacingMs(perSecond: number): number {
  return Math.ceil(1100 / perSecond);
}

/** Longest a read waits in a pass for its register's slot; further slots are left to later passes. */
const READ_WAIT_MS = 1000;

/**
 * Reserves the register's next read slot and waits for it when it is near ("now": read), or says
 * when to try again (a due time, a little spread out) when its slots are taken for a while.
 */
export async function readSlot(
  queue: Pick<WatchQueue, "takeRead">,
  register: string,
  perSecond: number,
  nowMs: number,
  waitFor: (ms: number) => Promise<void>,
): Promise<"now" | number> {
  const wait = await queue.takeRead(register, perSecond, nowMs, READ_WAIT_MS);
  if (wait === null) return nowMs + READ_WAIT_MS + Math.floor(Math.random() * readSpacingMs(perSecond));
  if (wait > 0) await waitFor(wait);
  return "now";
}
