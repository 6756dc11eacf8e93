import { DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from "../store/deadline.js";
import type { KeyvStore } from "../store/keyv.js";
import { ensureSchema } from "../store/schema/index.js";
import { type FeedLedger, ledgerPrefix } from "./ledger.js";

// Apart from ledger.ts, which the engines import: loading them on demand from there would be a circle.

/**
 * The ledger for the store engine behind STORE_URL, each call bounded by `timeoutMs`
 * (STORE_TIMEOUT_MS): a store that stops answering fails a turn instead of holding it. A late write
 * that still lands is fenced all the same (the engine checks the claim when it runs it).
 */
export async function openFeedLedger(
  store: KeyvStore,
  namespace?: string,
  timeoutMs = DEFAULT_STORE_TIMEOUT_MS,
): Promise<FeedLedger> {
  return timed(await engineLedger(store, namespace), timeoutMs);
}

function timed(ledger: FeedLedger, ms: number): FeedLedger {
  const bound =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      withStoreDeadline(call(...args), ms, `feed ${name}`);
  return {
    enlist: bound("enlist", ledger.enlist.bind(ledger)),
    claim: bound("claim", ledger.claim.bind(ledger)),
    renew: bound("renew", ledger.renew.bind(ledger)),
    release: bound("release", ledger.release.bind(ledger)),
    nudge: bound("nudge", ledger.nudge.bind(ledger)),
    readState: bound("readState", ledger.readState.bind(ledger)),
    writeState: bound("writeState", ledger.writeState.bind(ledger)),
    deleteState: bound("deleteState", ledger.deleteState.bind(ledger)),
    drop: bound("drop", ledger.drop.bind(ledger)),
  };
}

async function engineLedger(store: KeyvStore, namespace: string | undefined): Promise<FeedLedger> {
  const native = store.native;
  switch (native?.kind) {
    case "redis": {
      const { RedisFeedLedger } = await import("./ledger-redis.js");
      return new RedisFeedLedger(native.client, `${ledgerPrefix(namespace)}:feed`);
    }
    case "postgres": {
      const { PostgresFeedLedger } = await import("./ledger-postgres.js");
      await ensureSchema(native, ledgerPrefix(namespace));
      return new PostgresFeedLedger(native.pool, ledgerPrefix(namespace));
    }
    case "sqlite": {
      const { SqliteFeedLedger } = await import("./ledger-sqlite.js");
      await ensureSchema(native, ledgerPrefix(namespace));
      return new SqliteFeedLedger(native.db, ledgerPrefix(namespace));
    }
    default:
      throw new Error("the payment feed needs a store engine with atomic primitives");
  }
}
