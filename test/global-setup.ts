/**
 * Gives this test run store servers of its own, so runs can share a Redis and a PostgreSQL server
 * (two checkouts at once, CI after a session): the store's schema version lives under the store's
 * own prefix, and a run of another release beside this one would otherwise find it newer or older.
 * - PostgreSQL: a fresh database for the run, dropped at the end; TEST_POSTGRES_URL points at it.
 * - Redis: three numbered databases of the run (the suite's, store-stall's, the upgrade test's),
 *   taken with SET NX in database 0 and emptied at the start and the end; TEST_REDIS_URL points at
 *   the first, TEST_REDIS_STALL_DB and TEST_REDIS_UPGRADE_DB name the others.
 * Nothing is done for a variable that is not set (those tests are skipped).
 */
import { randomBytes } from "node:crypto";
import { createClient } from "@keyv/redis";
import pg from "pg";

/** Runs at once: database n (1..5) for the suite, n + 5 for store-stall, n + 10 for the upgrade test. */
const SLOTS = 5;
const CLAIM_SECONDS = 3600;

/**
 * vitest runs a global setup once per project (vitest.config.ts has two), in one process: the first
 * sets the stores up, each later one shares them, and the last project's teardown undoes them (never
 * one project's while the other still runs).
 */
const shared = globalThis as { kassaTestStores?: { users: number; undo: () => Promise<void> } };

export default async function setup(): Promise<() => Promise<void>> {
  const stores = shared.kassaTestStores ?? { users: 0, undo: await ownStores() };
  stores.users += 1;
  shared.kassaTestStores = stores;
  return async () => {
    stores.users -= 1;
    if (stores.users > 0) return;
    shared.kassaTestStores = undefined;
    await stores.undo();
  };
}

async function ownStores(): Promise<() => Promise<void>> {
  const undo: Array<() => Promise<void>> = [];
  const postgresUrl = process.env.TEST_POSTGRES_URL?.trim();
  if (postgresUrl) undo.push(await ownPostgresDatabase(postgresUrl));
  const redisUrl = process.env.TEST_REDIS_URL?.trim();
  if (redisUrl) undo.push(await ownRedisDatabases(redisUrl));
  return async () => {
    for (const step of undo.reverse()) await step().catch(() => {});
  };
}

async function ownPostgresDatabase(baseUrl: string): Promise<() => Promise<void>> {
  const name = `kassa_run_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(baseUrl);
  own.pathname = `/${name}`;
  process.env.TEST_POSTGRES_URL = own.toString();
  return async () => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}

async function ownRedisDatabases(baseUrl: string): Promise<() => Promise<void>> {
  const base = new URL(baseUrl);
  base.pathname = "/0";
  const client = createClient({ url: base.toString() });
  await client.connect();
  const owner = `${process.pid}-${randomBytes(4).toString("hex")}`;
  let slot = 0;
  for (let n = 1; n <= SLOTS && slot === 0; n++) {
    const taken = await client.set(`kassa-test-run:db:${n}`, owner, {
      condition: "NX",
      expiration: { type: "EX", value: CLAIM_SECONDS },
    });
    if (taken === "OK") slot = n;
  }
  if (slot === 0) {
    client.destroy();
    throw new Error(`every Redis test slot (1 to ${SLOTS}) is taken by another run: wait, or free one`);
  }
  const databases = [slot, slot + SLOTS, slot + 2 * SLOTS];
  const empty = async () => {
    for (const db of databases) {
      const url = new URL(baseUrl);
      url.pathname = `/${db}`;
      const one = createClient({ url: url.toString() });
      await one.connect();
      await one.flushDb();
      one.destroy();
    }
  };
  await empty();
  const suite = new URL(baseUrl);
  suite.pathname = `/${slot}`;
  process.env.TEST_REDIS_URL = suite.toString();
  process.env.TEST_REDIS_STALL_DB = String(slot + SLOTS);
  process.env.TEST_REDIS_UPGRADE_DB = String(slot + 2 * SLOTS);
  return async () => {
    await empty();
    if ((await client.get(`kassa-test-run:db:${slot}`)) === owner)
      await client.del(`kassa-test-run:db:${slot}`);
    client.destroy();
  };
}
