/**
 * A store older than this release upgrades directly is refused, and left as it was. The stores
 * release c6ce3d1 wrote (test/fixtures/c6ce3d1/, see its README: the last release before the versioned
 * schema) are put back on SQLite always, Redis and PostgreSQL when the run has them: this release
 * no longer carries the one-shot moves of their data (release 63116c6 made them), so opening one
 * fails with one line naming the release that upgrades it, and nothing in it is changed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/keyv.js";
import { SchemaTooOldError, UPGRADING_RELEASE } from "../../src/store/schema/version.js";
import { loadPostgresFixture, loadRedisFixture, loadSqliteFixture } from "../support/c6ce3d1-fixtures.js";
import { POSTGRES, REDIS, sayWhatIsSkipped } from "../support/engines.js";

const dir = mkdtempSync(join(tmpdir(), "kassa-too-old-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opening the store fails with the one line that names the release that upgrades it. */
async function expectRefused(url: string): Promise<void> {
  const refusal = await openStore(url).then(
    async (store) => {
      await store.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(SchemaTooOldError);
  const message = (refusal as Error).message;
  expect(message).not.toContain("\n");
  expect(message).toContain("was written by a release before the schema version (c6ce3d1 or earlier)");
  expect(message).toContain(
    `start release ${UPGRADING_RELEASE} on it once, which upgrades it, then this release`,
  );
}

describe("a store written by c6ce3d1", () => {
  it("on sqlite: refused in one line naming the release that upgrades it, and left as it was", async () => {
    const path = join(dir, "kassa.sqlite");
    loadSqliteFixture(path);
    const contents = () => {
      const db = new Database(path, { readonly: true });
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
        return { tables, keyv: db.prepare("SELECT key, value FROM keyv ORDER BY key").all() };
      } finally {
        db.close();
      }
    };
    const before = contents();
    await expectRefused(`sqlite://${path}`);
    expect(contents()).toEqual(before);
  });

  it.skipIf(REDIS.skipped !== undefined)(
    "on redis: refused, every key kept and no version written",
    async () => {
      const { url, clear } = await loadRedisFixture(REDIS.url ?? "");
      const client = createClient({ url });
      await client.connect();
      try {
        const before = (await client.keys("*")).sort();
        expect(before.length).toBeGreaterThan(10);
        await expectRefused(url);
        expect((await client.keys("*")).sort()).toEqual(before);
        expect(await client.get("kassa:schema")).toBeNull();
      } finally {
        client.destroy();
        await clear();
      }
    },
  );

  it.skipIf(POSTGRES.skipped !== undefined)(
    "on postgres: refused, its tables and rows as they were",
    async () => {
      const { url, drop } = await loadPostgresFixture(POSTGRES.url ?? "");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const contents = async () => ({
        tables: (
          await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        ).rows,
        keyv: (await client.query("SELECT key, value FROM public.kassa ORDER BY key")).rows,
      });
      try {
        const before = await contents();
        await expectRefused(url);
        expect(await contents()).toEqual(before);
      } finally {
        await client.end();
        await drop();
      }
    },
  );
});

sayWhatIsSkipped("a store too old to upgrade", [REDIS, POSTGRES]);
