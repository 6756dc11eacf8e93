import { DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from "../deadline.js";
import type { KeyvStore } from "../keyv.js";
import { ensureSchema } from "../schema/index.js";
import { claimTables, DEFAULT_PREFIX, redisClaimPrefix } from "../schema/names.js";
import type { ClaimBoard } from "./board.js";

export type { ClaimBoard, ClaimedItem, Enlisting, KeyClaim, Release } from "./board.js";

/**
 * State that must hold across replicas goes here: the claim board of the store engine behind
 * STORE_URL, its tables brought up to date, each call bounded by `timeoutMs` (STORE_TIMEOUT_MS) so a
 * store that stops answering fails the step instead of holding it. A late write that still lands is
 * fenced all the same: the engine checks the claim when it runs it. `prefix` keeps a test run's
 * tables or keys apart. An infinite `timeoutMs` leaves the calls unbounded, for a caller that bounds
 * each of its own steps (the watch queue: its compare-and-set of "told" must never be taken for a
 * failure once its deadline passed, since it may land after it).
 */
export async function openClaimBoard(
  store: Pick<KeyvStore, "native">,
  prefix = DEFAULT_PREFIX,
  timeoutMs = DEFAULT_STORE_TIMEOUT_MS,
): Promise<ClaimBoard> {
  const board = await engineBoard(store, prefix);
  return Number.isFinite(timeoutMs) ? timed(board, timeoutMs) : board;
}

async function engineBoard(store: Pick<KeyvStore, "native">, prefix: string): Promise<ClaimBoard> {
  const native = store.native;
  if (!native) throw new Error("shared state needs a store engine with atomic primitives");
  if (!/^[a-zA-Z_][a-zA-Z0-9_:-]{0,60}$/.test(prefix))
    throw new Error("claim board prefix is not a plain name");
  await ensureSchema(native, prefix);
  const tables = claimTables(prefix);
  switch (native.kind) {
    case "redis":
      return (await import("./redis.js")).redisClaimBoard(native.client, redisClaimPrefix(prefix));
    case "postgres":
      return (await import("./postgres.js")).postgresClaimBoard(native.pool, tables);
    case "sqlite":
      return (await import("./sqlite.js")).sqliteClaimBoard(native.db, tables);
  }
}

function timed(board: ClaimBoard, ms: number): ClaimBoard {
  const bound =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      withStoreDeadline(call(...args), ms, `claims ${name}`);
  return {
    enlist: bound("enlist", board.enlist),
    claimDue: bound("claimDue", board.claimDue),
    claimKey: bound("claimKey", board.claimKey),
    renew: bound("renew", board.renew),
    release: bound("release", board.release),
    nudge: bound("nudge", board.nudge),
    readState: bound("readState", board.readState),
    writeState: bound("writeState", board.writeState),
    deleteState: bound("deleteState", board.deleteState),
    swapState: bound("swapState", board.swapState),
    enlistWith: bound("enlistWith", board.enlistWith),
    sweep: bound("sweep", board.sweep),
    drop: bound("drop", board.drop),
  };
}
