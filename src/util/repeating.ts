/**
 * Background work done in passes: the first about a second after start(), each next one `intervalMs`
 * after the last ended (never two at once). A failed pass is reported and the next one comes as
 * usual. close() stops the passes; one under way may finish within its grace, and what it leaves is
 * the store's to hand on (a claim lapses to another replica).
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly options: { intervalMs: () => number; failed: (error: unknown) => void },
  ) {}

  /** Whether close() was called: a long pass checks it between steps. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch(this.options.failed)
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs());
        });
    };
    this.timer = setTimeout(tick, Math.min(1000, this.options.intervalMs()));
  }

  async close(graceMs = 3000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.running,
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
