/**
 * The exports owed to their askers, the claim board's family `export-owed`: in memory and on SQLite,
 * as family logic on the board (test/support/engines.ts; the board itself runs on every engine in
 * test/store/claims.test.ts, the family's upgrade step in test/store/schema-export-owed.test.ts). Two
 * boards on two connections stand for two replicas. Each run has its own prefix, and each test its
 * own jobs.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type OwedClaim,
  type OwedExport,
  OwedExports,
  OwedNote,
  owedExportsFor,
  tellLapsed,
} from "../../src/exports/owed.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-owed-"));
const ENGINES = familyEngines({ sqlite: join(dir, "kassa.sqlite"), memory: true });
const PREFIX = `ko_${run}`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = 1_800_000_000_000;
const LEASE = 10_000;
const TELL_CLAIM = 5 * 60_000;
const DAY = 24 * 60 * 60_000;
const entry = (team: string, ts?: string): OwedExport => ({
  v: 1,
  team,
  user: "U0ASKER",
  channel: "D0ASKER",
  lang: "en",
  title: "the last 30 days",
  format: "CSV",
  ...(ts ? { ts } : {}),
});

for (const engine of ENGINES) {
  describe(`exports owed on the claim board, ${engine.name}`, () => {
    let stores: KeyvStore[] = [];
    let one: OwedExports;
    let other: OwedExports;
    let count = 0;
    const job = () => {
      count += 1;
      return `J${run}${engine.name.slice(0, 2)}${count}`;
    };
    const mine = (claims: OwedClaim[], jobs: string[]) =>
      claims.filter((claim) => jobs.includes(claim.jobId));
    /** An export started at NOW, its entry written. */
    const started = async (jobId: string, team = "T0OWED") => {
      expect(await one.open(jobId, NOW, LEASE)).toBe(true);
      expect(await one.write(jobId, entry(team))).toBe(true);
    };

    beforeAll(async () => {
      if (engine.name === "memory") {
        one = new OwedExports(memoryClaimBoard());
        other = one;
        return;
      }
      stores = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      one = await owedExportsFor(stores[0] as KeyvStore, PREFIX);
      other = await owedExportsFor(stores[1] as KeyvStore, PREFIX);
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
    });

    it("leaves a renewed export alone; once lapsed, one replica claims it, once, and its writes are refused", async () => {
      const jobId = job();
      await started(jobId);
      expect(mine(await other.claimLapsed(NOW + LEASE - 1), [jobId])).toEqual([]);
      expect(await one.renew(jobId, NOW + 5000, LEASE)).toBe(true);
      expect(mine(await other.claimLapsed(NOW + LEASE + 1), [jobId])).toEqual([]);

      const lapsed = NOW + 5000 + LEASE;
      const [a, b] = await Promise.all([one.claimLapsed(lapsed), other.claimLapsed(lapsed)]);
      const claims = [...mine(a, [jobId]), ...mine(b, [jobId])];
      expect(claims.map((claim) => [claim.jobId, claim.entry])).toEqual([[jobId, entry("T0OWED")]]);
      // The export's replica, back too late, no longer holds it.
      expect(await one.renew(jobId, lapsed, LEASE)).toBe(false);
      expect(await one.write(jobId, entry("T0OWED", "1.2"))).toBe(false);

      await one.told(claims[0] as OwedClaim);
      expect(mine(await other.claimLapsed(lapsed + TELL_CLAIM + 1), [jobId])).toEqual([]);
    });

    it("owes nothing once settled; one left without a word is due at once", async () => {
      const [settled, left] = [job(), job()];
      await started(settled);
      await started(left);
      await one.settle(settled);
      await one.leave(left, NOW + 1);
      const claims = mine(await other.claimLapsed(NOW + 2), [settled, left]);
      expect(claims.map((claim) => claim.jobId)).toEqual([left]);
      await other.told(claims[0] as OwedClaim);
      expect(mine(await other.claimLapsed(NOW + DAY), [settled, left])).toEqual([]);
    });

    it("with only: the workspace's lapsed exports but the caller's; another workspace's stays due for the sweep", async () => {
      const [ours, theirs, running] = [job(), job(), job()];
      await started(ours, "T0ONLY");
      await started(theirs, "T0OTHER");
      const now = NOW + LEASE;
      expect(await one.open(running, now, LEASE)).toBe(true);
      expect(await one.write(running, entry("T0ONLY"))).toBe(true);
      const only = mine(await other.claimLapsed(now, { team: "T0ONLY", except: running }), [
        ours,
        theirs,
        running,
      ]);
      expect(only.map((claim) => claim.jobId)).toEqual([ours]);
      const swept = mine(await other.claimLapsed(now + 1), [ours, theirs, running]);
      expect(swept.map((claim) => claim.jobId)).toEqual([theirs]);
      for (const claim of [...only, ...swept]) await other.told(claim);
      await one.settle(running);
    });

    it("tries again when telling failed, once the claim lapses, and gives up a day after the first failure", async () => {
      const jobId = job();
      await started(jobId);
      const first = mine(await other.claimLapsed(NOW + LEASE), [jobId]);
      expect(first).toHaveLength(1);
      expect(await other.failed(first[0] as OwedClaim, NOW + LEASE)).toBe(false);
      expect(mine(await one.claimLapsed(NOW + LEASE + 1), [jobId])).toEqual([]);
      const later = NOW + LEASE + TELL_CLAIM;
      const second = mine(await one.claimLapsed(later), [jobId]);
      expect(second.map((claim) => claim.entry)).toEqual([entry("T0OWED")]);
      expect(await one.failed(second[0] as OwedClaim, later)).toBe(false);
      const third = mine(await other.claimLapsed(later + TELL_CLAIM), [jobId]);
      expect(await other.failed(third[0] as OwedClaim, NOW + LEASE + DAY)).toBe(true);
      expect(mine(await one.claimLapsed(NOW + 2 * DAY), [jobId])).toEqual([]);
    });

    it("forgets an item whose entry was never written (its replica died in between)", async () => {
      const jobId = job();
      expect(await one.open(jobId, NOW, LEASE)).toBe(true);
      expect(mine(await other.claimLapsed(NOW + LEASE), [jobId])).toEqual([]);
      expect(mine(await other.claimLapsed(NOW + LEASE + TELL_CLAIM + 1), [jobId])).toEqual([]);
    });
  });
}

