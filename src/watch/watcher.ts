import { type Clock, settledWithin, sleepOn, systemClock, type Timer } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { type CardEffectsDeps, deliverToCards } from "./card-effects.js";
import { beforeRead, judgeRead, maxHoursStatus, nextCheck, owedAttempts, redrawAll } from "./decide.js";
import { LeaseRenewal } from "./lease-renewal.js";
import { readKey, type Watch, type WatchQueue } from "./model.js";
import { readSlot } from "./read-budget.js";
import { type InvoiceReader, LiveCardRegistry, type SlackClients, type WatcherOptions } from "./registry.js";

/** Watches read at the same time by one replica. */
const CONCURRENT_READS = 32;
/** Watches claimed per pass. */
const CLAIM_BATCH = 256;

/**
 * Re-reads the invoices of live cards and keeps them current: the loop joining the queue (schedule,
 * claim, read budget, tell once), decide.ts (what a read means) and card-effects.ts (telling Slack).
 */
export class Watcher extends LiveCardRegistry {
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly effects: CardEffectsDeps & { leaseMs: number };

  constructor(
    queue: WatchQueue,
    private readonly reader: InvoiceReader,
    private readonly slack: SlackClients,
    options: WatcherOptions,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    super(queue, options, () => new Date(clock.now()));
    const { queue: timed, now, slack: clients } = this;
    this.effects = { queue: timed, slack: clients, reader, logger, now, leaseMs: options.leaseMs };
  }

