/**
 * The schema's exports-owed step: entries the release before wrote through Keyv (namespace
 * `exportsowed`, or `<prefix>-exportsowed` under a test run's prefix) carry on as the claim board's
 * family `export-owed`, so an asker whose export died across the upgrade is still told, once.
 * On every engine (test/support/engines.ts): SQLite always; Redis and PostgreSQL when the run has
 * them (each run under its own prefix, removed afterwards). Each store is put back at the step before
 * this one, then the entries are written as that release wrote them, through the store's own Keyv
 * namespace.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type OwedClaim, owedExportsFor } from "../../src/exports/owed.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import {
  POSTGRES_MOVE_EXPORTS_OWED,
  REDIS_MOVE_EXPORTS_OWED,
  SQLITE_MOVE_EXPORTS_OWED,
} from "../../src/store/schema/export-owed.js";
import { ensureSchema } from "../../src/store/schema/index.js";
import { DEFAULT_PREFIX, legacyOwedNamespace, tableName } from "../../src/store/schema/names.js";
import { applyPostgresSchema, POSTGRES_STEPS } from "../../src/store/schema/postgres.js";
import { applyRedisSchema, REDIS_STEPS } from "../../src/store/schema/redis.js";
import { applySqliteSchema, SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { contractEngines, type StoreEngineName, sayWhatIsSkipped } from "../support/engines.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-schema-owed-"));
const LEASE = 60_000;
const DAY = 24 * 60 * 60_000;

/** What the release before wrote for an export: the entry with its heartbeat. */
const written = (team: string, beat: number, ts?: string) => ({
  v: 1,
  team,
  user: "U0ASKER",
  channel: "D0ASKER",
  lang: "ru",
  title: "последние 30 дней",
  format: "XLSX",
  ...(ts ? { ts } : {}),
  beat,
  leaseMs: LEASE,
});
/** The entry as this release reads it (the heartbeat is the claim's lease now). */
const owedAs = ({ beat: _beat, leaseMs: _lease, ...entry }: ReturnType<typeof written>) => entry;

/** How the step is taken on one engine. */
type Step = {
  prefix: string;
  /** Sets the store's schema version under `prefix`. */
  setVersion(store: KeyvStore, prefix: string, version: number): Promise<void>;
  /** Applies the missing steps up to this one, as a starting replica of that release does. */
  apply(store: KeyvStore, prefix: string): Promise<number>;
  steps: number;
  /** This step's number: the store is put back before it, and forward past the later steps after. */
  step: number;
};

const STEPS: Record<StoreEngineName, Step> = {
  sqlite: {
    prefix: DEFAULT_PREFIX,
    steps: SQLITE_STEPS.length,
    step: SQLITE_STEPS.indexOf(SQLITE_MOVE_EXPORTS_OWED) + 1,
    async setVersion(store, prefix, version) {
      const db = new Database(store.location);
      db.prepare(`UPDATE ${tableName(prefix, "schema")} SET version = ?`).run(version);
      db.close();
    },
    async apply(store, prefix) {
      const db = new Database(store.location, { timeout: 5000 });
      try {
        return applySqliteSchema(db, prefix, SQLITE_STEPS.slice(0, this.step));
      } finally {
        db.close();
      }
    },
  },
  redis: {
    prefix: `kassa-test-${run}-owedstep`,
    steps: REDIS_STEPS.length,
    step: REDIS_STEPS.indexOf(REDIS_MOVE_EXPORTS_OWED) + 1,
    async setVersion(store, prefix, version) {
      if (store.native?.kind !== "redis") throw new Error("not Redis");
      await store.native.client.set(`${prefix}:schema`, String(version));
    },
    async apply(store, prefix) {
      if (store.native?.kind !== "redis") throw new Error("not Redis");
      return applyRedisSchema(store.native.client, prefix, REDIS_STEPS.slice(0, this.step));
    },
  },
  postgres: {
    prefix: `kso_${run}`,
    steps: POSTGRES_STEPS.length,
    step: POSTGRES_STEPS.indexOf(POSTGRES_MOVE_EXPORTS_OWED) + 1,
    async setVersion(store, prefix, version) {
      if (store.native?.kind !== "postgres") throw new Error("not PostgreSQL");
      await store.native.pool.query(`UPDATE ${tableName(prefix, "schema")} SET version = $1`, [version]);
    },
    async apply(store, prefix) {
      if (store.native?.kind !== "postgres") throw new Error("not PostgreSQL");
      return applyPostgresSchema(store.native.pool, prefix, POSTGRES_STEPS.slice(0, this.step));
    },
  },
};

