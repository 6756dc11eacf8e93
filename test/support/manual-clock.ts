import { type Clock, systemClock, type Timer } from "../../src/util/clock.js";

type Pending = { at: number; run: () => void; everyMs?: number; id: number };

/**
 * A clock that moves only when a test says: advance(ms) moves its time forward, runs each timer that
 * comes due on the way, in order, and lets what each one started settle before the next. No real
 * interval is waited for.
 */
export class ManualClock implements Clock {
  private at: number;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(start: Date | number = Date.parse("2026-11-28T09:00:00Z")) {
    this.at = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.at;
  }

  date(): Date {
    return new Date(this.at);
  }

  after(ms: number, run: () => void): Timer {
    return this.add({ at: this.at + Math.max(0, ms), run });
  }

  every(ms: number, run: () => void): Timer {
    const everyMs = Math.max(1, ms);
    return this.add({ at: this.at + everyMs, run, everyMs });
  }

  /** Timers waiting to run. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Moves time forward by `ms`, running each timer due on the way (a repeating one as often as due). */
  async advance(ms: number): Promise<void> {
    const until = this.at + ms;
    // What already started ends at the present time, before time moves.
    await settle();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > until) break;
      this.at = Math.max(this.at, next.at);
      if (next.everyMs) next.at += next.everyMs;
      else this.pending.delete(next.id);
      next.run();
      await settle();
    }
    this.at = until;
    await settle();
  }

  /** Sets the time (forward only), running what comes due as advance() does. */
  async set(time: Date | number): Promise<void> {
    const to = typeof time === "number" ? time : time.getTime();
    await this.advance(Math.max(0, to - this.at));
  }

  private add(timer: Omit<Pending, "id">): Timer {
    this.nextId += 1;
    const id = this.nextId;
    this.pending.set(id, { ...timer, id });
    return { cancel: () => void this.pending.delete(id) };
  }

  private earliest(): Pending | undefined {
    let first: Pending | undefined;
    for (const timer of this.pending.values())
      if (!first || timer.at < first.at || (timer.at === first.at && timer.id < first.id)) first = timer;
    return first;
  }
}

/** Lets promise chains and ready I/O callbacks run (a timer's work that needs no real wait). */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock that reads `now()` for its time and keeps real timers: for tests that shift time, not timers. */
export function clockReading(now: () => Date): Clock {
  return { ...systemClock, now: () => now().getTime() };
}
