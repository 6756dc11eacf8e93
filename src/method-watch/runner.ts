import { RepeatingPass } from "../util/repeating.js";
import { type CheckOutcome, checkRegister } from "./check.js";
import type { MethodWatchDeps } from "./deps.js";
import { METHOD_WATCH_FAMILY } from "./state.js";

// The methods watch's loop, on every replica: each pass claims the registers whose check is due (the
// claim board gives each to one replica at a time) and checks them. A pass comes every METHOD_CHECK_MS,
// and at least every 15 s, so a watch just turned on (nudged) is checked soon; each register keeps its
// own schedule on the board. Registers are found through their items: the form's save enlists one.

const LONGEST_TICK_MS = 15_000;

export class MethodWatchRunner {
  private readonly loop: RepeatingPass;

  constructor(private readonly deps: MethodWatchDeps) {
    this.loop = new RepeatingPass(() => this.pass(), {
      intervalMs: () => Math.min(deps.checkMs, LONGEST_TICK_MS),
      failed: (error) => deps.logger.error({ err: error }, "methods watch's pass failed"),
      clock: deps.clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass now, after the one under way (tests drive the watch this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  /**
   * Claims the due registers (up to a batch) and checks each in turn: each claim is renewed first (one
   * whose lease ran out meanwhile may be another replica's now, and is left alone). A check that
   * throws is logged and due again after METHOD_CHECK_MS. How many were claimed.
   */
  async pass(): Promise<number> {
    const { board, leaseMs } = this.deps;
    const claims = await board.claimDue(METHOD_WATCH_FAMILY, this.deps.clock.now(), leaseMs, this.deps.batch);
    for (const { key, token } of claims) {
      if (this.loop.isStopped) break;
      const at = this.deps.clock.now();
      if (!(await board.renew(METHOD_WATCH_FAMILY, key, token, at, leaseMs))) continue;
      let outcome: CheckOutcome = { dueAt: at + this.deps.checkMs };
      try {
        outcome = await checkRegister(this.deps, key, token, at);
      } catch (error) {
        this.deps.logger.error({ register: key, err: error }, "a methods watch check failed");
      }
      if (outcome === "lost") continue;
      await board.release(METHOD_WATCH_FAMILY, key, token, outcome).catch(() => false);
    }
    return claims.length;
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }
}
