import { randomBytes } from "node:crypto";
import type Keyv from "keyv";
import { z } from "zod";
import {
  type CallbackKeyEngine,
  postgresEngine,
  redisEngine,
  sqliteEngine,
  timedEngine,
} from "./callback-key-engines.js";
import type { KeyvStore } from "./connection.js";

// Each workspace's callback address ends in a random key, not its team id: the address is given to
// the payment service and to the merchant's own servers, and must not say whose it is nor be guessed.
// Two entries per workspace: key:<key> -> team (to route a callback) and team:<id> -> key (to show
// and rotate). One address at a time: the team's entry changes only by compare-and-swap (the engine's
// own atomic step, callback-key-engines.ts), its key's route with it, and a key routes only while
// its team's entry names it.

/** The Keyv namespace the keys live in. */
export const CALLBACK_KEYS_NAMESPACE = "callbacks";

const KEY_BYTES = 24;
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** A swap that keeps losing means the workspace is being changed without pause; give up then. */
const MAX_ATTEMPTS = 5;

/** An entry's stored text as Keyv writes it: {"value": ...}. Anything else reads as no value. */
const storedSchema = z.object({ value: z.string().min(1) });

function storedValue(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = storedSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.value : undefined;
  } catch {
    return undefined;
  }
}

/** The text Keyv would store for `value` (so Keyv reads it, and what Keyv wrote compares equal). */
function stored(value: string): string {
  return JSON.stringify({ value });
}

function validKey(text: string | undefined): string | undefined {
  const key = storedValue(text);
  return key !== undefined && KEY_PATTERN.test(key) ? key : undefined;
}

export class CallbackKeys {
  constructor(
    private readonly engine: CallbackKeyEngine,
    /** The same namespace through Keyv: only to list it (routes older versions left behind). */
    private readonly keyv: Keyv,
  ) {}

  /** The workspace of a callback key; undefined for a key that is not (or no longer) anyone's. */
  async teamOf(key: string): Promise<string | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const team = storedValue(await this.engine.read(`key:${key}`));
    if (team === undefined) return undefined;
    // Both ways must agree: a route left behind (by rotations that raced before this was atomic)
    // never works again.
    return validKey(await this.engine.read(`team:${team}`)) === key ? team : undefined;
  }

  /** The workspace's key, made on first use (two first uses at once make one key). */
  async keyOf(teamId: string): Promise<string> {
    const current = await this.engine.read(`team:${teamId}`);
    return validKey(current) ?? this.replace(teamId, current);
  }

  /**
   * A new key for the workspace; the old address stops working at once. Admins rotating at the same
   * moment get the same new key: whichever swap came second finds the entry changed and shows the
   * key that won, which is the one that works.
   */
  async rotate(teamId: string): Promise<string> {
    return this.replace(teamId, await this.engine.read(`team:${teamId}`));
  }

  private async replace(teamId: string, seen: string | undefined): Promise<string> {
    let expected = seen;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const key = randomBytes(KEY_BYTES).toString("base64url");
      const previous = storedValue(expected);
      const done = await this.engine.swap({
        entry: `team:${teamId}`,
        expected,
        replacement: stored(key),
        put: { entry: `key:${key}`, text: stored(teamId) },
        drop: previous === undefined ? undefined : `key:${previous}`,
      });
      if (done) return key;
      expected = await this.engine.read(`team:${teamId}`);
      const theirs = validKey(expected);
      if (theirs !== undefined) return theirs;
    }
    throw new Error("the workspace's callback address kept changing while it was being replaced");
  }

  /** Forgets every address of the workspace (disconnect, uninstall). */
  async remove(teamId: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await this.engine.read(`team:${teamId}`);
      if (current === undefined) break;
      const key = storedValue(current);
      const drop = key === undefined ? undefined : `key:${key}`;
      if (
        await this.engine.swap({ entry: `team:${teamId}`, expected: current, replacement: undefined, drop })
      )
        break;
    }
    // Routes to this workspace that its entry no longer names (left by older versions' racing
    // rotations): they route nowhere already, and must not outlive the workspace either.
    const iterator = this.keyv.iterator;
    if (!iterator) return;
    const stale = new Set<string>();
    for await (const [entry, value] of iterator(this.keyv.namespace)) {
      if (String(entry).startsWith("key:") && value === teamId) stale.add(String(entry));
    }
    for (const entry of stale) await this.keyv.delete(entry);
  }
}

/**
 * The callback keys of a store, changed with its engine's own atomic step. `timeoutMs`:
 * STORE_TIMEOUT_MS, the deadline of each call.
 */
export function callbackKeysFor(store: KeyvStore, timeoutMs: number): CallbackKeys {
  const keyv = store.namespace(CALLBACK_KEYS_NAMESPACE);
  let engine: CallbackKeyEngine;
  if (store.kind === "redis" && store.native?.kind === "redis") {
    // The Redis adapter prefixes keys "<namespace>::" itself.
    engine = redisEngine(store.native.client, `${CALLBACK_KEYS_NAMESPACE}::`);
  } else if (store.kind === "postgres" && store.native?.kind === "postgres") {
    engine = postgresEngine(store.native.pool, `${CALLBACK_KEYS_NAMESPACE}:`);
  } else if (store.kind === "sqlite" && store.native?.kind === "sqlite") {
    engine = sqliteEngine(store.native.db, `${CALLBACK_KEYS_NAMESPACE}:`);
  } else {
    throw new Error(`the ${store.kind} store offers no atomic step for the callback keys`);
  }
  return new CallbackKeys(timedEngine(engine, timeoutMs), keyv);
}
