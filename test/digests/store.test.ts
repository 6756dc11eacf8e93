/**
 * The digest lists on the claim board (src/digests/store.ts): two admins setting two digests at once
 * on two replicas both keep theirs, on every engine (50 racing rounds); the runner lists exactly the
 * workspaces with digests; a list kept before in Keyv is read until the first change moves it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PeriodDigest } from "../../src/digests/model.js";
import { DigestStore } from "../../src/digests/store.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";

const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-digest-lists-"));
const ENGINES = contractEngines({ sqlite: join(sqliteDir, "kassa.sqlite") });
sayWhatIsSkipped("digest lists", ENGINES);

afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

const digestsOf = (store: KeyvStore) =>
  new DigestStore(store.namespace(`digests${RUN}`), store.namespace(`digeststate${RUN}`), () =>
    openClaimBoard(store),
  );

function weekly(channel: string): PeriodDigest {
  return { channel, cadence: "weekly", at: "09:00", zone: "Europe/Moscow", since: 0, by: "U0ADMIN" };
}

async function listed(digests: DigestStore): Promise<string[]> {
  const teams: string[] = [];
  for await (const team of digests.teams()) teams.push(team);
  return teams.sort();
}

describe.each(ENGINES)("digest lists on $name", (engine) => {
  it.skipIf(engine.skipped !== undefined)(
    "lose no digest when two replicas set two at once, 50 rounds, and list the workspace while it has one",
    async () => {
      const stores: KeyvStore[] = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      try {
        const [one, two] = stores.map(digestsOf);
        if (!one || !two) throw new Error("two replicas");
        const teams: string[] = [];
        for (let round = 0; round < 50; round += 1) {
          const team = `T0DIG${RUN}${round}`;
          teams.push(team);
          await Promise.all([one.set(team, weekly("C0ONE")), two.set(team, weekly("C0TWO"))]);
          const channels = (await one.list(team)).map((digest) => digest.channel).sort();
          expect(channels, `round ${round}`).toEqual(["C0ONE", "C0TWO"]);
        }
        expect(await listed(one)).toEqual(teams.sort());
        // One removed on each replica at once: none left, and the workspace no longer listed.
        const [first] = teams;
        await Promise.all([
          one.remove(first ?? "", "C0ONE", "weekly"),
          two.remove(first ?? "", "C0TWO", "weekly"),
        ]);
        expect(await one.list(first ?? "")).toEqual([]);
        expect(await listed(two)).not.toContain(first);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    },
    30_000,
  );

  it.skipIf(engine.skipped !== undefined)(
    "reads a list kept before as a Keyv document until a change moves it",
    async () => {
      const store = await openStore(engine.url ?? "");
      try {
        const team = `T0OLDDIG${RUN}`;
        await store.namespace(`digests${RUN}`).set(team, { digests: [weekly("C0OLD")] });
        const digests = digestsOf(store);
        expect((await digests.list(team)).map((digest) => digest.channel)).toEqual(["C0OLD"]);
        expect(await listed(digests)).toContain(team);
        await digests.set(team, weekly("C0NEW"));
        expect((await digestsOf(store).list(team)).map((digest) => digest.channel)).toEqual([
          "C0OLD",
          "C0NEW",
        ]);
        expect(await listed(digests)).toContain(team);
        await digests.removeTeam(team);
        expect(await digestsOf(store).list(team)).toEqual([]);
        expect(await listed(digests)).not.toContain(team);
      } finally {
        await store.close();
      }
    },
  );
});
