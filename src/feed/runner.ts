import { type Clock, settledWithin, systemClock, type Timer } from "../util/clock.js";
import type { FeedContext, FeedRunnerDeps, FeedRunnerOptions, Turn } from "./deps.js";
import type { FeedTurnClaim } from "./ledger.js";
import { workTurn } from "./turn.js";

export type { FeedReader, FeedRunnerDeps, FeedRunnerOptions } from "./deps.js";

/** Defaults of the options FEED_* variables do not set. */
const DEFAULTS = {
  concurrency: 8,
  leaseMs: 10_000,
  turnMs: 5000,
  pageSize: 50,
  maxPages: 5,
  postsPerTurn: 20,
  pollMs: 250,
};

/**
 * The payment feed: every replica takes due workspaces from the ledger, oldest due first, and works
 * at most `concurrency` of them at once, each in a turn of its own (turn.ts) under a claim it renews
 * while it works, as BullMQ and pg-boss renew a job's lock. A turn has a share of time: past it, it
 * finishes what it started but posts nothing new, its place goes to the next workspace, and its own
 * workspace, if a backlog is left, goes to the back of the line. So one register's backlog or slow
 * answers never hold up another's payments, on one replica or several.
 */
export class FeedRunner {
  private timer: Timer | undefined;
  private stopped = false;
  /** Turns launched so far (passNow() looks at it to know whether a round took any). */
  private launched = 0;
  /** Turns within their share of time (the ones that count against `concurrency`). */
  private active = 0;
  private readonly running = new Set<Promise<void>>();
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private readonly clock: Clock;
  private readonly context: FeedContext;
  private readonly options: Required<FeedRunnerOptions>;

  constructor(
    private readonly deps: FeedRunnerDeps,
    options: FeedRunnerOptions,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.options = {
      ...DEFAULTS,
      turnMs: Math.min(DEFAULTS.turnMs, options.intervalMs),
      ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
      intervalMs: options.intervalMs,
    };
    this.context = {
      deps,
      options: this.options,
      now: () => new Date(this.clock.now()),
      stopped: () => this.stopped,
    };
  }

  /** Enlists every workspace with a feed (feeds made before the ledger), then takes turns as they come due. */
  start(): void {
    const poll = () => {
      if (this.stopped) return;
      void this.pump();
      this.timer = this.clock.after(this.options.pollMs, poll);
    };
    void this.enlistAll().finally(() => {
      if (!this.stopped) poll();
    });
  }

  /** Stops taking turns; turns under way may finish within `graceMs` (what they did not post stays owed). */
  async close(graceMs = 3000): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await settledWithin(Promise.allSettled([...this.running]), graceMs);
  }

  /**
   * A pass now (tests drive the feed this way): every workspace with a feed due now, and the turns
   * that takes worked to their end, with those a backlog makes due again at once (a few rounds at most).
   */
  async passNow(): Promise<void> {
    for await (const team of this.deps.feeds.teams()) await this.deps.ledger.nudge(team, this.clock.now());
    for (let round = 0; round < 5 && !this.stopped; round += 1) {
      const launched = this.launched;
      await this.pump();
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      if (this.launched === launched) return;
    }
  }

  /**
   * A callback or a live card saw a change: the workspace is due now (a turn under way on any
   * replica reads again right after it). Announcements stay once-only through the claims.
   */
  checkSoon(team: string): void {
    if (this.stopped) return;
    this.deps.ledger
      .nudge(team, this.clock.now())
      .then(() => this.pump())
      .catch((error: unknown) => this.deps.logger.warn({ err: error, team }, "could not mark the feed due"));
  }

  private async enlistAll(): Promise<void> {
    try {
      for await (const team of this.deps.feeds.teams()) await this.deps.ledger.enlist(team, this.clock.now());
    } catch (error) {
      this.deps.logger.warn(
        { err: error },
        "could not list the workspaces with a feed; trying again at the next start",
      );
    }
  }

  /** Claims due workspaces for the free places; one pump at a time, once more if asked meanwhile. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        while (!this.stopped && this.active < this.options.concurrency) {
          const room = this.options.concurrency - this.active;
          const claims = await this.deps.ledger.claim(this.clock.now(), this.options.leaseMs, room);
          for (const claim of claims) this.launch(claim);
          if (claims.length < room) break;
        }
      } while (this.pumpAgain && !this.stopped);
    })()
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, "could not take feed turns from the store"),
      )
      .finally(() => {
        this.pumping = undefined;
      });
    return this.pumping;
  }

  private launch(claim: FeedTurnClaim): void {
    this.active += 1;
    this.launched += 1;
    let counted = true;
    const leaveRoom = () => {
      if (!counted) return;
      counted = false;
      this.active -= 1;
      // On the next turn of the event loop: an engine answering in microtasks (SQLite) and a
      // workspace due again at once must not keep timers and I/O from running.
      setImmediate(() => void this.pump());
    };
    const share = this.clock.after(this.options.turnMs, leaveRoom);
    const run = this.take(claim)
      .catch((error: unknown) => this.deps.logger.error({ err: error, team: claim.team }, "feed turn failed"))
      .finally(() => {
        share.cancel();
        this.running.delete(run);
        leaveRoom();
      });
    this.running.add(run);
  }

  /** One turn under `claim`: renewed every third of the lease, released with when it is due again. */
  private async take(claim: FeedTurnClaim): Promise<void> {
    const { ledger, logger } = this.deps;
    const { team, token } = claim;
    const { leaseMs } = this.options;
    let lost = false;
    const loseIt = () => {
      if (!lost)
        logger.warn(
          { team, outcome: "feed_claim_lost" },
          "another replica took over this feed; this turn stops",
        );
      lost = true;
    };
    const renew = async () => {
      if (lost) return false;
      const held = await ledger.renew(team, token, this.clock.now(), leaseMs);
      if (!held) loseIt();
      return held;
    };
    const renewal = this.clock.every(
      Math.max(50, Math.floor(leaseMs / 3)),
      () => void renew().catch(() => {}),
    );
    const dueBy = performance.now() + this.options.turnMs;
    const turn: Turn = {
      ctx: this.context,
      team,
      write: async (channel, state) => {
        if (lost) return false;
        const written = await ledger.writeState(team, channel, token, state);
        if (!written) loseIt();
        return written;
      },
      stillOurs: renew,
      over: () => lost || this.stopped,
      late: () => lost || this.stopped || performance.now() > dueBy,
    };
    // A turn that fails (the store, a bug) is tried again after the interval, not at once.
    let dueAt = this.clock.now() + this.options.intervalMs;
    try {
      ({ dueAt } = await workTurn(turn));
    } finally {
      renewal.cancel();
      // Stopped or failed: free it at once, due now, for the next replica or start.
      if (!lost) await ledger.release(team, token, this.stopped ? this.clock.now() : dueAt);
    }
  }
}
