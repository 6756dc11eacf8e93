import { type Clock, settledWithin, systemClock, type Timer } from "./clock.js";

/**
 * Background work done in passes: the first about a second after start(), each next one `intervalMs`
 * after the last ended (never two at once). A failed pass is reported and the next one comes as
 * usual. runNow() asks for a pass at once (after the one under way) and resolves when it has ended:
 * how tests drive the work without waiting for an interval. close() stops the passes; one under way
 * may finish within its grace, and what it leaves is the store's to hand on (a claim lapses to another
 * replica). Its time and timers come from `clock`.
 */
export class RepeatingPass {
  private timer: Timer | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private readonly clock: Clock;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly options: { intervalMs: () => number; failed: (error: unknown) => void; clock?: Clock },
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /** Whether close() was called: a long pass checks it between steps. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.timer = this.clock.after(Math.min(1000, this.options.intervalMs()), () => this.tick());
  }

  /** One pass now, after the one under way; the next timed one comes `intervalMs` after it. */
  async runNow(): Promise<void> {
    while (this.running) await this.running;
    if (this.stopped) return;
    this.timer?.cancel();
    this.tick();
    await this.running;
  }

  async close(graceMs = 3000): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await settledWithin(this.running, graceMs);
  }

  private tick(): void {
    if (this.stopped || this.running) return;
    this.running = this.pass()
      .catch(this.options.failed)
      .finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = this.clock.after(this.options.intervalMs(), () => this.tick());
      });
  }
}
