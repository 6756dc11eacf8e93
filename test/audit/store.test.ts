/**
 * The audit trail's contract on every store engine (test/support/engines.ts): in memory and SQLite
 * always; Redis and PostgreSQL when the run has them (a skipped engine says so). Two
 * trails on two connections stand for two replicas appending at once. Each run has its own prefix.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditLink, headOf, linkAfter } from "../../src/audit/chain.js";
import type { AuditEngine } from "../../src/audit/engine.js";
import { type AuditEntry, type AuditInput, auditEntrySchema } from "../../src/audit/entry.js";
import { openAuditEngine } from "../../src/audit/index.js";
import { AuditTrail } from "../../src/audit/trail.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { redisAuditPrefix, tableName } from "../../src/store/schema/names.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { memoryAuditEngine } from "../support/memory-audit-engine.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-audit-"));
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite"), memory: true }).map((engine) => ({
  ...engine,
  prefix: engine.name === "redis" ? `kassa-test-${run}-audit` : `ka_${run}`,
}));
sayWhatIsSkipped("audit trail", ENGINES);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const T0 = Date.parse("2026-01-10T09:00:00.000Z");
const RETENTION = 30;
/** The trails' clock: the days before T0 + 11 days are past the retention. */
const NOW = T0 + 40 * DAY;

function act(team: string, n: number, overrides: Partial<AuditInput> = {}): AuditInput {
  return {
    team,
    actor: n % 2 === 0 ? "U0ANNA" : "U0BORIS",
    action: n % 3 === 0 ? "export.asked" : "invoice.created",
    object: `invoice ${n}`,
    after: { amount: `${n}00.00`, currency: "RUB" },
    outcome: "done",
    ...overrides,
  };
}
const at = (ms: number) => new Date(ms).toISOString();
const entry = (team: string, n: number, object = `invoice ${n}`): AuditEntry =>
  auditEntrySchema.parse({ ...act(team, n, { object }), time: at(T0 + n) });

/**
 * Alters one stored entry's text in the engine's own storage, as someone with the store could, or
 * (no change given) deletes it.
 */