describe("an export's note and telling its asker (in memory)", () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  type Call = { method: string; args: Record<string, unknown> };
  /** A client whose chat.update and chat.postMessage only record what they were asked. */
  const slackClient = (calls: Call[], fail = false) => {
    const client = new webApi.WebClient(undefined, { slackApiUrl: "http://127.0.0.1:9/api/" });
    client.chat.update = async (args) => {
      if (fail) throw new Error("ratelimited");
      calls.push({ method: "update", args: { ...args } });
      return { ok: true };
    };
    client.chat.postMessage = async (args) => {
      calls.push({ method: "postMessage", args: { ...args } });
      return { ok: true };
    };
    return client;
  };

  it("writes the entry, its progress message and renewals in order, and settles it", async () => {
    const owed = new OwedExports(memoryClaimBoard());
    const at = Date.now();
    const note = new OwedNote(owed, "Jnote", entry("T0NOTE"), { at, ms: LEASE }, logger);
    await note.write();
    void note.posted("1700000000.000100");
    await note.beat(at + 3000);
    // Not lapsed while renewed; once lapsed, owed with its progress message.
    expect(await owed.claimLapsed(at + LEASE + 1)).toEqual([]);
    const [claim] = await owed.claimLapsed(at + 3000 + LEASE);
    expect(claim?.entry).toEqual(entry("T0NOTE", "1700000000.000100"));
    await owed.told(claim as OwedClaim);

    const settled = new OwedNote(owed, "Jsettled", entry("T0NOTE"), { at, ms: LEASE }, logger);
    await settled.write();
    await settled.settle();
    // A renewal already on its way when the export ended does nothing, and says nothing.
    await settled.beat(at + 1000);
    expect(await owed.claimLapsed(at + DAY)).toEqual([]);
    expect(lines.filter((line) => line.level === "warn")).toEqual([]);
  });

  it("leaves an export that stopped without a word due at once, with what was written before", async () => {
    const owed = new OwedExports(memoryClaimBoard());
    const at = Date.now();
    const note = new OwedNote(owed, "Jleft", entry("T0NOTE"), { at, ms: LEASE }, logger);
    void note.write();
    void note.posted("3.3");
    await note.leave();
    const [claim] = await owed.claimLapsed(Date.now());
    expect(claim?.entry).toEqual(entry("T0NOTE", "3.3"));
  });

  it("tells each asker once: in place of the progress message, or as a new message; a failure stays owed", async () => {
    const owed = new OwedExports(memoryClaimBoard());
    for (const [jobId, ts] of [
      ["Jposted", "1.1"],
      ["Jnew", undefined],
    ] as const) {
      await owed.open(jobId, NOW, LEASE);
      await owed.write(jobId, entry("T0TELL", ts));
    }
    const calls: Call[] = [];
    await tellLapsed(owed, await owed.claimLapsed(NOW + LEASE), async () => slackClient(calls), logger);
    // Oldest due first, then by key: Jnew before Jposted.
    expect(calls.map((call) => [call.method, call.args.channel, call.args.ts])).toEqual([
      ["postMessage", "D0ASKER", undefined],
      ["update", "D0ASKER", "1.1"],
    ]);
    expect(JSON.stringify(calls[1]?.args.blocks)).toContain("stopped");
    expect(lines.filter((line) => line.outcome === "export_lapsed")).toHaveLength(2);
    expect(await owed.claimLapsed(NOW + LEASE + TELL_CLAIM)).toEqual([]);

    await owed.open("Jfails", NOW, LEASE);
    await owed.write("Jfails", entry("T0TELL", "2.2"));
    await tellLapsed(owed, await owed.claimLapsed(NOW + LEASE), async () => slackClient([], true), logger);
    expect(lines.some((line) => line.msg === "could not tell the asker an export stopped")).toBe(true);
    const again = await owed.claimLapsed(NOW + LEASE + TELL_CLAIM);
    expect(again.map((claim) => claim.jobId)).toEqual(["Jfails"]);
    // Uninstalled since: forgotten, nobody told.
    await tellLapsed(owed, again, async () => undefined, logger);
    expect(await owed.claimLapsed(NOW + DAY)).toEqual([]);
  });
});
