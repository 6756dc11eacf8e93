import type { KeyvStore } from "../store/keyv.js";
import { type FeedLedger, ledgerPrefix } from "./ledger.js";

// Apart from ledger.ts, which the engines import: loading them on demand from there would be a circle.

/** The ledger for the store engine behind STORE_URL. */
export async function openFeedLedger(store: KeyvStore, namespace?: string): Promise<FeedLedger> {
  const native = store.native;
  switch (native?.kind) {
    case "redis": {
      const { RedisFeedLedger } = await import("./ledger-redis.js");
      return new RedisFeedLedger(native.client, `${ledgerPrefix(namespace)}:feed`);
    }
    case "postgres": {
      const { PostgresFeedLedger } = await import("./ledger-postgres.js");
      return PostgresFeedLedger.open(native.pool, ledgerPrefix(namespace).replace(/[:-]/g, "_"));
    }
    case "sqlite": {
      const { SqliteFeedLedger } = await import("./ledger-sqlite.js");
      return new SqliteFeedLedger(native.db, ledgerPrefix(namespace).replace(/[:-]/g, "_"));
    }
    default:
      throw new Error("the payment feed needs a store engine with atomic primitives");
  }
}
