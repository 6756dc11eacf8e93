/**
 * Retries as a share of recent traffic: a retry is allowed only while the retries of the last
 * `windowMs` stay under `ratio` of the first attempts (plus a small floor, so a lone failing call
 * is still retried). When the service is overloaded every call fails at once, and retrying each
 * would multiply the load; with the budget, the extra load is at most `ratio`.
 */
export class RetryBudget {
  /** Counts per second-long bucket, newest last: [second, attempts, retries]. */
  private readonly buckets: Array<[number, number, number]> = [];

  constructor(
    private readonly options: { ratio: number; floor: number; windowMs: number } = {
      ratio: 0.1,
      floor: 3,
      windowMs: 10_000,
    },
  ) {}

  /** Notes a first attempt. */
  attempt(): void {
    this.bucket()[1] += 1;
  }

  /** Whether a retry may be sent now; if so, it is counted. */
  tryRetry(): boolean {
    const current = this.bucket();
    let attempts = 0;
    let retries = 0;
    for (const [, a, r] of this.buckets) {
      attempts += a;
      retries += r;
    }
    if (retries >= this.options.floor + Math.floor(attempts * this.options.ratio)) return false;
    current[2] += 1;
    return true;
  }

  private bucket(): [number, number, number] {
    const second = Math.floor(performance.now() / 1000);
    const oldest = second - Math.ceil(this.options.windowMs / 1000) + 1;
    while (this.buckets.length > 0 && (this.buckets[0] as [number, number, number])[0] < oldest)
      this.buckets.shift();
    const last = this.buckets.at(-1);
    if (last && last[0] === second) return last;
    const fresh: [number, number, number] = [second, 0, 0];
    this.buckets.push(fresh);
    return fresh;
  }
}
