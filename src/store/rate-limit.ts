import type Keyv from "keyv";
import { z } from "zod";

export type RateLimits = { userPerMinute: number; teamPerMinute: number };
export type RateVerdict =
  | { limited: false }
  | { limited: true; scope: "user" | "team"; retryAfterSeconds: number };

const WINDOW_MS = 60_000;
const countSchema = z.number().int().nonnegative();

/**
 * Commands per user and per workspace in fixed one-minute windows. With a shared store (Redis,
 * PostgreSQL) the counts live there so replicas share them; Keyv has no atomic increment, so within
 * a process the read-and-write of a workspace's counters is serialised and across replicas two
 * simultaneous requests may both pass (it protects the service, it is not billing). With SQLite
 * (one host) the counts stay in memory: four database round trips per command cost more than the
 * limit is worth there.
 */
export class RateLimiter {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The store's last failure and when (commands that were waiting then fail with it at once). */
  private lastFailure: { at: number; error: unknown } | undefined;

  /** In-memory counts of the current window: per workspace, its total and its users' counts. */
  private readonly memory = new Map<string, { count: number; users: Map<string, number> }>();
  private memoryWindow = -1;

  constructor(
    /** undefined: count in memory. */
    private readonly keyv: Keyv | undefined,
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(teamId: string, userId: string): Promise<RateVerdict> {
    const { userPerMinute, teamPerMinute } = this.limits;
    if (userPerMinute <= 0 && teamPerMinute <= 0) return { limited: false };
    const at = this.now();
    const window = Math.floor(at / WINDOW_MS);
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - at) / 1000));
    // Both counts are read before either is written: a refused request uses up no quota.
    if (!this.keyv) return this.hitInMemory(window, teamId, userId, retryAfterSeconds);
    const keyv = this.keyv;
    const teamKey = `team:${teamId}:${window}`;
    const userKey = `user:${teamId}:${userId}:${window}`;
    return this.serially(teamId, () =>
      this.failingFast(at, () => this.counted(keyv, teamKey, userKey, retryAfterSeconds)),
    );
  }

  /**
   * The store's answer; or, when the store failed while this command waited its turn, that failure at
   * once. Without this, fifty commands queued behind a hung Redis would each wait out
   * STORE_TIMEOUT_MS in turn (the fiftieth 50 times); a command that arrives after the failure asks
   * the store again, so counting resumes as soon as the store does.
   */
  private async failingFast<T>(arrivedAt: number, work: () => Promise<T>): Promise<T> {
    const failure = this.lastFailure;
    if (failure && failure.at > arrivedAt) throw failure.error;
    try {
      return await work();
    } catch (error) {
      this.lastFailure = { at: this.now(), error };
      throw error;
    }
  }

  /** Reads both counts, then writes both (a refused request uses up no quota). */
  private async counted(
    keyv: Keyv,
    teamKey: string,
    userKey: string,
    retryAfterSeconds: number,
  ): Promise<RateVerdict> {
    const { userPerMinute, teamPerMinute } = this.limits;
    const [teamCount, userCount] = await Promise.all([this.count(teamKey), this.count(userKey)]);
    if (teamPerMinute > 0 && teamCount >= teamPerMinute)
      return { limited: true, scope: "team", retryAfterSeconds };
    if (userPerMinute > 0 && userCount >= userPerMinute)
      return { limited: true, scope: "user", retryAfterSeconds };
    await Promise.all([
      teamPerMinute > 0 ? keyv.set(teamKey, teamCount + 1, WINDOW_MS * 2) : undefined,
      userPerMinute > 0 ? keyv.set(userKey, userCount + 1, WINDOW_MS * 2) : undefined,
    ]);
    return { limited: false };
  }

  /** Same rule as in the store, with counts held per workspace (no key strings to build and hash). */
  private hitInMemory(
    window: number,
    teamId: string,
    userId: string,
    retryAfterSeconds: number,
  ): RateVerdict {
    if (window !== this.memoryWindow) {
      this.memory.clear();
      this.memoryWindow = window;
    }
    const { userPerMinute, teamPerMinute } = this.limits;
    let team = this.memory.get(teamId);
    if (!team) {
      team = { count: 0, users: new Map() };
      this.memory.set(teamId, team);
    }
    const userCount = team.users.get(userId) ?? 0;
    if (teamPerMinute > 0 && team.count >= teamPerMinute)
      return { limited: true, scope: "team", retryAfterSeconds };
    if (userPerMinute > 0 && userCount >= userPerMinute)
      return { limited: true, scope: "user", retryAfterSeconds };
    team.count += 1;
    team.users.set(userId, userCount + 1);
    return { limited: false };
  }

  private async count(key: string): Promise<number> {
    const parsed = countSchema.safeParse(await this.keyv?.get(key));
    return parsed.success ? parsed.data : 0;
  }

  private serially<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.queues.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return result;
  }
}
