import KeyvRedis, { createClient, type RedisClientConnectionType } from "@keyv/redis";
import type Keyv from "keyv";
import { claimOnceOn } from "./claims/once.js";
import { redisClaimBoard } from "./claims/redis.js";
import type { RedisConnection } from "./connection.js";
import {
  CLOSE_GRACE_MS,
  CONNECT_TIMEOUT_MS,
  connectOrExplain,
  type KeyvStore,
  keyvFor,
  redactedUrl,
  StoreUnavailableError,
  settlesWithin,
} from "./connection.js";
import { ensureSchema } from "./schema/index.js";
import { DEFAULT_PREFIX, redisClaimPrefix } from "./schema/names.js";

// Loaded only when STORE_URL is redis:// (openStore imports it on demand), so a SQLite deployment
// does not carry the Redis client in memory.

export async function openRedis(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  const location = redactedUrl(storeUrl);
  const client = await connectedClient(storeUrl, location);
  try {
    await ensureSchema({ kind: "redis", client });
  } catch (error) {
    client.destroy();
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(`cannot set up the store at ${location}: ${(error as Error).message}`);
  }

  /** Namespaces share the one connection; the store, not an adapter, opens and closes it. */
  class SharedClientRedis extends KeyvRedis<unknown> {
    // Upstream reconnects a client that is not open on every call; after close() that would
    // quietly open a new connection, so the adapter always uses the store's client as it is.
    override async getClient(): Promise<RedisClientConnectionType> {
      return client;
    }
  }

  const instances = new Map<string, Keyv>();
  let closed = false;
  return {
    location,
    kind: "redis",
    native: { kind: "redis", client },
    namespace(name) {
      let keyv = instances.get(name);
      if (!keyv) {
        // The adapter prefixes keys with "<namespace>::" itself (and lists a namespace by that
        // prefix), so Keyv must not add its own "<namespace>:" as well.
        const adapter = new SharedClientRedis(client, { throwOnErrors: true, throwOnConnectError: true });
        keyv = keyvFor(adapter, name, timeoutMs, false);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await client.ping();
    },
    claimOnce: claimOnceOn(redisClaimBoard(client, redisClaimPrefix(DEFAULT_PREFIX))),
    async close() {
      if (closed) return;
      closed = true;
      if (!client.isOpen) return;
      const closing = client.close();
      if ((await settlesWithin(closing, CLOSE_GRACE_MS)) !== "settled" && client.isOpen) client.destroy();
    },
  };
}

/** The store's one client, connected and answering a ping (or one clear error why not). */
async function connectedClient(storeUrl: string, location: string): Promise<RedisConnection> {
  let connected = false;
  const client = createClient({
    url: storeUrl,
    // While the connection is down, commands fail at once instead of waiting in a queue: a Slack
    // handler has 3 seconds, and an error reply beats no reply.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // At start-up, give up at the first failure (one clear error); once connected, reconnect
      // with backoff so a replica survives a Redis restart.
      reconnectStrategy: (retries) => (connected ? Math.min(100 * 2 ** retries, 2000) : false),
    },
  });
  // node-redis emits "error" on every failed reconnect; unheard, that would crash the process.
  // Commands reject meanwhile, so the callers still see the failure.
  client.on("error", () => {});
  // Each namespace's adapter subscribes to the shared client's events.
  client.setMaxListeners(0);
  await connectOrExplain(
    location,
    async () => {
      await client.connect();
      await client.ping();
    },
    async () => {
      if (client.isOpen) client.destroy();
    },
  );
  connected = true;
  return client;
}
