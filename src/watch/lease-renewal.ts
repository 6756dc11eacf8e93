import type { Clock, Timer } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { type Watch, type WatchQueue, watchKey } from "./model.js";

/**
 * Keeps a claimed batch's leases while it is being worked through, as BullMQ and pg-boss renew a
 * job's lock: every third of the lease, each watch not finished yet has its due time pushed one
 * lease ahead, as long as this claim still holds it. So the lease can be short (a replica killed
 * with kill -9 holds its watches up for one lease, seconds) and a slow read is still never claimed
 * twice. A watch whose lease was lost (another replica claimed it after a stall) is skipped if not
 * yet started; if it was, the queue refuses its late steps.
 */
export class LeaseRenewal {
  private readonly pending = new Map<string, Watch>();
  private readonly lost = new Set<string>();
  private readonly timer: Timer;

  private readonly leaseMs: number;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(
    private readonly queue: WatchQueue,
    claimed: readonly Watch[],
    options: { leaseMs: number; clock: Clock; logger: Logger },
  ) {
    ({ leaseMs: this.leaseMs, clock: this.clock, logger: this.logger } = options);
    for (const watch of claimed) this.pending.set(watchKey(watch.team, watch.invoiceId), watch);
    this.timer = this.clock.every(Math.max(100, Math.floor(this.leaseMs / 3)), () => void this.renewAll());
  }

  /** Whether this claim lost the watch to another replica (then leave it alone). */
  isLost(watch: Watch): boolean {
    return this.lost.has(watchKey(watch.team, watch.invoiceId));
  }

  /** The watch was dealt with (rescheduled or removed): its lease needs no more renewing. */
  done(watch: Watch): void {
    this.pending.delete(watchKey(watch.team, watch.invoiceId));
  }

  stop(): void {
    this.timer.cancel();
  }

  private async renewAll(): Promise<void> {
    const until = this.clock.now() + this.leaseMs;
    await Promise.all(
      [...this.pending].map(async ([key, watch]) => {
        if (!watch.lease) return;
        const held = await this.queue
          .renew(watch.team, watch.invoiceId, watch.lease, until)
          .catch(() => true);
        if (held) return;
        this.pending.delete(key);
        this.lost.add(key);
        this.logger.warn(
          { team: watch.team, invoice: watch.invoiceId, outcome: "watch_lease_lost" },
          "another replica took over this watch; its late steps are refused",
        );
      }),
    );
  }
}
