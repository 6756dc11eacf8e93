import type { Release } from "../store/claims/board.js";
import { workDue } from "../store/claims/due-work.js";
import { type Clock, systemClock } from "../util/clock.js";
import { RepeatingPass } from "../util/repeating.js";
import { SCHEDULE_FAMILY, SCHEDULE_FIELD, SCHEDULES } from "./model.js";
import { type RunDeps, type RunNote, runSchedule } from "./run.js";

// The schedules' pass, on every replica every LINKS_CHECK_MS: the claim board hands each due schedule
// to one replica at a time, which makes its run (run.ts) and releases it due at its next run. A
// paused one is glanced at daily (Resume makes it due at once); an ended one is forgotten 30 days on.

/** A schedule's claim while one replica runs it: one create and a card. */
const LEASE_MS = 120_000;
const BATCH = 20;
const DAY_MS = 86_400_000;
/** How long an ended schedule stays listed (`/invoice recurring` shows it ended). */
export const ENDED_KEPT_MS = 30 * DAY_MS;

export type SchedulePassDeps = RunDeps & { checkMs: number };

export class ScheduleRunner {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: SchedulePassDeps,
    private readonly clock: Clock = systemClock,
  ) {
    this.loop = new RepeatingPass(() => this.pass(), {
      intervalMs: () => deps.checkMs,
      failed: (error) => deps.logger.error({ err: error }, "repeating invoices' pass failed"),
      clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass now, after the one under way (tests drive the pass this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  async pass(): Promise<void> {
    const board = await this.deps.book.board();
    const now = this.clock.now();
    await workDue(
      board,
      SCHEDULE_FAMILY,
      now,
      {
        leaseMs: LEASE_MS,
        limit: BATCH,
        retryMs: this.deps.checkMs,
        stopped: () => this.loop.isStopped,
        failed: (key, error) =>
          this.deps.logger.warn({ schedule: key, err: error }, "a repeating invoice could not be run"),
      },
      (item) => this.lookAt(item.key, now),
    );
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }

  private async lookAt(key: string, now: number): Promise<Release> {
    const board = await this.deps.book.board();
    const schedule = (await SCHEDULES.read(board, key, SCHEDULE_FIELD)).value;
    if (!schedule) return "forget";
    if (schedule.status === "ended") {
      const endedAt = schedule.endedAt ?? now;
      if (now < endedAt + ENDED_KEPT_MS) return { dueAt: endedAt + ENDED_KEPT_MS };
      await this.deps.book.remove(schedule.registerKey, schedule.id);
      return "forget";
    }
    if (schedule.status === "paused") return { dueAt: now + DAY_MS };
    if (now < schedule.nextAt) return { dueAt: schedule.nextAt };
    const note: RunNote = {};
    const done = await runSchedule(this.deps, schedule, note);
    this.deps.logger.info(
      { team: schedule.team, schedule: key, outcome: "schedule_ran", ...note },
      "a repeating invoice's run",
    );
    if (!done) return { dueAt: now + this.deps.checkMs };
    const after = await this.deps.book.read(schedule.registerKey, schedule.id);
    if (!after) return "forget";
    if (after.status === "active") return { dueAt: Math.max(after.nextAt, now + 1) };
    return { dueAt: after.status === "ended" ? (after.endedAt ?? now) + ENDED_KEPT_MS : now + DAY_MS };
  }
}
