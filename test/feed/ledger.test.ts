/**
 * The feed ledger's contract, on SQLite: family logic on the claim board (src/feed/ledger.ts), with no
 * engine code of its own; the board runs on every engine in test/store/claims.test.ts
 * (test/support/engines.ts says which runs where). Two ledgers on two connections stand for two
 * replicas. Each run has its own prefix and workspaces.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedLedger } from "../../src/feed/ledger.js";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { familyEngines } from "../support/engines.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-ledger-"));
const ENGINES = familyEngines({ sqlite: join(dir, "kassa.sqlite") });
const NAMESPACE = `kl_${run}`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = 1_800_000_000_000;
const LEASE = 10_000;

for (const engine of ENGINES) {
  describe(`the feed ledger on ${engine.name}`, () => {
    let stores: KeyvStore[] = [];
    let one: FeedLedger;
    let other: FeedLedger;
    let count = 0;
    /** A workspace of its own for each test. */
    const team = () => {
      count += 1;
      return `T${run.toUpperCase()}${engine.name.slice(0, 2).toUpperCase()}${count}`;
    };
    const mine = (claims: Array<{ team: string; token: string }>, teams: string[]) =>
      claims.filter((claim) => teams.includes(claim.team));

    beforeAll(async () => {
      stores = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      one = await openFeedLedger(stores[0] as KeyvStore, NAMESPACE);
      other = await openFeedLedger(stores[1] as KeyvStore, NAMESPACE);
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
    });

    it("gives a due workspace to one claim at a time, oldest due first, and again once released", async () => {
      const [a, b] = [team(), team()];
      await one.enlist(b, NOW - 100);
      await one.enlist(a, NOW - 200);
      await one.enlist(a, NOW + 99_000); // enlisted already: keeps its schedule
      const first = mine(await one.claim(NOW, LEASE, 1000), [a, b]);
      expect(first.map((claim) => claim.team)).toEqual([a, b]);
      expect(mine(await other.claim(NOW + 1, LEASE, 1000), [a, b])).toEqual([]);
      const [claimA] = first;
      expect(await one.release(a, claimA?.token ?? "", NOW + 5000)).toBe(true);
      expect(mine(await other.claim(NOW + 4999, LEASE, 1000), [a])).toEqual([]);
      const again = mine(await other.claim(NOW + 5000, LEASE, 1000), [a]);
      expect(again).toHaveLength(1);
      expect(again[0]?.token).not.toBe(claimA?.token);
    });

    it("lets another claim take a workspace only once its lease has run out, renewals included", async () => {
      const t = team();
      await one.enlist(t, NOW);
      const [claim] = mine(await one.claim(NOW, LEASE, 1000), [t]);
      expect(await one.renew(t, claim?.token ?? "", NOW + 8000, LEASE)).toBe(true);
      expect(mine(await other.claim(NOW + LEASE + 1, LEASE, 1000), [t])).toEqual([]);
      const [taken] = mine(await other.claim(NOW + 8000 + LEASE, LEASE, 1000), [t]);
      expect(taken?.team).toBe(t);
      // The first claim lost it: its renewal, its writes and its release are refused.
      expect(await one.renew(t, claim?.token ?? "", NOW + 18_001, LEASE)).toBe(false);
      expect(await one.writeState(t, "C1", claim?.token ?? "", { late: true })).toBe(false);
      expect(await one.release(t, claim?.token ?? "", NOW)).toBe(false);
      expect(await other.writeState(t, "C1", taken?.token ?? "", { from: "taker" })).toBe(true);
      expect(await one.readState(t, "C1")).toEqual({ from: "taker" });
    });

    it("writes a state only under the claim that holds the workspace", async () => {
      const t = team();
      await one.enlist(t, NOW);
      expect(await one.writeState(t, "C1", "not-a-claim", { x: 1 })).toBe(false);
      const [claim] = mine(await one.claim(NOW, LEASE, 1000), [t]);
      expect(await one.writeState(t, "C1", claim?.token ?? "", { x: 2 })).toBe(true);
      expect(await one.writeState(t, "C2", claim?.token ?? "", { y: 3 })).toBe(true);
      await one.release(t, claim?.token ?? "", NOW + 1000);
      expect(await one.writeState(t, "C1", claim?.token ?? "", { x: 4 })).toBe(false);
      expect(await other.readState(t, "C1")).toEqual({ x: 2 });
      await other.deleteState(t, "C1");
      expect(await one.readState(t, "C1")).toBeUndefined();
      await one.drop(t);
      expect(await one.readState(t, "C2")).toBeUndefined();
      expect(mine(await one.claim(NOW + 99_000, LEASE, 1000), [t])).toEqual([]);
    });

    it("a nudge makes a workspace due at once; during a turn, due again right after it", async () => {
      const t = team();
      await one.enlist(t, NOW + 60_000);
      await other.nudge(t, NOW);
      const [claim] = mine(await one.claim(NOW, LEASE, 1000), [t]);
      expect(claim).toBeDefined();
      await other.nudge(t, NOW + 100); // a payment told while the turn reads
      await one.release(t, claim?.token ?? "", NOW + 60_000);
      expect(mine(await other.claim(NOW + 200, LEASE, 1000), [t])).toHaveLength(1);
      await other.nudge(`${t}-never-enlisted`, NOW);
      expect(mine(await other.claim(NOW + 300, LEASE, 1000), [`${t}-never-enlisted`])).toEqual([]);
    });

    it("never gives one workspace to two replicas claiming at the same moment", async () => {
      const teams = Array.from({ length: 40 }, () => team());
      for (const t of teams) await one.enlist(t, NOW);
      const rounds = await Promise.all(
        Array.from({ length: 8 }, (_, i) => ((i % 2 === 0 ? one : other) as FeedLedger).claim(NOW, LEASE, 7)),
      );
      const taken = rounds.flat().filter((claim) => teams.includes(claim.team));
      expect(new Set(taken.map((claim) => claim.team)).size).toBe(taken.length);
      expect(taken.length).toBe(40);
    });
  });
}
