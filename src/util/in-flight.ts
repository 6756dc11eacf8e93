/** Work still running after Slack got its ack: shutdown waits for it, so no user loses a reply. */
export class InFlight {
  private running = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.running;
  }

  async track<T>(work: Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await work;
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves true once nothing runs, or false after `timeoutMs` with work still running. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