type Tamper = (team: string, seq: number, change?: (text: string) => string) => Promise<void>;

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(`the audit trail on ${engine.name}`, () => {
    const stores: KeyvStore[] = [];
    let engines: [AuditEngine, AuditEngine];
    let one: AuditTrail;
    let other: AuditTrail;
    let tamper: Tamper;
    let lost = 0;
    let count = 0;
    /** A workspace of its own for each test. */
    const team = () => {
      count += 1;
      return `T${run.toUpperCase()}${engine.name.slice(0, 2).toUpperCase()}${count}`;
    };
    /** The engine, counting the appends another append beat to the head. */
    const counting = (inner: AuditEngine): AuditEngine => ({
      ...inner,
      append: async (link, expected) => {
        const landed = await inner.append(link, expected);
        if (!landed) lost += 1;
        return landed;
      },
    });
    const trail = (inner: AuditEngine) =>
      new AuditTrail(counting(inner), { retentionDays: RETENTION, now: () => NOW });

    beforeAll(async () => {
      if (engine.name === "memory") {
        const memory = memoryAuditEngine();
        engines = [memory, memory];
        tamper = async (t, seq, change) => {
          const links = memory.links(t);
          const index = links.findIndex((found) => found.seq === seq);
          if (change) (links[index] as AuditLink).entry = change((links[index] as AuditLink).entry);
          else links.splice(index, 1);
        };
      } else {
        stores.push(await openStore(engine.url ?? ""), await openStore(engine.url ?? ""));
        engines = [
          await openAuditEngine(stores[0] as KeyvStore, engine.prefix),
          await openAuditEngine(stores[1] as KeyvStore, engine.prefix),
        ];
        tamper = tamperer(stores[0] as KeyvStore, engine.prefix);
      }
      [one, other] = [trail(engines[0]), trail(engines[1])];
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      if (engine.name === "redis" || engine.name === "postgres")
        await dropWatchNamespace(engine.url ?? "", engine.prefix);
    });

    it("appends only on the head the entry chained from, and only the next number", async () => {
      const [e1, e2] = engines;
      const t = team();
      const first = linkAfter(undefined, entry(t, 1));
      expect(await e1.append(first, undefined)).toBe(true);
      expect(await e2.append(linkAfter(undefined, entry(t, 1, "again")), undefined)).toBe(false);
      const [a, b] = [linkAfter(headOf(first), entry(t, 2, "a")), linkAfter(headOf(first), entry(t, 2, "b"))];
      expect(await e2.append(a, headOf(first))).toBe(true);
      expect(await e1.append(b, headOf(first))).toBe(false);
      expect(await e1.head(t)).toEqual(headOf(a));
      const skipping = { ...linkAfter(headOf(a), entry(t, 3)), seq: 4 };
      expect(await e1.append(skipping, headOf(a))).toBe(false);
      // Retention on a head that moved removes nothing either.
      expect(await e1.removeThrough(2, linkAfter(headOf(first), entry(t, 2, "c")), headOf(first))).toBe(
        false,
      );
      expect((await e2.walk(t, 0, 10)).map((link) => [link.seq, link.hash])).toEqual([
        [1, first.hash],
        [2, a.hash],
      ]);
    });

    it("records entries one after another and verifies them: count, first, last, head", async () => {
      const t = team();
      const links = [];
      for (let n = 1; n <= 3; n++) links.push(await one.record(act(t, n, { time: at(T0 + n * 1000) })));
      expect(links.map((link) => link.seq)).toEqual([1, 2, 3]);
      expect(links[1]?.prevHash).toBe(links[0]?.hash);
      expect(await other.verify(t)).toEqual({
        ok: true,
        count: 3,
        first: { seq: 1, time: at(T0 + 1000) },
        last: { seq: 3, time: at(T0 + 3000) },
        head: { seq: 3, hash: links[2]?.hash },
      });
      expect(await one.verify(team())).toMatchObject({ ok: true, count: 0 });
      expect(await other.head(t)).toEqual({ seq: 3, hash: links[2]?.hash, at: T0 + 3000 });
      expect(await other.teams()).toContain(t);
    });

    it("never lets a time go back along the chain (a replica's clock behind)", async () => {
      const t = team();
      await one.record(act(t, 1, { time: at(T0 + 5000) }));
      const late = await other.record(act(t, 2, { time: at(T0 + 1000) }));
      expect(late.at).toBe(T0 + 5000);
      expect(await one.verify(t)).toMatchObject({ ok: true, count: 2 });
    });

    it("lists newest first in pages, by time range, actor and action", async () => {
      const t = team();
      for (let n = 1; n <= 9; n++) await one.record(act(t, n, { time: at(T0 + n * 60_000) }));
      const first = await other.list(t, { limit: 4 });
      expect(first.entries.map((entry) => entry.seq)).toEqual([9, 8, 7, 6]);
      expect(first.entries[0]?.entry).toMatchObject({ object: "invoice 9", actor: "U0BORIS" });
      const second = await other.list(t, { limit: 4, beforeSeq: first.next });
      expect(second.entries.map((entry) => entry.seq)).toEqual([5, 4, 3, 2]);
      const last = await other.list(t, { limit: 4, beforeSeq: second.next });
      expect(last).toMatchObject({ entries: [{ seq: 1 }], next: undefined });
      const range = await other.list(t, { from: T0 + 3 * 60_000, to: T0 + 7 * 60_000 });
      expect(range.entries.map((entry) => entry.seq)).toEqual([6, 5, 4, 3]);
      const anna = await other.list(t, { actor: "U0ANNA", limit: 2 });
      expect(anna.entries.map((entry) => entry.seq)).toEqual([8, 6]);
      expect((await other.list(t, { actor: "U0ANNA", limit: 2, beforeSeq: anna.next })).entries.length).toBe(
        2,
      );
      const exports = await other.list(t, { action: "export.asked", from: T0 + 4 * 60_000 });
      expect(exports.entries.map((entry) => entry.seq)).toEqual([9, 6]);
    });

    it("finds an entry altered in the store at that entry", async () => {
      const t = team();
      for (let n = 1; n <= 5; n++) await one.record(act(t, n, { time: at(T0 + n * 1000) }));
      await tamper(t, 3, (text) => text.replace("300.00", "30000.00"));
      expect(await other.verify(t)).toMatchObject({
        ok: false,
        seq: 3,
        reason: expect.stringMatching(/hash/),
      });
      // Not even JSON any more: still named by its number, and a page shows it as unreadable.
      await tamper(t, 4, () => "{");
      await tamper(t, 3, (text) => text.replace("30000.00", "300.00"));
      expect(await other.verify(t)).toMatchObject({ ok: false, seq: 4 });
      const page = await other.list(t, { limit: 3 });
      expect(page.entries.map((listed) => [listed.seq, listed.entry === undefined])).toEqual([
        [5, false],
        [4, true],
        [3, false],
      ]);
    });

    it("finds an entry deleted from the middle of the store at its number", async () => {
      const t = team();
      for (let n = 1; n <= 5; n++) await one.record(act(t, n, { time: at(T0 + n * 1000) }));
      await tamper(t, 2);
      expect(await other.verify(t)).toMatchObject({
        ok: false,
        seq: 2,
        reason: expect.stringMatching(/missing/),
      });
    });

    it("finds the newest entries deleted from the store, naming them: the head is kept apart", async () => {
      const t = team();
      for (let n = 1; n <= 5; n++) await one.record(act(t, n, { time: at(T0 + n * 1000) }));
      await tamper(t, 5);
      expect(await other.verify(t)).toEqual({
        ok: false,
        seq: 5,
        reason: expect.stringMatching(
          /^entry 5 is missing: the chain ends at entry 4 but its head names entry 5/,
        ),
      });
      await tamper(t, 4);
      expect(await other.verify(t)).toMatchObject({
        ok: false,
        seq: 4,
        reason: expect.stringMatching(/^entries 4 to 5 are missing/),
      });
      // Every entry gone: the team is still listed, and its head names what is not there.
      for (let n = 1; n <= 3; n++) await tamper(t, n);
      expect(await one.teams()).toContain(t);
      expect(await other.verify(t)).toMatchObject({
        ok: false,
        seq: 5,
        reason: expect.stringMatching(/not there/),
      });
    });

    it("removes whole days before a day as a recorded prefix, and the rest still verifies", async () => {
      const t = team();
      for (let n = 0; n < 6; n++) await one.record(act(t, n + 1, { time: at(T0 + n * DAY + n) }));
      const removal = await other.removeDaysBefore(t, at(T0 + 3 * DAY).slice(0, 10));
      expect(removal).toMatchObject({ removed: 3, fromSeq: 1, toSeq: 3, record: { seq: 7 } });
      const kept = await one.list(t, {});
      expect(kept.entries.map((entry) => entry.seq)).toEqual([7, 6, 5, 4]);
      expect(kept.entries[0]?.entry).toMatchObject({
        actor: "kassa",
        action: "audit.days_removed",
        before: { fromSeq: 1, toSeq: 3 },
      });
      expect(await one.verify(t)).toMatchObject({ ok: true, count: 4, first: { seq: 4 }, last: { seq: 7 } });
      expect(await one.removeDaysBefore(t, at(T0 + 3 * DAY).slice(0, 10))).toEqual({ removed: 0 });
      // Never what the retention keeps.
      await expect(one.removeDaysBefore(t, at(T0 + 12 * DAY).slice(0, 10))).rejects.toThrow(
        /AUDIT_RETENTION_DAYS/,
      );
      expect(await one.verify(t)).toMatchObject({ ok: true, count: 4 });
      // Everything, the removal entry before included: the new removal entry alone remains.
      const later = new AuditTrail(engines[0], { retentionDays: RETENTION, now: () => T0 + 100 * DAY });
      expect(await later.removeExpired(t)).toMatchObject({ removed: 4, fromSeq: 4, toSeq: 7 });
      expect(await other.verify(t)).toMatchObject({ ok: true, count: 1, first: { seq: 8 } });
      await one.record(act(t, 9));
      expect(await other.verify(t)).toMatchObject({ ok: true, count: 2, last: { seq: 9 } });
    });

    it("removes by AUDIT_RETENTION_DAYS from the trail's clock: today and the days before it kept", async () => {
      const t = team();
      for (let n = 0; n < 4; n++) await one.record(act(t, n + 1, { time: at(T0 + n * DAY) }));
      const later = new AuditTrail(engines[1], { retentionDays: 2, now: () => T0 + 3 * DAY + 1000 });
      // Kept: the day before "today" (T0 + 2 days) and today (T0 + 3 days).
      expect(await later.removeExpired(t)).toMatchObject({ removed: 2, fromSeq: 1, toSeq: 2 });
      expect(await later.verify(t)).toMatchObject({ ok: true, count: 3, first: { seq: 3 } });
    });

    it("keeps one chain when retention on one replica races appends on the other", async () => {
      const t = team();
      for (let n = 0; n < 5; n++) await one.record(act(t, n + 1, { time: at(T0 + n * DAY) }));
      const appends = Array.from({ length: 20 }, (_, n) =>
        other.record(act(t, 10 + n, { time: at(T0 + 10 * DAY + n) })),
      );
      const removal = one.removeDaysBefore(t, at(T0 + 3 * DAY).slice(0, 10));
      await Promise.all(appends);
      expect(await removal).toMatchObject({ removed: 3, fromSeq: 1, toSeq: 3 });
      expect(await one.verify(t)).toMatchObject({
        ok: true,
        count: 23,
        first: { seq: 4 },
        last: { seq: 26 },
      });
    });

    it("gives one unbroken chain of 100 when two replicas append 50 each at once", async () => {
      const t = team();
      lost = 0;
      const burst = (trail: AuditTrail, side: string) =>
        Promise.all(
          Array.from({ length: 50 }, (_, n) => trail.record(act(t, n, { object: `${side} ${n}` }))),
        );
      const [ones, others] = await Promise.all([burst(one, "one"), burst(other, "other")]);
      const seqs = [...ones, ...others].map((link) => link.seq).sort((a, b) => a - b);
      console.log(`audit trail on ${engine.name}: ${lost} appends lost to the other replica and tried again`);
      expect(seqs).toEqual(Array.from({ length: 100 }, (_, n) => n + 1));
      expect(await one.verify(t)).toMatchObject({ ok: true, count: 100, head: { seq: 100 } });
    }, 30_000);
  });
}

