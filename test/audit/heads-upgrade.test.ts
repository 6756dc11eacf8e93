/**
 * The schema step that keeps each team's audit head apart from its entries (SQLite and PostgreSQL;
 * Redis kept it apart from the start): a store whose entries were written before it gets each team's
 * newest entry as its head, its chains still verify, and deleting their newest entries afterwards is
 * found.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditLink, headOf, linkAfter } from "../../src/audit/chain.js";
import { AUDIT_COLUMNS, linkValues } from "../../src/audit/engine.js";
import { auditEntrySchema } from "../../src/audit/entry.js";
import { openAuditEngine } from "../../src/audit/index.js";
import { AuditTrail } from "../../src/audit/trail.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { auditTables } from "../../src/store/schema/names.js";
import {
  applyPostgresSchema,
  POSTGRES_AUDIT_HEADS,
  POSTGRES_STEPS,
} from "../../src/store/schema/postgres.js";
import { applySqliteSchema, SQLITE_AUDIT_HEADS, SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { dropPrefixTables } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-heads-"));
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite") }).filter(
  (engine) => engine.name !== "redis",
);
sayWhatIsSkipped("audit heads upgrade", ENGINES);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse("2026-03-02T10:00:00.000Z");

/** A real chain of `count` links of `team`, as a release before the step wrote it. */
function chainOf(team: string, count: number): AuditLink[] {
  const links: AuditLink[] = [];
  for (let n = 1; n <= count; n++) {
    const entry = auditEntrySchema.parse({
      time: new Date(T0 + n * 1000).toISOString(),
      team,
      actor: "U0ANNA",
      action: "invoice.created",
      object: `invoice ${n}`,
      outcome: "done",
    });
    links.push(linkAfter(links.at(-1) && headOf(links.at(-1) as AuditLink), entry));
  }
  return links;
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(`the audit heads step on ${engine.name}`, () => {
    const prefix = `kh_${run}`;
    let store: KeyvStore;
    afterAll(async () => {
      if (store?.native?.kind === "postgres") await dropPrefixTables(store.native.pool, prefix);
      await store?.close();
    });

    it("gives each team its newest entry as its head; the newest entries deleted later are found", async () => {
      store = await openStore(engine.url ?? "");
      const native = store.native;
      const { entries } = auditTables(prefix);
      const [one, two] = [chainOf("T0ONE", 4), chainOf("T0TWO", 1)];
      const insert = `INSERT INTO ${entries} (${AUDIT_COLUMNS}) VALUES `;
      if (native?.kind === "sqlite") {
        const step = SQLITE_STEPS.indexOf(SQLITE_AUDIT_HEADS) + 1;
        expect(step).toBeGreaterThan(0);
        applySqliteSchema(native.db, prefix, SQLITE_STEPS.slice(0, step - 1));
        const row = native.db.prepare(`${insert}(?, ?, ?, ?, ?, ?, ?, ?)`);
        for (const link of [...one, ...two]) row.run(...linkValues(link));
      } else if (native?.kind === "postgres") {
        const step = POSTGRES_STEPS.indexOf(POSTGRES_AUDIT_HEADS) + 1;
        expect(step).toBeGreaterThan(0);
        await applyPostgresSchema(native.pool, prefix, POSTGRES_STEPS.slice(0, step - 1));
        for (const link of [...one, ...two])
          await native.pool.query(`${insert}($1, $2, $3, $4, $5, $6, $7, $8)`, [...linkValues(link)]);
      }
      const trail = new AuditTrail(await openAuditEngine(store, prefix), { retentionDays: 30 });
      expect(await trail.head("T0ONE")).toEqual(headOf(one[3] as AuditLink));
      expect(await trail.head("T0TWO")).toEqual(headOf(two[0] as AuditLink));
      expect((await trail.teams()).sort()).toEqual(["T0ONE", "T0TWO"]);
      expect(await trail.verify("T0ONE")).toMatchObject({ ok: true, count: 4 });
      const remove = `DELETE FROM ${entries} WHERE team = 'T0ONE' AND seq >= 3`;
      if (native?.kind === "sqlite") native.db.exec(remove);
      else if (native?.kind === "postgres") await native.pool.query(remove);
      expect(await trail.verify("T0ONE")).toMatchObject({
        ok: false,
        seq: 3,
        reason: expect.stringMatching(/^entries 3 to 4 are missing/),
      });
      expect(await trail.verify("T0TWO")).toMatchObject({ ok: true, count: 1 });
    });
  });
}