const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite") }).map((engine) => ({
  ...engine,
  ...STEPS[engine.name],
}));
sayWhatIsSkipped("schema exports-owed step", ENGINES);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(`the exports-owed step on ${engine.name}`, () => {
    const opened: KeyvStore[] = [];
    afterAll(async () => {
      for (const store of opened) await store.close();
      if (engine.name !== "sqlite") await dropWatchNamespace(engine.url ?? "", engine.prefix);
    });

    it("moves the entries of the release before onto the board: each told once its beat lapses, none lost", async () => {
      const store = await openStore(engine.url ?? "");
      opened.push(store);
      const native = store.native;
      if (!native) throw new Error("no engine");
      const { prefix } = engine;
      expect(await ensureSchema(native, prefix)).toBe(engine.steps);
      // Back to the release before this step (the steps after it have run already: put forward after).
      await engine.setVersion(store, prefix, engine.step - 1);

      const now = Date.now();
      const [dead, alive, expired, unreadable] = ["Jdead", "Jalive", "Jexpired", "Junreadable"].map(
        (name) => `${name}${run}`,
      ) as [string, string, string, string];
      const keyv = store.namespace(legacyOwedNamespace(prefix));
      // Written by a replica killed two minutes ago; one beating now; one whose day is over; one garbled.
      await keyv.set(dead, written("T0DEAD", now - 2 * LEASE, "1700000000.000100"), DAY);
      await keyv.set(alive, written("T0ALIVE", now), DAY);
      await keyv.set(expired, written("T0EXPIRED", now - 2 * LEASE), 1);
      await keyv.set(unreadable, { v: 1, team: "T0BAD" }, DAY);
      await new Promise((resolve) => setTimeout(resolve, 5));

      expect(await engine.apply(store, prefix)).toBe(engine.step);
      await engine.setVersion(store, prefix, engine.steps);
      // The namespace is emptied: this release reads the board only.
      for (const job of [dead, alive, expired, unreadable]) expect(await keyv.get(job)).toBeUndefined();

      const owed = await owedExportsFor(store, prefix);
      const jobs = [dead, alive, expired, unreadable];
      const mine = (claims: OwedClaim[]) => claims.filter((claim) => jobs.includes(claim.jobId));
      const first = mine(await owed.claimLapsed(Date.now()));
      expect(first.map((claim) => [claim.jobId, claim.entry])).toEqual([
        [dead, owedAs(written("T0DEAD", 0, "1700000000.000100"))],
      ]);
      // The one still beating is owed once its lease would have lapsed; the others never.
      expect(mine(await owed.claimLapsed(now + LEASE - 1_000))).toEqual([]);
      const second = mine(await owed.claimLapsed(now + LEASE + 1));
      expect(second.map((claim) => [claim.jobId, claim.entry])).toEqual([
        [alive, owedAs(written("T0ALIVE", 0))],
      ]);
      for (const claim of [...first, ...second]) await owed.told(claim);
      expect(mine(await owed.claimLapsed(now + 2 * DAY))).toEqual([]);
      // Applying again changes nothing.
      expect(await ensureSchema(native, prefix)).toBe(engine.steps);
    });
  });
}