/** Edits a stored entry's text directly in SQLite, PostgreSQL or Redis. */
function tamperer(store: KeyvStore, prefix: string): Tamper {
  const native = store.native;
  const table = tableName(prefix, "audit_entries");
  return async (team, seq, change) => {
    if (native?.kind === "sqlite") {
      const where = "WHERE team = ? AND seq = ?";
      const row = native.db.prepare(`SELECT entry FROM ${table} ${where}`).get(team, seq) as {
        entry: string;
      };
      if (!change) native.db.prepare(`DELETE FROM ${table} ${where}`).run(team, seq);
      else native.db.prepare(`UPDATE ${table} SET entry = ? ${where}`).run(change(row.entry), team, seq);
    } else if (native?.kind === "postgres") {
      const where = "WHERE team = $1 AND seq = $2";
      const rows = await native.pool.query(`SELECT entry FROM ${table} ${where}`, [team, seq]);
      if (!change) await native.pool.query(`DELETE FROM ${table} ${where}`, [team, seq]);
      else
        await native.pool.query(`UPDATE ${table} SET entry = $3 ${where}`, [
          team,
          seq,
          change(String(rows.rows[0]?.entry)),
        ]);
    } else if (native?.kind === "redis") {
      const key = `${redisAuditPrefix(prefix)}:${team}`;
      const link = JSON.parse((await native.client.hGet(`${key}:entries`, String(seq))) ?? "{}") as AuditLink;
      if (change)
        await native.client.hSet(
          `${key}:entries`,
          String(seq),
          JSON.stringify({ ...link, entry: change(link.entry) }),
        );
      else {
        await native.client.hDel(`${key}:entries`, String(seq));
        await native.client.zRem(`${key}:at`, String(seq).padStart(12, "0"));
      }
    }
  };
}
