import { type Clock, systemClock } from "../util/clock.js";
import { RepeatingPass } from "../util/repeating.js";
import { runBalanceChecks } from "./balance-check.js";
import type { MoneyAlertDeps } from "./deps.js";
import { enlistRegisters, runPayoutChecks } from "./payout-watch.js";

// The money alerts' loop, on every replica: each pass claims the registers whose balance check or
// payout check is due (the claim board gives each to one replica at a time) and checks them. A pass
// comes every BALANCE_CHECK_MS or PAYOUT_CHECK_MS, whichever is shorter, and at least every 15 s,
// so an alert just set is checked soon; each register keeps its own schedule on the board.

const LONGEST_TICK_MS = 15_000;

export class MoneyAlertRunner {
  private enlistedAt = Number.NEGATIVE_INFINITY;
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: MoneyAlertDeps,
    private readonly clock: Clock = systemClock,
  ) {
    this.loop = new RepeatingPass(() => this.pass(), {
      intervalMs: () => Math.min(deps.balanceCheckMs, deps.payoutCheckMs, LONGEST_TICK_MS),
      failed: (error) => deps.logger.error({ err: error }, "money alerts' pass failed"),
      clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass now, after the one under way (tests drive the alerts this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  /** One pass now: the due balance checks, then the due payout checks. */
  async pass(): Promise<void> {
    const now = this.clock.now();
    await runBalanceChecks(this.deps, now);
    if (this.loop.isStopped) return;
    // The registers are listed once per PAYOUT_CHECK_MS; enlisting keeps each one's schedule.
    if (now - this.enlistedAt >= this.deps.payoutCheckMs) {
      await enlistRegisters(this.deps, now);
      this.enlistedAt = now;
    }
    await runPayoutChecks(this.deps, now);
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }
}