  /** Passes: one now, then every `tickMs`, or at once after a full batch (more are due; waiting would cap the pace). */
  start(): void {
    const tickMs = Math.max(50, Math.min(1000, Math.floor(this.options.intervalMs / 4)));
    const loop = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch((error: unknown) => {
          this.logger.warn({ err: error, outcome: "watch_pass_failed" }, "watch pass failed");
          return 0;
        })
        .then((claimed) => {
          this.running = undefined;
          if (!this.stopped) this.timer = this.clock.after(claimed >= CLAIM_BATCH ? 0 : tickMs, loop);
        });
    };
    this.timer = this.clock.after(0, loop);
  }

  /** A pass now, after the one under way (tests drive the live cards this way). */
  async passNow(): Promise<void> {
    while (this.running) await this.running;
    if (this.stopped) return;
    await this.pass().catch((error: unknown) =>
      this.logger.warn({ err: error, outcome: "watch_pass_failed" }, "watch pass failed"),
    );
  }

  /**
   * Stops claiming; a pass under way gets up to `graceMs` to finish (a Slack call in it ends by
   * SLACK_TIMEOUT_MS anyway). What it could not finish stays owed in the store, and its leases run out.
   */
  async close(graceMs = 5000): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await settledWithin(this.running, graceMs);
    await this.queue.close();
  }

  /** One pass: claims what is due and reads it, a few at a time. Exposed for tests. */
  async pass(): Promise<number> {
    const due = await this.queue.claimDue(this.now().getTime(), CLAIM_BATCH, this.options.leaseMs);
    // Counted once per workspace per pass: how many watches share its register's read budget.
    const counts = new Map<string, Promise<number>>();
    const watchesOf = (team: string) => {
      const count = counts.get(team) ?? this.queue.count(team).catch(() => 1);
      counts.set(team, count);
      return count;
    };
    const leases = new LeaseRenewal(this.queue, due, { ...this.effects, clock: this.clock });
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped) {
        const watch = due[next++];
        if (!watch || leases.isLost(watch)) continue;
        await this.check(watch, await watchesOf(watch.team)).catch((error: unknown) =>
          this.failed(watch, error),
        );
        leases.done(watch);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, due.length) }, worker));
    } finally {
      leases.stop();
    }
    return due.length;
  }

  private async failed(watch: Watch, error: unknown): Promise<void> {
    this.logger.warn(
      { team: watch.team, invoice: watch.invoiceId, outcome: "watch_error", err: error },
      "watch check failed; trying later",
    );
    await this.later(watch, this.now().getTime() + watch.intervalMs).catch(() => undefined);
  }

  /** Looked at again at `dueAt`, nothing else changed (`intervalMs` the new pace). */
  private async later(watch: Watch, dueAt: number, intervalMs = watch.intervalMs): Promise<void> {
    const patch = { intervalMs, lastCheckedAt: watch.lastCheckedAt };
    await this.queue.reschedule(watch.team, watch.invoiceId, dueAt, patch, watch.lease);
  }

  private async check(watch: Watch, watchesOfRegister: number): Promise<void> {
    const nowMs = this.now().getTime();
    const log = { team: watch.team, invoice: watch.invoiceId };
    const step = beforeRead(watch, nowMs, this.options);
    if (step === "drop") return void (await this.queue.remove(watch.team, watch.invoiceId, watch.lease));
    if (step === "end") {
      // A last try for each card (and what it still owes) before the watch goes.
      await deliverToCards(this.effects, watch, watch.invoice, maxHoursStatus(this.options), true);
      return this.end(watch, "max_hours", "info");
    }
    const { queue, clock } = this;
    const slot = await readSlot(queue, watch.register, this.options.maxReadsPerSecond, nowMs, (ms) =>
      sleepOn(clock, ms),
    );
    if (slot !== "now") return this.later(watch, slot);
    const read = await this.reader.invoice(readKey(watch), watch.invoiceId).then(
      (invoice) => ({ invoice }),
      (error: unknown) => ({ error }),
    );
    const checkedAt = this.now();
    const judgement = judgeRead(watch, read, checkedAt, this.options);
    if (judgement.kind === "end") {
      await deliverToCards(this.effects, watch, watch.invoice, judgement.status, true);
      return this.end(watch, judgement.reason, "warn");
    }
    if (judgement.kind === "read_later") {
      this.logger.warn(
        { ...log, outcome: "watch_read_failed", err: "error" in read ? read.error : undefined },
        "watch read failed; trying later",
      );
      return this.later(watch, checkedAt.getTime() + judgement.intervalMs, judgement.intervalMs);
    }
    // Only the caller whose compare-and-set wins tells the change, whichever replica reads it. What
    // each card is owed is written in that same step, before any Slack call, for the cards stored
    // then (one posted since the claim too): a failed call or a crash leaves it owed, never lost.
    const { state, amounts, invoice, notice } = judgement;
    const told = judgement.differs
      ? await this.queue.tell(
          watch.team,
          watch.invoiceId,
          watch,
          { state, amounts, invoice, ...(notice ? { notice } : {}) },
          watch.lease,
        )
      : undefined;
    const changed = told !== undefined;
    if (told) {
      watch.cards = told;
      const outcome = judgement.notice ? "watch_changed" : "watch_amounts_changed";
      this.logger.info(
        { ...log, outcome, from: watch.state, to: judgement.state },
        "watched invoice changed",
      );
    }
    const redrawn = redrawAll(judgement, changed, checkedAt.getTime(), watch);
    const delivery = await deliverToCards(this.effects, watch, judgement.invoice, judgement.status, redrawn);
    if (delivery === "token_dead") return;
    // Slack's Retry-After counts from its answer, which came after the check: from now, then.
    const sinceCheckMs = this.now().getTime() - checkedAt.getTime();
    const next = nextCheck(
      watch,
      {
        checkedAtMs: checkedAt.getTime(),
        final: judgement.final,
        changed,
        redrawn,
        owedAttempts: owedAttempts(watch.cards),
        retryAfterMs: delivery.retryAfterMs > 0 ? delivery.retryAfterMs + sinceCheckMs : 0,
        watchesOfRegister,
      },
      this.options,
    );
    if (next.kind === "end")
      return this.end(watch, judgement.state === "expired" ? "expired" : "final", "info");
    await this.queue.reschedule(watch.team, watch.invoiceId, next.dueAt, next.patch, watch.lease);
  }

  private async end(watch: Watch, reason: string, level: "info" | "warn"): Promise<void> {
    // Refused when another replica holds the watch now: it decides whether the watch ends.
    if (!(await this.queue.remove(watch.team, watch.invoiceId, watch.lease))) return;
    this.logger[level](
      { team: watch.team, invoice: watch.invoiceId, outcome: "watch_ended", reason },
      "watch ended",
    );
  }
}
