import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from "rate-limiter-flexible";
import { type NativeClient, sometimes } from "./connection.js";
import { DEFAULT_STORE_TIMEOUT_MS, noteStoreMissed, storeMissedHere } from "./deadline.js";
import { DEFAULT_PREFIX, tableName } from "./schema/names.js";

export type RateLimits = { userPerMinute: number; teamPerMinute: number };
export type RateVerdict =
  | { limited: false }
  | { limited: true; scope: "user" | "team"; retryAfterSeconds: number };

const WINDOW_SECONDS = 60;
/** Rows of windows that ended this long ago are deleted (SQL engines; Redis expires its keys). */
const SWEEP_AFTER_MS = 3_600_000;

/**
 * The in-memory count that stands in for the store (the library's insurance limiter): the library
 * calls it when the store failed or missed its deadline, which it notes; `here` counts without that.
 */
class Insurance extends RateLimiterMemory {
  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly storeFailed: () => void,
  ) {
    super(options);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
    this.storeFailed();
    return super.consume(key, points, options);
  }

  override reward(key: string | number, points?: number, options?: Record<string, unknown>) {
    this.storeFailed();
    return super.reward(key, points, options);
  }

  /** A count while the store is known to have failed: in memory, without asking it. */
  here(): Pick<RateLimiterMemory, "consume" | "reward"> {
    return {
      consume: (key) => super.consume(key),
      reward: (key) => super.reward(key),
    };
  }
}

/** One scope's count: in the store (with its deadline and insurance), and the insurance alone. */
type Counter = { store: RLWrapperTimeouts | undefined; memory: Insurance };

/**
 * Commands per user and per workspace in one-minute windows (each starts at its first command),
 * counted by rate-limiter-flexible with one atomic step of the store's engine: a Lua script on
 * Redis, INSERT … ON CONFLICT … RETURNING on PostgreSQL; replicas share the counts, and of N
 * simultaneous requests at a limit of K exactly K pass. SQLite serves one instance, whose process
 * counts in memory (the library's memory limiter, atomic there): its SQLite limiter prepares its
 * statement on every call, 0.25 to 0.4 ms of CPU a command (measured 2026-11-26), for nothing a
 * single process needs. A store that fails or does not answer within STORE_TIMEOUT_MS is replaced by an in-memory
 * count of this process (the insurance limiter), so a broken store never blocks commands. Failing
 * fast: a request waits at most one deadline; the requests under way when the store failed count in
 * memory at once, as does a request whose other store calls just missed their deadline, and one arriving after it asks the store again, so counting resumes with the
 * store. Without a store (tests, the listener world) the count is in memory only.
 */
export class RateLimiter {
  private readonly team: Counter | undefined;
  private readonly user: Counter | undefined;
  /** How many times the store has failed (or missed its deadline) for this process. */
  private storeFailures = 0;
  private readonly sweep: (() => Promise<unknown>) | undefined;
  private readonly timeoutMs: number;

  constructor(
    /** The store's engine (KeyvStore.native); undefined: count in memory only. */
    store: { native?: NativeClient | undefined } | undefined,
    limits: RateLimits,
    /**
     * prefix: the table's (kassa_rate_limits) and keys' (kassa-rate:…) beginning, as leasesFor's; its
     * schema is applied when the store opens (the store's own) or by whoever chose another (tests).
     */
    options: { timeoutMs?: number; prefix?: string } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    const table = tableName(prefix, "rate_limits");
    const native = store?.native;
    if (native?.kind === "postgres") {
      const pool = native.pool;
      this.sweep = () =>
        pool.query(`DELETE FROM public.${table} WHERE expire < $1`, [Date.now() - SWEEP_AFTER_MS]);
    }
    const counter = (points: number): Counter | undefined => {
      if (points <= 0) return undefined;
      const common = { points, duration: WINDOW_SECONDS, keyPrefix: `${prefix}-rate` };
      const memory = new Insurance(common, () => {
        this.storeFailures += 1;
      });
      const engine = native?.kind === "sqlite" ? undefined : native && engineFor(native, common, table);
      // The insurance sits on the deadline's wrapper only: the engine's own failures reach the
      // wrapper, and one that fails after its deadline has passed is not counted a second time.
      const store = engine
        ? new RLWrapperTimeouts({ limiter: engine, timeoutMs: this.timeoutMs, insuranceLimiter: memory })
        : undefined;
      return { store, memory };
    };
    this.team = counter(limits.teamPerMinute);
    this.user = counter(limits.userPerMinute);
  }

  /**
   * Counts one request of `userId` in `teamId`; the workspace's count first, then the person's. A
   * refused request uses up no quota: the person's refusal gives the workspace's point back. (A
   * count past its limit stays refused until its window ends, so that one needs no giving back.)
   */
  async hit(teamId: string, userId: string): Promise<RateVerdict> {
    if (!this.team && !this.user) return { limited: false };
    const failuresBefore = this.storeFailures;
    // Once the store has failed while this request was under way (here, or any of the request's
    // store calls), its other counts are in memory.
    const count = (counter: Counter) =>
      counter.store && this.storeFailures === failuresBefore && !storeMissedHere(this.timeoutMs)
        ? counter.store
        : counter.memory.here();
    // A count that waited out its deadline: the request's other store calls then fail at once
    // (withOneStoreWait). One the store refused at once leaves them to try.
    const counted = async (counter: Counter, key: string) => {
      const started = Date.now();
      const retryAfterSeconds = await take(count(counter), key);
      if (this.storeFailures !== failuresBefore && Date.now() - started >= this.timeoutMs) noteStoreMissed();
      return retryAfterSeconds;
    };
    const teamKey = `team:${teamId}`;
    if (this.team) {
      const retryAfterSeconds = await counted(this.team, teamKey);
      if (retryAfterSeconds !== undefined) return { limited: true, scope: "team", retryAfterSeconds };
    }
    if (this.user) {
      const retryAfterSeconds = await counted(this.user, `user:${teamId}:${userId}`);
      if (retryAfterSeconds !== undefined) {
        if (this.team)
          await count(this.team)
            .reward(teamKey)
            .catch(() => {});
        return { limited: true, scope: "user", retryAfterSeconds };
      }
    }
    if (this.sweep && sometimes()) void this.sweep().catch(() => {});
    return { limited: false };
  }
}

/** The library's limiter on the store's own client (its table is the schema's). */
function engineFor(
  native: Exclude<NativeClient, { kind: "sqlite" }>,
  common: { points: number; duration: number; keyPrefix: string },
  table: string,
): RateLimiterRedis | RateLimiterPostgres {
  switch (native.kind) {
    case "redis":
      // node-redis v4+ (what @keyv/redis uses) is told apart by this flag only.
      return new RateLimiterRedis({ ...common, storeClient: native.client, useRedisPackage: true });
    case "postgres":
      return new RateLimiterPostgres({
        ...common,
        storeClient: native.pool,
        tableName: table,
        schemaName: "public",
        tableCreated: true,
        // Swept on hits instead: the library's own timer would outlive a closed store.
        clearExpiredByTimeout: false,
      });
  }
}

/** Undefined when the request may go on; otherwise the seconds until the count's window ends. */
async function take(count: Pick<RateLimiterMemory, "consume">, key: string): Promise<number | undefined> {
  try {
    await count.consume(key);
    return undefined;
  } catch (refusal) {
    // A store failure or time-out never gets here: the insurance limiter has counted instead.
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  }
}
