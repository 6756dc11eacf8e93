import { BusyError } from "./errors.js";

export type RegisterQueueOptions = {
  /** Calls to one cash register in flight at once (0: no limit). */
  concurrency: number;
  /**
   * Calls started per second for one cash register (the service expects about 5), in bursts of a
   * second's worth (0: no limit).
   */
  ratePerSecond: number;
  /**
   * Longest a call waits for its turn. A call whose expected wait is longer is refused at once, and
   * one still waiting when it is reached is dropped: both with BusyError, never sent.
   */
  maxWaitMs: number;
};

type Waiter = {
  start: () => void;
  refuse: (error: BusyError) => void;
  timer: NodeJS.Timeout;
};

/**
 * Who waits for a call: a person (a command, a button, a live card: the default) or background work
 * (a long history read for a report or an export), which yields: it starts only while no other
 * call waits, and leaves a token in the bucket, so a command arriving meanwhile starts at once.
 */
export type CallPriority = "command" | "background";

/**
 * Asked when a request's turn has come, just before each attempt is sent: false withdraws it, never
 * sent (BusyError "withdrawn"). A payout's submit checks here that its claim still holds.
 */
export type BeforeSend = () => Promise<boolean>;

/** How long a background call waits for its turn before giving up (BusyError). */
export const BACKGROUND_MAX_WAIT_MS = 60_000;

/** One cash register's share: its calls in flight, those waiting, and its rate tokens. */
type Lane = {
  running: number;
  waiting: Waiter[];
  /** Background calls waiting: started only when `waiting` is empty. */
  background: Waiter[];
  tokens: number;
  refilledAt: number;
  /** Set while a timer waits for the next token. */
  wake: NodeJS.Timeout | undefined;
  /** Recent duration of a call (moving average), to tell how long a place in the queue takes. */
  callMs: number;
};

/**
 * Calls to the payment service, queued per cash register under a concurrency limit and a rate
 * budget (a token bucket). Whatever the burst of commands, the service gets at most `ratePerSecond`
 * calls a second per register; a call that would wait past `maxWaitMs` is refused with
 * BusyError rather than left to time out. Time-outs of the calls themselves are the
 * transport's, counted from when a call starts, so waiting here never eats into them.
 */
export class RegisterQueue {
  /** One per cash register seen, kept (a few numbers each) so that recent call times are remembered. */
  private readonly lanes = new Map<string, Lane>();

  private readonly concurrency: number;
  private readonly ratePerSecond: number;

  constructor(private readonly options: RegisterQueueOptions) {
    this.concurrency = options.concurrency > 0 ? options.concurrency : Number.POSITIVE_INFINITY;
    this.ratePerSecond = options.ratePerSecond > 0 ? options.ratePerSecond : Number.POSITIVE_INFINITY;
  }

  /** Runs `work` when `key`'s register has room; `waitedMs` is how long it queued. */
  run<T>(
    key: string,
    work: (waitedMs: number) => Promise<T>,
    priority: CallPriority = "command",
  ): Promise<T> {
    const lane = this.laneOf(key);
    const enqueuedAt = performance.now();
    const launch = (): Promise<T> => {
      lane.running += 1;
      const started = performance.now();
      return work(started - enqueuedAt).finally(() => {
        lane.running -= 1;
        const took = performance.now() - started;
        lane.callMs = lane.callMs === 0 ? took : lane.callMs * 0.8 + took * 0.2;
        this.pump(lane);
      });
    };
    if (priority === "background") return this.runInBackground(lane, launch, enqueuedAt);
    if (lane.waiting.length === 0 && lane.running < this.concurrency && this.takeToken(lane)) return launch();

    const expectedMs = this.expectedWaitMs(lane, lane.waiting.length + 1);
    if (expectedMs > this.options.maxWaitMs) {
      return Promise.reject(new BusyError("queue-full", expectedMs));
    }
    return this.wait(lane, lane.waiting, launch, enqueuedAt, this.options.maxWaitMs);
  }

