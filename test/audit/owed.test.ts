/**
 * An act and its audit entry as one (src/audit/owed.ts), on every store engine: the entry is written
 * owed with the act's own write (swapState's `along`), then appended. The store failing, or the
 * process dying, between the two still gives each entry in the chain exactly once after a drain, in
 * the order of the acts. Two replicas are two boards and two trails on two connections.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditInput } from "../../src/audit/entry.js";
import { openAuditEngine } from "../../src/audit/index.js";
import {
  AUDIT_OWED_FAMILY,
  appendOwed,
  type OwedDeps,
  owedEntry,
  owedEntryOnce,
} from "../../src/audit/owed.js";
import { AuditTrail } from "../../src/audit/trail.js";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { memoryAuditEngine } from "../support/memory-audit-engine.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-owed-"));
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite"), memory: true }).map((engine) => ({
  ...engine,
  prefix: engine.name === "redis" ? `kassa-test-${run}-owed` : `ko_${run}`,
}));
sayWhatIsSkipped("audit owed", ENGINES);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse("2026-05-04T08:00:00.000Z");
const logs: Record<string, unknown>[] = [];
const logger = createLogger("info", { write: (line: string) => void logs.push(JSON.parse(line)) });

/** A trail whose store "fails" while `failing` is set: what a stalled or refused store does to an append. */
function flaky(trail: AuditTrail) {
  const state = { failing: false, calls: 0 };
  return Object.assign(state, {
    record: async (input: AuditInput) => {
      state.calls += 1;
      if (state.failing) throw new Error("the store did not answer");
      return trail.record(input);
    },
  });
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(`audit entries owed on ${engine.name}`, () => {
    const stores: KeyvStore[] = [];
    let boards: [ClaimBoard, ClaimBoard];
    let trails: [AuditTrail, AuditTrail];
    let count = 0;
    const team = () => {
      count += 1;
      return `T${run.toUpperCase()}${engine.name.slice(0, 2).toUpperCase()}${count}`;
    };
    /** An act: its state swapped from `from` to `to` with its entry along, nothing appended yet. */
    const act = async (board: ClaimBoard, t: string, n: number, from?: number) => {
      const owed = owedEntry({
        time: new Date(T0 + n * 1000).toISOString(),
        team: t,
        actor: "U0ANNA",
        action: "payout.approved",
        object: `payout P${n}`,
        outcome: "done",
      });
      expect(await board.swapState("act-box", t, "n", from, n, owed)).toBe(true);
    };
    const objects = async (t: string) =>
      (await trails[0].list(t, { limit: 50 })).entries.map((listed) => listed.entry?.object).reverse();

    beforeAll(async () => {
      if (engine.name === "memory") {
        const board = memoryClaimBoard();
        const trail = new AuditTrail(memoryAuditEngine(), { retentionDays: 30 });
        boards = [board, board];
        trails = [trail, trail];
        return;
      }
      stores.push(await openStore(engine.url ?? ""), await openStore(engine.url ?? ""));
      const [one, two] = stores as [KeyvStore, KeyvStore];
      boards = [await openClaimBoard(one, engine.prefix), await openClaimBoard(two, engine.prefix)];
      trails = [
        new AuditTrail(await openAuditEngine(one, engine.prefix), { retentionDays: 30 }),
        new AuditTrail(await openAuditEngine(two, engine.prefix), { retentionDays: 30 }),
      ];
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      if (engine.name === "redis" || engine.name === "postgres")
        await dropWatchNamespace(engine.url ?? "", engine.prefix);
    });

    it("appends the entries of acts whose process died before appending, once each, in order", async () => {
      const t = team();
      await act(boards[0], t, 1);
      await act(boards[1], t, 2, 1);
      await act(boards[0], t, 3, 2);
      expect(await trails[0].head(t)).toBeUndefined();
      // The next start-up's drain (or any replica's background pass) appends them.
      const deps: OwedDeps = { board: boards[1], audit: trails[1], logger };
      expect(await appendOwed(deps, T0 + 10_000)).toBeGreaterThanOrEqual(3);
      expect(await objects(t)).toEqual(["payout P1", "payout P2", "payout P3"]);
      expect(await appendOwed(deps, T0 + 20_000)).toBe(0);
      expect(await objects(t)).toEqual(["payout P1", "payout P2", "payout P3"]);
      expect(await trails[0].verify(t)).toMatchObject({ ok: true, count: 3 });
    });

    it("keeps an entry owed while the store fails, and appends it before the next act's, once", async () => {
      const t = team();
      const trail = flaky(trails[0]);
      const deps: OwedDeps = { board: boards[0], audit: trail, logger };
      await act(boards[0], t, 1);
      trail.failing = true;
      expect(await appendOwed(deps, T0)).toBe(0);
      expect(logs.at(-1)).toMatchObject({ level: "error", msg: expect.stringMatching(/stay owed/) });
      expect(await trails[0].head(t)).toBeUndefined();
      trail.failing = false;
      await act(boards[0], t, 2, 1);
      expect(await appendOwed(deps, T0 + 5000)).toBeGreaterThanOrEqual(2);
      expect(await objects(t)).toEqual(["payout P1", "payout P2"]);
      expect(await trails[0].verify(t)).toMatchObject({ ok: true, count: 2 });
    });

    it("appends once an act owed twice by one that may note it twice (owedEntryOnce: one ref per act)", async () => {
      const t = team();
      const input = {
        team: t,
        actor: "kassa",
        action: "payout.outside" as const,
        object: "payout P9",
        outcome: "done" as const,
      };
      const deps: OwedDeps = { board: boards[0], audit: trails[0], logger };
      // Owed, then the watch dies before writing down that it audited it; the next check owes it again.
      await boards[0].enlistWith(owedEntryOnce(input, { at: T0, id: `payout.outside ${t} P9` }));
      await appendOwed(deps, T0 + 1000);
      await boards[1].enlistWith(
        owedEntryOnce(
          { ...input, time: new Date(T0 + 5000).toISOString() },
          { at: T0, id: `payout.outside ${t} P9` },
        ),
      );
      await appendOwed({ board: boards[1], audit: trails[1], logger }, T0 + 6000);
      expect(await objects(t)).toEqual(["payout P9"]);
    });

    it("appends an entry once when it was appended but not yet forgotten, and when two replicas drain at once", async () => {
      const t = team();
      const owed = owedEntry({
        time: new Date(T0).toISOString(),
        team: t,
        actor: "kassa",
        action: "payout.ended",
        object: "payout P0",
        outcome: "done",
      });
      await boards[0].enlistWith(owed);
      // Appended, then the process died before the owed item was forgotten.
      await trails[0].record(owed.state);
      for (let n = 1; n <= 6; n++) await act(boards[n % 2 === 0 ? 0 : 1], t, n, n === 1 ? undefined : n - 1);
      await Promise.all([
        appendOwed({ board: boards[0], audit: trails[0], logger }, T0 + 10_000),
        appendOwed({ board: boards[1], audit: trails[1], logger }, T0 + 10_000),
      ]);
      const kept = await objects(t);
      expect(kept).toHaveLength(7);
      expect(new Set(kept).size).toBe(7);
      expect(kept[0]).toBe("payout P0");
      expect(await trails[1].verify(t)).toMatchObject({ ok: true, count: 7 });
      expect(await boards[0].claimDue(AUDIT_OWED_FAMILY, T0 + 20_000, 1000, 100)).toEqual([]);
    });
  });
}
