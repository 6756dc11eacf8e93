import { AsyncLocalStorage } from "node:async_hooks";
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

/** One request's dealings with the store: when one of its calls last missed its deadline. */
type RequestStoreWait = { missedAt: number | undefined };
const requestWaits = new AsyncLocalStorage<RequestStoreWait>();

/**
 * Runs one request (a command, a button, a form) so that a stalled store costs it one deadline:
 * once a store call made within it has missed its deadline, the calls it makes during the next
 * deadline fail at once with StoreCallError. Without this a command waited for each of its calls in
 * turn (the replay claim, the rate count, the register directory, the language: 4 deadlines) before
 * it could say that the store is not answering. Calls outside any request are bounded as before.
 */
export function withOneStoreWait<T>(work: () => Promise<T>): Promise<T> {
  return requestWaits.run({ missedAt: undefined }, work);
}

/** Whether the request under way saw the store miss a deadline less than `ms` ago. */
export function storeMissedHere(ms: number): boolean {
  const missedAt = requestWaits.getStore()?.missedAt;
  return missedAt !== undefined && Date.now() - missedAt < ms;
}

/** Notes, for the request under way, that the store has just missed a deadline (the rate counts' own). */
export function noteStoreMissed(): void {
  const wait = requestWaits.getStore();
  if (wait) wait.missedAt = Date.now();
}

/**
 * Resolves or rejects as `work` does, or rejects with StoreCallError after `ms`; at once within a
 * request whose store call missed its deadline moments ago (withOneStoreWait). A call failed either
 * way may still reach the store later, as after any time-out.
 */
export function withStoreDeadline<T>(work: Promise<T>, ms: number, operation: string): Promise<T> {
  const wait = requestWaits.getStore();
  if (wait?.missedAt !== undefined && Date.now() - wait.missedAt < ms) {
    work.catch(() => undefined);
    return Promise.reject(new StoreCallError(operation, "timeout"));
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (wait) wait.missedAt = Date.now();
      reject(new StoreCallError(operation, "timeout"));
    }, ms);
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
