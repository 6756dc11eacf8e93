import type { ClaimBoard, ClaimedItem, Release } from "./board.js";

// The one loop of a background job over a due family: the items due claimed (oldest first, up to a
// batch, each under a lease), each worked by the caller, then released with what the work says
// (its next due time, or "forget"). A failing item is reported and looked at again after `retryMs`;
// a job that is stopping claims nothing more after the item under way.

export type DueWork = {
  leaseMs: number;
  /** How many items one pass takes at most. */
  limit: number;
  /** When a failing item is due again (ms after `now`). */
  retryMs: number;
  /** Whether the job is stopping (no further item is taken). */
  stopped?: () => boolean;
  /** A failure of one item: the caller's log line. */
  failed: (key: string, error: unknown) => void;
};

export async function workDue(
  board: ClaimBoard,
  family: string,
  now: number,
  options: DueWork,
  work: (item: ClaimedItem) => Promise<Release>,
): Promise<void> {
  for (const item of await board.claimDue(family, now, options.leaseMs, options.limit)) {
    if (options.stopped?.()) return;
    const next = await work(item).catch((error: unknown): Release => {
      options.failed(item.key, error);
      return { dueAt: now + options.retryMs };
    });
    await board
      .release(family, item.key, item.token, next)
      .catch((error: unknown) => options.failed(item.key, error));
  }
}
