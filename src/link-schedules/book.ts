import { newRef } from "../payments/marker.js";
import type { ClaimBoard } from "../store/claims/board.js";
import { BoardDocument } from "../store/claims/document.js";
import type { Change, Stored } from "../store/claims/family.js";
import {
  MAX_SCHEDULES,
  SCHEDULE_FAMILY,
  SCHEDULE_FIELD,
  SCHEDULE_LIST_FAMILY,
  SCHEDULES,
  type Schedule,
  type ScheduleList,
  scheduleKey,
  scheduleListSchema,
} from "./model.js";
import { endsBefore, firstRun, runAfter } from "./when.js";

// The schedules as people and the pass change them: each change one compare-and-set of the family
// (update's loop), so of two replicas (or two clicks) changing one schedule, one wins; the register's
// list is a document changed the same way.

/** What a schedule is made of: all but what the book sets. */
export type ScheduleDraft = Omit<
  Schedule,
  "v" | "id" | "status" | "nextAt" | "runs" | "createdAt" | "endedAt"
>;

/** Why a schedule could not be made. */
export class TooManySchedulesError extends Error {
  override readonly name = "TooManySchedulesError";
}

/** What a Pause, Resume or Delete came to: the schedule as it is now, or none (gone). */
export type Toggled = { changed: boolean; schedule: Schedule | undefined };

export class ScheduleBook {
  private readonly lists: BoardDocument<ScheduleList>;

  constructor(
    readonly board: () => Promise<ClaimBoard>,
    readonly now: () => number,
  ) {
    this.lists = new BoardDocument(board, SCHEDULE_LIST_FAMILY, "list", (raw) => {
      const parsed = scheduleListSchema.safeParse(raw);
      return parsed.success ? parsed.data : undefined;
    });
  }

  /** A new schedule: listed (refused past MAX_SCHEDULES), written, due at its first run. */
  async create(draft: ScheduleDraft, id: string = newRef()): Promise<Schedule> {
    const now = this.now();
    const nextAt = firstRun(draft.rule, now, draft.zone);
    const ended = endsBefore(draft, 0, nextAt);
    const schedule: Schedule = {
      ...draft,
      v: 1,
      id,
      status: ended ? "ended" : "active",
      nextAt,
      runs: 0,
      createdAt: now,
      ...(ended ? { endedAt: now } : {}),
    };
    await this.lists.update(draft.registerKey, (list) => {
      const ids = list?.ids ?? [];
      if (ids.length >= MAX_SCHEDULES) throw new TooManySchedulesError(`${MAX_SCHEDULES} schedules`);
      return { ids: [...ids.filter((known) => known !== id), id] };
    });
    const board = await this.board();
    const key = scheduleKey(draft.registerKey, id);
    await this.change(key, () => ({ next: schedule, result: undefined }));
    await board.enlist(SCHEDULE_FAMILY, key, nextAt);
    return schedule;
  }

  async read(registerKey: string, id: string): Promise<Schedule | undefined> {
    return (await SCHEDULES.read(await this.board(), scheduleKey(registerKey, id), SCHEDULE_FIELD)).value;
  }

  /** A register's schedules, in the order they were made (an unreadable one left out). */
  async list(registerKey: string): Promise<Schedule[]> {
    const ids = (await this.lists.read(registerKey)).value?.ids ?? [];
    const read = await Promise.all(ids.map((id) => this.read(registerKey, id)));
    return read.filter((schedule): schedule is Schedule => schedule !== undefined);
  }

  /** Paused by a person or by Kassa ("kassa"): only an active one (changed false otherwise). */
  pause(registerKey: string, id: string, by: string): Promise<Toggled> {
    return this.toggle(registerKey, id, (was) =>
      was.status === "active" ? { ...was, status: "paused", pausedBy: by } : undefined,
    );
  }

  /** Resumed: its next run the next such moment from now (runs missed while paused are not made). */
  async resume(registerKey: string, id: string): Promise<Toggled> {
    const now = this.now();
    const toggled = await this.toggle(registerKey, id, (was) => {
      if (was.status !== "paused") return undefined;
      const { pausedBy: _by, ...rest } = was;
      const nextAt = firstRun(was.rule, now, was.zone);
      if (endsBefore(was, was.runs, nextAt)) return { ...rest, status: "ended", nextAt, endedAt: now };
      return { ...rest, status: "active", nextAt };
    });
    if (toggled.changed) await (await this.board()).nudge(SCHEDULE_FAMILY, scheduleKey(registerKey, id), now);
    return toggled;
  }

  /** Deleted: its state, its item and its place in the list (a run under way finds it gone). */
  async remove(registerKey: string, id: string): Promise<Toggled> {
    const key = scheduleKey(registerKey, id);
    const was = await this.change(key, (stored) =>
      stored.raw === undefined ? { result: undefined } : { next: undefined, result: stored.value },
    );
    await this.lists.update(registerKey, (list) => ({
      ids: (list?.ids ?? []).filter((known) => known !== id),
    }));
    await (await this.board()).drop(SCHEDULE_FAMILY, key);
    return { changed: was !== undefined, schedule: was };
  }

  /**
   * The run numbered `runs + 1` taken as made (whatever came of it): the count moved on and the next
   * run set, or the schedule ended; only from the state with `runs` runs, so of two replicas one
   * moves it. The schedule as it is now, or undefined when another change came first.
   */
  advance(key: string, runs: number): Promise<Schedule | undefined> {
    const now = this.now();
    return this.change(key, (stored) => {
      const was = stored.value;
      if (was?.status !== "active" || was.runs !== runs) return { result: undefined };
      const nextAt = runAfter(was.rule, was.nextAt, was.zone);
      const next: Schedule = endsBefore(was, runs + 1, nextAt)
        ? { ...was, runs: runs + 1, status: "ended", endedAt: now }
        : { ...was, runs: runs + 1, nextAt };
      return { next, result: next };
    });
  }

  /** One schedule's read-change-compare-and-set (the family's one loop). */
  change<R>(key: string, change: (stored: Stored<Schedule>) => Change<Schedule, R>): Promise<R> {
    return this.board().then((board) => SCHEDULES.update(board, key, SCHEDULE_FIELD, change));
  }

  private async toggle(
    registerKey: string,
    id: string,
    to: (was: Schedule) => Schedule | undefined,
  ): Promise<Toggled> {
    return this.change(scheduleKey(registerKey, id), (stored) => {
      const was = stored.value;
      const next = was && to(was);
      if (!next) return { result: { changed: false, schedule: was } as Toggled };
      return { next, result: { changed: true, schedule: next } as Toggled };
    });
  }
}
