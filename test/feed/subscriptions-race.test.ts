/**
 * The feeds' subscriptions on the claim board (src/feed/store.ts): two admins subscribing two
 * channels at once on two replicas both get their feed, on every engine (50 racing rounds); the
 * feed lists exactly the registers with feeds; a list kept before in Keyv is read until a change moves it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { FeedStore } from "../../src/feed/store.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const RUN = randomBytes(4).toString("hex").toUpperCase();
const PREFIX = `kfs_${RUN.toLowerCase()}`;
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-feed-subs-"));
const ENGINES = contractEngines({ sqlite: join(sqliteDir, "kassa.sqlite") });
sayWhatIsSkipped("feed subscriptions", ENGINES);

afterAll(async () => {
  for (const engine of ENGINES)
    if (engine.url && engine.name !== "sqlite") await dropWatchNamespace(engine.url, PREFIX);
  rmSync(sqliteDir, { recursive: true, force: true });
});

async function feedsOf(store: KeyvStore): Promise<FeedStore> {
  const ledger = await openFeedLedger(store, PREFIX);
  return new FeedStore(store.namespace(`feedsubs${RUN}`), ledger, store.namespace(`feedcards${RUN}`), () =>
    openClaimBoard(store, PREFIX),
  );
}

async function listed(feeds: FeedStore): Promise<string[]> {
  const teams: string[] = [];
  for await (const team of feeds.teams()) teams.push(team);
  return teams.sort();
}

describe.each(ENGINES)("feed subscriptions on $name", (engine) => {
  it.skipIf(engine.skipped !== undefined)(
    "lose no channel when two replicas subscribe two at once, 50 rounds; unsubscribing both unlists the register",
    async () => {
      const stores: KeyvStore[] = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      try {
        const [one, two] = await Promise.all(stores.map(feedsOf));
        if (!one || !two) throw new Error("two replicas");
        const teams: string[] = [];
        for (let round = 0; round < 50; round += 1) {
          const team = `T0FS${RUN}${round}`;
          teams.push(team);
          const at = { by: "U0ADMIN", now: 1_000 + round };
          await Promise.all([
            one.subscribe(team, { channel: "C0ONE", ...at }),
            two.subscribe(team, { channel: "C0TWO", ...at }),
          ]);
          const channels = (await one.channels(team)).map((entry) => entry.channel).sort();
          expect(channels, `round ${round}`).toEqual(["C0ONE", "C0TWO"]);
        }
        expect(await listed(two)).toEqual(teams.sort());
        const [first = ""] = teams;
        expect(await Promise.all([one.unsubscribe(first, "C0ONE"), two.unsubscribe(first, "C0TWO")])).toEqual(
          [true, true],
        );
        expect(await one.channels(first)).toEqual([]);
        expect(await listed(one)).not.toContain(first);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    },
    30_000,
  );

  it.skipIf(engine.skipped !== undefined)(
    "reads a list kept before in Keyv until a change moves it",
    async () => {
      const store = await openStore(engine.url ?? "");
      try {
        const team = `T0OLDFS${RUN}`;
        const old = {
          channel: "C0OLD",
          mode: "paid",
          filter: { events: ["paid"] },
          mentions: null,
          by: "U0A",
          since: 5,
          digest: null,
        };
        await store.namespace(`feedsubs${RUN}`).set(team, { channels: [old] });
        const feeds = await feedsOf(store);
        expect((await feeds.channels(team)).map((entry) => entry.channel)).toEqual(["C0OLD"]);
        expect(await listed(feeds)).toContain(team);
        expect(await feeds.subscribe(team, { channel: "C0OLD", by: "U0B", now: 9 })).toBe("changed");
        expect(await feeds.channel(team, "C0OLD")).toMatchObject({ since: 5, by: "U0B" });
        expect(await feeds.setDigest(team, "C0OLD", { at: "09:00", zone: "Europe/Moscow", since: 9 })).toBe(
          true,
        );
        expect(await feeds.setDigest(team, "C0NONE", null)).toBe(false);
        await feeds.removeTeam(team);
        expect(await feeds.channels(team)).toEqual([]);
        expect(await listed(feeds)).not.toContain(team);
      } finally {
        await store.close();
      }
    },
  );
});