  private runInBackground<T>(lane: Lane, launch: () => Promise<T>, enqueuedAt: number): Promise<T> {
    if (this.backgroundMayStart(lane)) return launch();
    return this.wait(lane, lane.background, launch, enqueuedAt, BACKGROUND_MAX_WAIT_MS);
  }

  /** Waits in `queue` (a person's or the background's) until pump() starts it, or `maxWaitMs` has passed. */
  private wait<T>(
    lane: Lane,
    queue: Waiter[],
    launch: () => Promise<T>,
    enqueuedAt: number,
    maxWaitMs: number,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          launch().then(resolve, reject);
        },
        refuse: reject,
        timer: setTimeout(() => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(new BusyError("waited-too-long", performance.now() - enqueuedAt));
        }, maxWaitMs),
      };
      queue.push(waiter);
      this.pump(lane);
    });
  }

  /** No call of a person waits, there is room, and a token would be left after this one. */
  private backgroundMayStart(lane: Lane): boolean {
    if (lane.waiting.length > 0 || lane.running >= this.concurrency) return false;
    if (this.ratePerSecond === Number.POSITIVE_INFINITY) return true;
    const reserve = this.ratePerSecond >= 2 ? 1 : 0;
    this.refill(lane);
    if (lane.tokens < 1 + reserve) return false;
    lane.tokens -= 1;
    return true;
  }

  /** Calls waiting, over all registers (for tests and figures). */
  get waitingCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.waiting.length;
    return count;
  }

  private laneOf(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = {
        running: 0,
        waiting: [],
        tokens: Number.isFinite(this.ratePerSecond) ? this.ratePerSecond : 0,
        refilledAt: performance.now(),
        wake: undefined,
        callMs: 0,
        background: [],
      };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private refill(lane: Lane): void {
    const now = performance.now();
    const rate = this.ratePerSecond;
    lane.tokens = Math.min(rate, lane.tokens + ((now - lane.refilledAt) * rate) / 1000);
    lane.refilledAt = now;
  }

  private takeToken(lane: Lane): boolean {
    if (this.ratePerSecond === Number.POSITIVE_INFINITY) return true;
    this.refill(lane);
    if (lane.tokens < 1) return false;
    lane.tokens -= 1;
    return true;
  }

  /**
   * Starts waiting calls while there is room and a token, people's first; background calls only
   * when none of those waits, keeping a token in reserve. Otherwise waits for the next token.
   */
  private pump(lane: Lane): void {
    while (lane.waiting.length > 0 && lane.running < this.concurrency) {
      if (!this.takeToken(lane)) {
        this.wakeFor(lane, 1);
        return;
      }
      (lane.waiting.shift() as Waiter).start();
    }
    while (lane.background.length > 0 && lane.running < this.concurrency) {
      if (!this.backgroundMayStart(lane)) {
        if (lane.waiting.length === 0) this.wakeFor(lane, this.ratePerSecond >= 2 ? 2 : 1);
        return;
      }
      (lane.background.shift() as Waiter).start();
    }
  }

  /** Looks again once the bucket holds `tokens`. */
  private wakeFor(lane: Lane, tokens: number): void {
    if (lane.wake) return;
    const inMs = Math.max(1, Math.ceil(((tokens - lane.tokens) * 1000) / this.ratePerSecond));
    lane.wake = setTimeout(() => {
      lane.wake = undefined;
      this.pump(lane);
    }, inMs);
  }

  /**
   * How long the call at `position` in the queue should wait: the later of its rate token and its
   * turn at the concurrency limit (each turn as long as a recent call).
   */
  private expectedWaitMs(lane: Lane, position: number): number {
    // 0 when the rate is unlimited.
    const byRate = (Math.max(0, position - lane.tokens) * 1000) / this.ratePerSecond;
    const byConcurrency = Math.ceil(position / this.concurrency) * lane.callMs;
    return Math.max(byRate, byConcurrency);
  }
}
