import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { leasesFor } from "../../src/store/leases.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { dropPrefixTables } from "../support/watch-namespaces.js";

/** Each run its own keys and table: several runs may share one Redis or PostgreSQL server. */
const RUN = `t${randomBytes(5).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "kassa-leases-"));
/** Every engine (test/support/engines.ts): leases are engine code, a script or statement each. */
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite") });
sayWhatIsSkipped("store leases", ENGINES);
const opened: KeyvStore[] = [];
afterAll(async () => {
  // Redis' keys lapse by themselves; PostgreSQL's tables of this run go.
  for (const store of opened)
    if (store.native?.kind === "postgres") await dropPrefixTables(store.native.pool, RUN);
  await Promise.all(opened.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

for (const { name, url, skipped } of ENGINES) {
  describe.skipIf(skipped !== undefined)(`leases on ${name}`, () => {
    const open = async () => {
      const store = await openStore(url ?? "");
      opened.push(store);
      return leasesFor(store, RUN);
    };

    it("one owner at a time; the next asker learns who holds it; renewal only by the holder", async () => {
      const leases = await open();
      expect(await leases.acquire("export:T1", "a1", "U0ALEX 1700", 2000)).toEqual({ held: true });
      expect(await leases.acquire("export:T1", "b2", "U0BORIS 1800", 2000)).toEqual({
        held: false,
        info: "U0ALEX 1700",
      });
      expect(await leases.renew("export:T1", "b2", 2000)).toBe(false);
      expect(await leases.renew("export:T1", "a1", 2000)).toBe(true);
      // The holder asking again keeps it (a retry after a lost answer).
      expect(await leases.acquire("export:T1", "a1", "U0ALEX 1700", 2000)).toEqual({ held: true });
      // Another workspace is another lease.
      expect(await leases.acquire("export:T2", "b2", "U0BORIS 1800", 2000)).toEqual({ held: true });
      await leases.release("export:T1", "b2");
      expect((await leases.acquire("export:T1", "b2", "x", 2000)).held).toBe(false);
      await leases.release("export:T1", "a1");
      expect(await leases.acquire("export:T1", "b2", "U0BORIS 1800", 2000)).toEqual({ held: true });
    });

    it("a lapsed lease goes to the next asker, and its old holder can no longer renew it", async () => {
      const leases = await open();
      expect((await leases.acquire("history:T3", "old", "x", 150)).held).toBe(true);
      await sleep(300);
      expect((await leases.acquire("history:T3", "new", "y", 2000)).held).toBe(true);
      expect(await leases.renew("history:T3", "old", 2000)).toBe(false);
    });

    it("of many asking at once, exactly one gets it", async () => {
      const leases = await open();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) => leases.acquire("export:T4", `o${index}`, `U${index}`, 5000)),
      );
      expect(results.filter((result) => result.held)).toHaveLength(1);
    });
  });
}
