type Closer = { close: (graceMs?: number) => unknown; job: boolean };

/**
 * What a start has opened so far, one stack undone on a failed start and on stop: each piece pushes
 * its close as it starts. Background jobs (`job`) stop together first, each within the grace given,
 * so stopping takes the longest grace rather than their sum; then everything else closes in reverse
 * order of opening (what was opened last may use what was opened before it).
 */
export class Closers {
  private readonly stack: Closer[] = [];

  /** Something opened (a store, a client, a timer): closed after the jobs, last opened first. */
  push(close: () => unknown): void {
    this.stack.push({ close, job: false });
  }

  /** A background job started: stopped with the others at once; `graceMs` is undefined on a failed start. */
  job(close: (graceMs?: number) => Promise<unknown>): void {
    this.stack.push({ close, job: true });
  }

  /** Closes everything pushed so far, each once. */
  async closeAll(graceMs?: number): Promise<void> {
    const opened = this.stack.splice(0).reverse();
    await Promise.all(opened.filter((closer) => closer.job).map((closer) => closer.close(graceMs)));
    for (const closer of opened) if (!closer.job) await closer.close();
  }
}
