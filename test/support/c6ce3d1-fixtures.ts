import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import Database from "better-sqlite3";
import pg from "pg";
import { z } from "zod";

// The stores release c6ce3d1 wrote (test/fixtures/c6ce3d1/, made by scripts/fixtures/c6ce3d1-store.ts),
// put back into a fresh place of each engine (test/store/schema-too-old.test.ts: this release refuses them).

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "c6ce3d1");

export type Engine = "sqlite" | "redis" | "postgres";

const fixtureText = (engine: Engine, file: string) => readFileSync(join(FIXTURES, engine, file), "utf8");

/** The SQLite store, as SQL, into a new file at `path`. */
export function loadSqliteFixture(path: string): void {
  const db = new Database(path);
  try {
    db.exec(fixtureText("sqlite", "store.sql"));
  } finally {
    db.close();
  }
}

const redisEntriesSchema = z.array(
  z.discriminatedUnion("type", [
    z.object({ key: z.string(), ttlMs: z.number(), type: z.literal("string"), value: z.string() }),
    z.object({
      key: z.string(),
      ttlMs: z.number(),
      type: z.literal("hash"),
      value: z.record(z.string(), z.string()),
    }),
    z.object({
      key: z.string(),
      ttlMs: z.number(),
      type: z.literal("zset"),
      value: z.array(z.tuple([z.string(), z.number()])),
    }),
    z.object({ key: z.string(), ttlMs: z.number(), type: z.literal("set"), value: z.array(z.string()) }),
    z.object({ key: z.string(), ttlMs: z.number(), type: z.literal("list"), value: z.array(z.string()) }),
  ]),
);

/**
 * Redis database 12 of the server at `baseUrl` (the run's own, from test/global-setup.ts), holding the fixture's keys (with their times to
 * live) and nothing else: no other test uses that database, so everything in it is this test's.
 */
export async function loadRedisFixture(
  baseUrl: string,
): Promise<{ url: string; clear: () => Promise<void> }> {
  const own = new URL(baseUrl);
  own.pathname = `/${process.env.TEST_REDIS_UPGRADE_DB ?? "12"}`;
  const url = own.toString();
  const clear = async () => {
    const client = createClient({ url });
    await client.connect();
    try {
      await client.flushDb();
    } finally {
      client.destroy();
    }
  };
  await clear();
  const client = createClient({ url });
  await client.connect();
  try {
    for (const entry of redisEntriesSchema.parse(JSON.parse(fixtureText("redis", "store.json")))) {
      if (entry.type === "string") await client.set(entry.key, entry.value);
      else if (entry.type === "hash") await client.hSet(entry.key, entry.value);
      else if (entry.type === "zset")
        await client.zAdd(
          entry.key,
          entry.value.map(([value, score]) => ({ value, score })),
        );
      else if (entry.type === "set") await client.sAdd(entry.key, entry.value);
      else await client.rPush(entry.key, entry.value);
      if (entry.ttlMs > 0) await client.pExpire(entry.key, entry.ttlMs);
    }
  } finally {
    client.destroy();
  }
  return { url, clear };
}

/** A new database `kassa_up_<random>` on the server at `baseUrl`, holding the fixture's tables. */
export async function loadPostgresFixture(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kassa_up_${randomBytes(4).toString("hex")}`;
  const onServer = async (work: (client: pg.Client) => Promise<unknown>, database?: string) => {
    const url = new URL(baseUrl);
    if (database) url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  };
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const drop = () => onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  try {
    await onServer((client) => client.query(fixtureText("postgres", "store.sql")), name);
  } catch (error) {
    await drop();
    throw error;
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop };
}
