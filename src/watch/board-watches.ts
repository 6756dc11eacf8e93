import type { ClaimBoard, ClaimedItem } from "../store/claims/index.js";
import { type CellChange as Change, StateCell } from "../store/claims/remembered.js";
import { WATCH_FAMILIES, WATCH_FIELDS } from "./board-state.js";
import { TeamIndex } from "./board-teams.js";
import { type Watch, watchKey, watchSchema } from "./model.js";

const { schedule: SCHEDULE, data: DATA } = WATCH_FAMILIES;
const FIELD = WATCH_FIELDS.data;

function parseWatch(raw: unknown): Watch | undefined {
  const parsed = watchSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Whether a step given `lease` may act on the watch: it is there, and that claim (if any) holds it. */
export function holds(watch: Watch | undefined, lease: string | undefined): watch is Watch {
  return watch !== undefined && (!lease || watch.lease === lease);
}

/**
 * The watches on the claim board (board-state.ts): each one's data, changed by compare-and-set, its
 * schedule, and its workspace's index, kept in step when a watch is claimed or ends.
 */
export class BoardWatches {
  readonly cell: StateCell;
  readonly teams: TeamIndex;

  constructor(
    readonly board: ClaimBoard,
    private readonly onUnreadable: (count: number) => void,
  ) {
    this.cell = new StateCell(board);
    this.teams = new TeamIndex(this.cell);
  }

  /** Read-modify-write of a watch's data: `decide` sees it parsed (undefined: none or unreadable) and as stored. */
  change<T>(
    team: string,
    invoiceId: string,
    decide: (watch: Watch | undefined, raw: unknown) => Change<T>,
  ): Promise<T> {
    return this.cell.update(DATA, watchKey(team, invoiceId), FIELD, (raw) =>
      decide(raw === undefined ? undefined : parseWatch(raw), raw),
    );
  }

  /** The watch's data: undefined when there is none, or it cannot be read. */
  async read(key: string): Promise<Watch | undefined> {
    const raw = await this.cell.read(DATA, key, FIELD);
    return raw === undefined ? undefined : parseWatch(raw);
  }

  /** Whether the watch has data at all (one read). */
  async exists(key: string): Promise<boolean> {
    return (await this.cell.read(DATA, key, FIELD)) !== undefined;
  }

  /**
   * After the watches' data went: their schedules and places go too. A watch created again
   * meanwhile (its data there once more) gets its schedule and place back: those steps were not for it.
   */
  async ended(team: string, invoiceIds: readonly string[]): Promise<void> {
    await Promise.all(invoiceIds.map((invoiceId) => this.board.drop(SCHEDULE, watchKey(team, invoiceId))));
    await this.teams.giveBack(team, invoiceIds);
    const again = await Promise.all(invoiceIds.map((invoiceId) => this.read(watchKey(team, invoiceId))));
    for (const watch of again) {
      if (!watch) continue;
      await this.board.enlist(
        SCHEDULE,
        watchKey(team, watch.invoiceId),
        watch.lastCheckedAt + watch.intervalMs,
      );
      for (const card of watch.cards)
        await this.teams.addUser(team, watch.invoiceId, card.user, watch.startedAt);
    }
  }

  /** Marks a claimed watch's data with the claim's token; a schedule left without a watch is forgotten. */
  async take({ key, token }: ClaimedItem): Promise<Watch | undefined> {
    const taken = await this.cell.update(DATA, key, FIELD, (raw): Change<Watch | "none" | "unreadable"> => {
      if (raw === undefined) return { result: "none" };
      const watch = parseWatch(raw);
      if (!watch) return { result: "unreadable", replace: undefined };
      const marked = { ...watch, lease: token };
      return { result: marked, replace: marked };
    });
    if (typeof taken === "object") return taken;
    await this.board.release(SCHEDULE, key, token, "forget");
    if (taken === "unreadable") {
      this.onUnreadable(1);
      const colon = key.indexOf(":");
      await this.teams.giveBack(key.slice(0, colon), [key.slice(colon + 1)]);
    }
    // Created again since it was read: it keeps a schedule.
    const again = await this.read(key);
    if (again) await this.board.enlist(SCHEDULE, key, again.lastCheckedAt + again.intervalMs);
    return undefined;
  }
}
