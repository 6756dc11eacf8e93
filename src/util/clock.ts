/**
 * Time and timers for background work, from one object passed in: the system's in production, a
 * test's (test/support/manual-clock.ts) that moves only when the test says, so no test waits for a
 * real interval.
 */
export type Timer = { cancel(): void };

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `run` once, `ms` from now. */
  after(ms: number, run: () => void): Timer;
  /** Runs `run` every `ms` until cancelled. */
  every(ms: number, run: () => void): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, Math.max(0, ms));
    return { cancel: () => clearTimeout(timer) };
  },
  every(ms, run) {
    const timer = setInterval(run, Math.max(1, ms));
    return { cancel: () => clearInterval(timer) };
  },
};

/** The clock's time as a Date (for code that keeps Dates). */
export function dateOf(clock: Clock): () => Date {
  return () => new Date(clock.now());
}

/** Resolves after `ms` on `clock`. */
export function sleepOn(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.after(ms, resolve));
}

/**
 * Waits for `work` to settle, at most `graceMs` of real time whatever the clock: how long a stopping
 * job lets its pass under way finish.
 */
export async function settledWithin(work: Promise<unknown> | undefined, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work?.then(
      () => undefined,
      () => undefined,
    ),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
}
