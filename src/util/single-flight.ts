/**
 * Concurrent callers with the same key share one run of the work: 30 simultaneous `/paymethods`
 * of one workspace make one call to the service. Failures are shared too, but never remembered.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const started = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }
}
