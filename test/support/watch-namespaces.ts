import { openStore } from "../../src/store/keyv.js";

/** Removes a test run's live-card and feed keys and leases (Redis, prefix) or tables (PostgreSQL, prefix). */
export async function dropWatchNamespace(url: string, namespace: string): Promise<void> {
  const store = await openStore(url);
  try {
    if (store.native?.kind === "redis") {
      // KEYS is fine for a test's own few keys.
      await store.native.client.eval(
        "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
        { arguments: [`${namespace}:*`] },
      );
      await store.native.client.eval(
        "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
        { arguments: [`${namespace}-leases::*`] },
      );
    } else if (store.native?.kind === "postgres") {
      await store.native.pool.query(
        `DROP TABLE IF EXISTS ${namespace}_watch_cards, ${namespace}_watches, ${namespace}_watch_reads, ${namespace}_watch_next_read, ${namespace}_feed_turns, ${namespace}_feed_states, ${namespace}_leases`,
      );
    }
  } finally {
    await store.close();
  }
}
