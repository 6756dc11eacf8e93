/**
 * A workspace's settings on the claim board (src/store/settings.ts): two admins changing two
 * settings at once on two replicas both keep theirs, on every engine (the 50 racing rounds);
 * settings kept before as a Keyv document are read until the first change moves them.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { settingsStoreFor } from "../../src/store/settings.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";

const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-settings-"));
const ENGINES = contractEngines({ sqlite: join(sqliteDir, "kassa.sqlite") });
sayWhatIsSkipped("workspace settings", ENGINES);

afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

describe.each(ENGINES)("workspace settings on $name", (engine) => {
  it.skipIf(engine.skipped !== undefined)(
    "lose no change when two replicas change two settings at once, 50 rounds",
    async () => {
      // Two replicas: each its own connection to the store, and settings remembered as the server does.
      const stores: KeyvStore[] = [await openStore(engine.url ?? ""), await openStore(engine.url ?? "")];
      try {
        const [one, two] = stores.map((store) => settingsStoreFor(store, { memoMs: 10_000 }));
        if (!one || !two) throw new Error("two replicas");
        for (let round = 0; round < 50; round += 1) {
          const team = `T0RACE${RUN}${round}`;
          // Each replica has read the settings before (a command), so its memory holds the old ones.
          await Promise.all([one.get(team), two.get(team)]);
          await Promise.all([
            one.update(team, { language: round % 2 ? "ru" : "en" }),
            two.update(team, { balanceVisibility: "everyone" }),
          ]);
          const stored = await settingsStoreFor(stores[0] as KeyvStore).get(team);
          expect(stored, `round ${round}`).toEqual({
            language: round % 2 ? "ru" : "en",
            balanceVisibility: "everyone",
          });
        }
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    },
    30_000,
  );

  it.skipIf(engine.skipped !== undefined)(
    "reads settings kept before as a Keyv document until the first change moves them",
    async () => {
      const store = await openStore(engine.url ?? "");
      try {
        const team = `T0OLD${RUN}`;
        await store.namespace("settings").set(team, { replyVisibility: "private", language: "ru" });
        const settings = settingsStoreFor(store);
        expect(await settings.get(team)).toEqual({ replyVisibility: "private", language: "ru" });
        expect(await settings.update(team, { invoiceCreators: "everyone" })).toEqual({
          replyVisibility: "private",
          language: "ru",
          invoiceCreators: "everyone",
        });
        await settings.update(team, { language: "en" });
        expect(await settingsStoreFor(store).get(team)).toEqual({
          replyVisibility: "private",
          language: "en",
          invoiceCreators: "everyone",
        });
        // Forgotten whole (an uninstall): the board's and the old document both.
        await settings.remove(team);
        expect(await settingsStoreFor(store).get(team)).toEqual({});
      } finally {
        await store.close();
      }
    },
  );
});
