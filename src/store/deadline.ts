import type { KeyvStoreAdapter } from "keyv";

/** Default of STORE_TIMEOUT_MS: how long one store call may take before it counts as failed. */
export const DEFAULT_STORE_TIMEOUT_MS = 3000;

/**
 * A store call that failed: the engine did not answer in time (a stalled Redis, a PostgreSQL
 * pool waiting for a connection) or answered with an error (connection refused, closed).
 * Users are told that Kassa's storage is not answering; the cause goes to the log.
 */
export class StoreCallError extends Error {
  override readonly name = "StoreCallError";
  constructor(
    readonly operation: string,
    readonly reason: "timeout" | "failed",
    options?: { cause?: unknown },
  ) {
    super(
      reason === "timeout"
        ? `the store did not answer ${operation} in time`
        : `the store failed ${operation}`,
      options,
    );
  }
}

/** Resolves or rejects as `work` does, or rejects with StoreCallError after `ms`. */
export function withStoreDeadline<T>(work: Promise<T>, ms: number, operation: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreCallError(operation, "timeout")), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof StoreCallError ? error : new StoreCallError(operation, "failed", { cause: error }),
        );
      },
    );
  });
}

/** The adapter calls Keyv makes for reads and writes; iteration (listing) is left as it is. */
const TIMED_CALLS = new Set<PropertyKey>([
  "get",
  "getMany",
  "set",
  "setMany",
  "delete",
  "deleteMany",
  "clear",
  "has",
  "hasMany",
]);

/**
 * The adapter with a deadline on every read and write. Without one, a stalled Redis held every
 * reply (and /readyz) for as long as the stall lasted.
 */
export function adapterWithDeadline<A extends KeyvStoreAdapter>(adapter: A, ms: number): A {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || !TIMED_CALLS.has(property)) return value;
      return (...args: unknown[]) =>
        withStoreDeadline(
          Promise.resolve().then(() => (value as (...a: unknown[]) => unknown).apply(target, args)),
          ms,
          String(property),
        );
    },
  });
}
