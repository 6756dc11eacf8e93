/**
 * The claim board's contract on every store engine (test/support/engines.ts): in memory and SQLite
 * always; Redis and PostgreSQL when the run has them (a skipped engine says so). Two
 * boards on two connections stand for two replicas. Each run has its own prefix and keys, so runs
 * can share a server.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClaimBoard, ClaimedItem } from "../../src/store/claims/board.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { redisClaimPrefix } from "../../src/store/schema/names.js";
import { contractEngines, REDIS, sayWhatIsSkipped } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-claims-"));
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite"), memory: true }).map((engine) => ({
  ...engine,
  prefix: engine.name === "redis" ? `kassa-test-${run}-claims` : `kc_${run}`,
}));
sayWhatIsSkipped("claim board", ENGINES);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = 1_800_000_000_000;
const LEASE = 10_000;
const FAMILY = "work";

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(`the claim board on ${engine.name}`, () => {
    let stores: KeyvStore[] = [];
    let one: ClaimBoard;
    let other: ClaimBoard;
    let count = 0;
    /** A key of its own for each test. */
    const key = () => {
      count += 1;
      return `K${run}${engine.name.slice(0, 2)}${count}`;
    };
    const mine = (claims: ClaimedItem[], keys: string[]) =>
      claims.filter((claim) => keys.includes(claim.key));

    beforeAll(async () => {
      if (engine.name === "memory") {
        one = memoryClaimBoard();
        other = one;
        return;
      }
      stores = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      one = await openClaimBoard(stores[0] as KeyvStore, engine.prefix);
      other = await openClaimBoard(stores[1] as KeyvStore, engine.prefix);
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      if (engine.name === "redis" || engine.name === "postgres")
        await dropWatchNamespace(engine.url ?? "", engine.prefix);
    });

    it("gives a due item to one claim at a time, oldest due first, and again once released", async () => {
      const [a, b] = [key(), key()];
      await one.enlist(FAMILY, b, NOW - 100);
      await one.enlist(FAMILY, a, NOW - 200);
      await one.enlist(FAMILY, a, NOW + 99_000); // enlisted already: keeps its schedule
      const first = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [a, b]);
      expect(first.map((claim) => claim.key)).toEqual([a, b]);
      expect(mine(await other.claimDue(FAMILY, NOW + 1, LEASE, 1000), [a, b])).toEqual([]);
      const [claimA] = first;
      expect(await one.release(FAMILY, a, claimA?.token ?? "", { dueAt: NOW + 5000 })).toBe(true);
      expect(mine(await other.claimDue(FAMILY, NOW + 4999, LEASE, 1000), [a])).toEqual([]);
      const again = mine(await other.claimDue(FAMILY, NOW + 5000, LEASE, 1000), [a]);
      expect(again).toHaveLength(1);
      expect(again[0]?.token).not.toBe(claimA?.token);
    });

    it("keeps families apart: one key in two families is two items", async () => {
      const k = key();
      await one.enlist(FAMILY, k, NOW);
      await one.enlist("other-work", k, NOW + 60_000);
      expect(mine(await one.claimDue("other-work", NOW, LEASE, 1000), [k])).toEqual([]);
      const [claim] = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [k]);
      expect(await one.writeState("other-work", k, "f", claim?.token ?? "", 1)).toBe(false);
    });

    it("lets another claim take an item only once its lease has run out, renewals included", async () => {
      const k = key();
      await one.enlist(FAMILY, k, NOW);
      const [claim] = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [k]);
      expect(await one.renew(FAMILY, k, claim?.token ?? "", NOW + 8000, LEASE)).toBe(true);
      expect(mine(await other.claimDue(FAMILY, NOW + LEASE + 1, LEASE, 1000), [k])).toEqual([]);
      const [taken] = mine(await other.claimDue(FAMILY, NOW + 8000 + LEASE, LEASE, 1000), [k]);
      expect(taken?.key).toBe(k);
      // The first claim lost it: its renewal, its writes and its release are refused.
      expect(await one.renew(FAMILY, k, claim?.token ?? "", NOW + 18_001, LEASE)).toBe(false);
      expect(await one.writeState(FAMILY, k, "C1", claim?.token ?? "", { late: true })).toBe(false);
      expect(await one.release(FAMILY, k, claim?.token ?? "", { dueAt: NOW })).toBe(false);
      expect(await other.writeState(FAMILY, k, "C1", taken?.token ?? "", { from: "taker" })).toBe(true);
      expect(await one.readState(FAMILY, k, "C1")).toEqual({ from: "taker" });
    });

    it("writes a state only under the claim that holds the item", async () => {
      const k = key();
      await one.enlist(FAMILY, k, NOW);
      expect(await one.writeState(FAMILY, k, "C1", "not-a-claim", { x: 1 })).toBe(false);
      const [claim] = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [k]);
      expect(await one.writeState(FAMILY, k, "C1", claim?.token ?? "", { x: 2 })).toBe(true);
      expect(await one.writeState(FAMILY, k, "C2", claim?.token ?? "", { y: 3 })).toBe(true);
      await one.release(FAMILY, k, claim?.token ?? "", { dueAt: NOW + 1000 });
      expect(await one.writeState(FAMILY, k, "C1", claim?.token ?? "", { x: 4 })).toBe(false);
      expect(await other.readState(FAMILY, k, "C1")).toEqual({ x: 2 });
      await other.deleteState(FAMILY, k, "C1");
      expect(await one.readState(FAMILY, k, "C1")).toBeUndefined();
      await one.drop(FAMILY, k);
      expect(await one.readState(FAMILY, k, "C2")).toBeUndefined();
      expect(mine(await one.claimDue(FAMILY, NOW + 99_000, LEASE, 1000), [k])).toEqual([]);
    });

    it("a nudge makes an item due at once; during a claim, due again right after it", async () => {
      const k = key();
      await one.enlist(FAMILY, k, NOW + 60_000);
      await other.nudge(FAMILY, k, NOW);
      const [claim] = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [k]);
      expect(claim).toBeDefined();
      await other.nudge(FAMILY, k, NOW + 100); // news while the claim works
      await one.release(FAMILY, k, claim?.token ?? "", { dueAt: NOW + 60_000 });
      expect(mine(await other.claimDue(FAMILY, NOW + 200, LEASE, 1000), [k])).toHaveLength(1);
      await other.nudge(FAMILY, `${k}-never-enlisted`, NOW);
      expect(mine(await other.claimDue(FAMILY, NOW + 300, LEASE, 1000), [`${k}-never-enlisted`])).toEqual([]);
    });

    it("never gives one item to two replicas claiming at the same moment", async () => {
      const keys = Array.from({ length: 40 }, () => key());
      for (const k of keys) await one.enlist(FAMILY, k, NOW);
      const rounds = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : other).claimDue(FAMILY, NOW, LEASE, 7)),
      );
      const taken = rounds.flat().filter((claim) => keys.includes(claim.key));
      expect(new Set(taken.map((claim) => claim.key)).size).toBe(taken.length);
      expect(taken.length).toBe(40);
    });

    it("claims a named item for one token at a time, says who holds it, and takes a lapsed one", async () => {
      const k = key();
      expect(await one.claimKey("lease", k, "tokenA", NOW, LEASE, "asked by U1")).toEqual({ held: true });
      expect(await other.claimKey("lease", k, "tokenB", NOW + 1, LEASE, "asked by U2")).toEqual({
        held: false,
        info: "asked by U1",
      });
      // The same token again: still its own, renewed.
      expect(await one.claimKey("lease", k, "tokenA", NOW + 5000, LEASE, "asked by U1")).toEqual({
        held: true,
      });
      expect(await other.claimKey("lease", k, "tokenB", NOW + LEASE + 1, LEASE)).toMatchObject({
        held: false,
      });
      expect(await other.claimKey("lease", k, "tokenB", NOW + 5000 + LEASE, LEASE, "U2")).toEqual({
        held: true,
      });
      expect(await one.renew("lease", k, "tokenA", NOW + 5000 + LEASE + 1, LEASE)).toBe(false);
      expect(await one.release("lease", k, "tokenA", "forget")).toBe(false);
      expect(await other.release("lease", k, "tokenB", "forget")).toBe(true);
      expect(await one.claimKey("lease", k, "tokenC", NOW + 5000 + LEASE + 2, LEASE)).toEqual({ held: true });
    });

    it("gives a named item to exactly one of twenty tokens claiming at once", async () => {
      const k = key();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? one : other).claimKey("once", k, `token${i}`, NOW, 60_000),
        ),
      );
      expect(answers.filter((answer) => answer.held)).toHaveLength(1);
    });

    it("swaps a state only from the state expected, with no claim: create, replace, delete", async () => {
      const k = key();
      expect(await one.swapState("box", k, "f", { v: 1 }, { v: 2 })).toBe(false); // none yet
      expect(await one.swapState("box", k, "f", undefined, undefined)).toBe(true); // none, as expected
      expect(await one.swapState("box", k, "f", undefined, { v: 1 })).toBe(true);
      expect(await other.swapState("box", k, "f", undefined, { v: 9 })).toBe(false); // exists now
      expect(await other.swapState("box", k, "f", undefined, undefined)).toBe(false);
      expect(await other.readState("box", k, "f")).toEqual({ v: 1 });
      expect(await other.swapState("box", k, "f", { v: 3 }, { v: 4 })).toBe(false);
      expect(await other.swapState("box", k, "f", { v: 1 }, "two")).toBe(true);
      expect(await one.readState("box", k, "f")).toBe("two");
      expect(await one.swapState("box", k, "g", undefined, "beside")).toBe(true); // another field
      expect(await one.swapState("box", k, "f", "one", undefined)).toBe(false);
      expect(await one.swapState("box", k, "f", "two", undefined)).toBe(true);
      expect(await other.readState("box", k, "f")).toBeUndefined();
      expect(await other.readState("box", k, "g")).toBe("beside");
      // Another family's item of the same key is another state.
      expect(await one.swapState("other-box", k, "g", undefined, 1)).toBe(true);
      expect(await one.readState("box", k, "g")).toBe("beside");
    });

    it("enlists an item along a swap, with its state, only when the swap lands (every case)", async () => {
      const [k, owed] = [key(), key()];
      const along = (n: number) => ({
        family: "owed",
        key: `${owed}-${n}`,
        dueAt: NOW - n,
        field: "e",
        state: { n },
      });
      const owedKeys = [1, 2, 3, 4, 5, 6].map((n) => `${owed}-${n}`);
      expect(await one.swapState("box", k, "f", undefined, undefined, along(1))).toBe(true); // none, as expected
      expect(await one.swapState("box", k, "f", undefined, { v: 1 }, along(2))).toBe(true);
      expect(await other.swapState("box", k, "f", undefined, { v: 9 }, along(3))).toBe(false);
      expect(await other.swapState("box", k, "f", { v: 1 }, { v: 2 }, along(4))).toBe(true);
      expect(await other.swapState("box", k, "f", { v: 1 }, undefined, along(5))).toBe(false);
      expect(await one.swapState("box", k, "f", { v: 2 }, undefined, along(6))).toBe(true);
      expect(await other.readState("box", k, "f")).toBeUndefined();
      const claimed = mine(await other.claimDue("owed", NOW, LEASE, 1000), owedKeys);
      // Oldest due first: along(6) is due first (NOW - 6).
      expect(claimed.map((claim) => claim.key)).toEqual([6, 4, 2, 1].map((n) => `${owed}-${n}`));
      expect(await one.readState("owed", `${owed}-4`, "e")).toEqual({ n: 4 });
      expect(await one.readState("owed", `${owed}-3`, "e")).toBeUndefined();
      // Alone: enlisted with its state; enlisted again, its schedule stays and its state is written.
      await one.enlistWith({ family: "owed", key: `${owed}-7`, dueAt: NOW, field: "e", state: "a" });
      await other.enlistWith({
        family: "owed",
        key: `${owed}-7`,
        dueAt: NOW + 50_000,
        field: "e",
        state: "b",
      });
      expect(mine(await one.claimDue("owed", NOW, LEASE, 1000), [`${owed}-7`])).toHaveLength(1);
      expect(await other.readState("owed", `${owed}-7`, "e")).toBe("b");
    });

    it("keeps what a claim wrote as the state swapState compares, and the claim's writes beside it", async () => {
      const k = key();
      await one.enlist(FAMILY, k, NOW);
      const [claim] = mine(await one.claimDue(FAMILY, NOW, LEASE, 1000), [k]);
      expect(await one.writeState(FAMILY, k, "C1", claim?.token ?? "", { a: [1, "x"] })).toBe(true);
      expect(await other.swapState(FAMILY, k, "C1", { a: [1, "x"] }, { a: [2] })).toBe(true);
      expect(await one.readState(FAMILY, k, "C1")).toEqual({ a: [2] });
      await one.drop(FAMILY, k);
      expect(await other.swapState(FAMILY, k, "C1", undefined, 1)).toBe(true);
    });

    it("of twenty swaps from the same state on two replicas at once, exactly one wins", async () => {
      const [created, replaced] = [key(), key()];
      const creations = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? one : other).swapState("box", created, "f", undefined, `first${i}`),
        ),
      );
      expect(creations.filter(Boolean)).toHaveLength(1);
      const winner = creations.indexOf(true);
      expect(await other.readState("box", created, "f")).toBe(`first${winner}`);
      await one.swapState("box", replaced, "f", undefined, "start");
      const swaps = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? one : other).swapState("box", replaced, "f", "start", `next${i}`),
        ),
      );
      expect(swaps.filter(Boolean)).toHaveLength(1);
      expect(await one.readState("box", replaced, "f")).toBe(`next${swaps.indexOf(true)}`);
    });

    it("sweeps named items whose claim lapsed, and keeps those still held", async () => {
      if (engine.name === "redis") return; // Redis lets them expire with the lease (tested below).
      const [gone, kept] = [key(), key()];
      await one.claimKey("once", gone, "t1", NOW, 1000);
      await one.claimKey("once", kept, "t2", NOW, 60_000);
      expect(await one.sweep("once", NOW + 1000)).toBeGreaterThanOrEqual(1);
      expect(await other.claimKey("once", kept, "t3", NOW + 1000, 1000)).toMatchObject({ held: false });
      expect(await other.claimKey("once", gone, "t3", NOW + 1000, 1000)).toEqual({ held: true });
    });
  });
}

describe.skipIf(REDIS.skipped !== undefined)("the claim board on redis: named items", () => {
  it("expire with their lease, so nothing is left behind", async () => {
    const store = await openStore(REDIS.url ?? "");
    const prefix = `kassa-test-${run}-claims-ttl`;
    try {
      const board = await openClaimBoard(store, prefix);
      const now = Date.now();
      expect(await board.claimKey("once", "k", "t1", now, 500)).toEqual({ held: true });
      const client = store.native?.kind === "redis" ? store.native.client : undefined;
      const item = `${redisClaimPrefix(prefix)}:i:once:k`;
      expect(await client?.exists(item)).toBe(1);
      await expect.poll(() => client?.exists(item), { timeout: 3000 }).toBe(0);
    } finally {
      await store.close();
      await dropWatchNamespace(REDIS.url ?? "", prefix);
    }
  });
});
