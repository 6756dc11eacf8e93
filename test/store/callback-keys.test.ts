/**
 * One callback address at a time, on every engine STORE_URL accepts: SQLite always; Redis when
 * TEST_REDIS_URL is set; PostgreSQL when TEST_POSTGRES_URL is set (a backend without its variable is
 * skipped, and says so). Two "replicas" are two stores opened on the same database.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CALLBACK_KEYS_NAMESPACE,
  type CallbackKeys,
  callbackKeysFor,
} from "../../src/store/callback-keys.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";

/** Team ids of this run only: runs may share a Redis or PostgreSQL server. */
const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-callback-keys-"));
const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;

const BACKENDS = [
  { name: "sqlite", url: `sqlite://${join(sqliteDir, "kassa.sqlite")}`, skipped: undefined },
  { name: "redis", url: redisUrl, skipped: redisUrl ? undefined : "TEST_REDIS_URL not set" },
  { name: "postgres", url: postgresUrl, skipped: postgresUrl ? undefined : "TEST_POSTGRES_URL not set" },
] as const;

for (const backend of BACKENDS) {
  if (backend.skipped) console.log(`callback keys: skipping ${backend.name} (${backend.skipped})`);
}

afterAll(() => {
  rmSync(sqliteDir, { recursive: true, force: true });
});

for (const backend of BACKENDS) {
  const title = backend.skipped ? `${backend.name} (skipped: ${backend.skipped})` : backend.name;

  describe.skipIf(backend.skipped !== undefined)(`callback keys on ${title}`, () => {
    const stores: KeyvStore[] = [];
    const teams: string[] = [];
    let counter = 0;

    /** Two replicas on the same database, and a team of this run. */
    async function replicas(): Promise<{
      team: string;
      keys: [CallbackKeys, CallbackKeys];
      store: KeyvStore;
    }> {
      const [first, second] = [await openStore(backend.url ?? ""), await openStore(backend.url ?? "")];
      stores.push(first, second);
      counter += 1;
      const team = `T${RUN}${counter}`;
      teams.push(team);
      return { team, keys: [callbackKeysFor(first, 3000), callbackKeysFor(second, 3000)], store: first };
    }

    /** What the namespace holds for the team, read through Keyv as another version would. */
    async function entriesOf(store: KeyvStore, team: string): Promise<string[]> {
      const keyv = store.namespace(CALLBACK_KEYS_NAMESPACE);
      const found = new Set<string>();
      const iterator = keyv.iterator;
      if (!iterator) throw new Error("the store cannot list its keys");
      for await (const [entry, value] of iterator(keyv.namespace)) {
        if (value === team || entry === `team:${team}`) found.add(String(entry));
      }
      return [...found].sort();
    }

    afterAll(async () => {
      // Leave nothing behind on a shared server.
      const [first] = stores;
      if (first) for (const team of teams) await callbackKeysFor(first, 3000).remove(team);
      for (const store of stores) await store.close();
    });

    it("after rounds of simultaneous rotations by two replicas, exactly one address routes: one shown in that round", async () => {
      const { team, keys, store } = await replicas();
      const shown: string[] = [];
      for (let round = 0; round < 5; round += 1) {
        const answered: string[] = [];
        await Promise.all(
          Array.from({ length: 12 }, (_, admin) =>
            (keys[admin % 2] as CallbackKeys).rotate(team).then((key) => void answered.push(key)),
          ),
        );
        shown.push(...answered);
        const routing: string[] = [];
        for (const key of new Set(shown))
          if ((await keys[round % 2]?.teamOf(key)) === team) routing.push(key);
        expect(routing).toHaveLength(1);
        // The address each replica shows from now on is that one, and an admin of the round was shown
        // it. (Which answer reaches its admin last is the connections' timing, not Kassa's: on
        // PostgreSQL two pooled connections may answer out of the order they committed in.)
        expect(await keys[0].keyOf(team)).toBe(routing[0]);
        expect(await keys[1].keyOf(team)).toBe(routing[0]);
        expect(answered).toContain(routing[0]);
        expect(await entriesOf(store, team)).toEqual([`key:${routing[0]}`, `team:${team}`].sort());
      }
      // Admins rotating at the same moment share the new address instead of each replacing the other's.
      expect(new Set(shown).size).toBeLessThan(shown.length);
    });

    it("a first use on two replicas at once makes one address", async () => {
      const { team, keys, store } = await replicas();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (keys[i % 2] as CallbackKeys).keyOf(team)),
      );
      expect(new Set(answers).size).toBe(1);
      expect(await keys[1].teamOf(answers[0] ?? "")).toBe(team);
      expect(await entriesOf(store, team)).toHaveLength(2);
    });

    it("keeps an address an older version wrote, and never routes one it left behind", async () => {
      const { team, keys, store } = await replicas();
      const keyv = store.namespace(CALLBACK_KEYS_NAMESPACE);
      const [given, leftBehind] = ["G".repeat(31) + counter, "L".repeat(31) + counter];
      // As the previous version wrote them (through Keyv), including a route two racing rotations left.
      await keyv.set(`team:${team}`, given);
      await keyv.set(`key:${given}`, team);
      await keyv.set(`key:${leftBehind}`, team);
      expect(await keys[0].teamOf(given)).toBe(team);
      expect(await keys[1].keyOf(team)).toBe(given);
      expect(await keys[0].teamOf(leftBehind)).toBeUndefined();
      const rotated = await keys[1].rotate(team);
      expect(await keys[0].teamOf(given)).toBeUndefined();
      expect(await keys[0].teamOf(rotated)).toBe(team);
      // Keyv still reads what the atomic step wrote.
      expect(await keyv.get(`team:${team}`)).toBe(rotated);
    });

    it("uninstall and disconnect remove every address of the workspace, old routes included, even beside rotations", async () => {
      const { team, keys, store } = await replicas();
      const keyv = store.namespace(CALLBACK_KEYS_NAMESPACE);
      await keyv.set(`key:${"O".repeat(31)}${counter}`, team);
      const shown = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (keys[i % 2] as CallbackKeys).rotate(team)),
      );
      // What app_uninstalled, tokens_revoked (forgetWorkspace) and Disconnect call.
      await keys[1].remove(team);
      expect(await entriesOf(store, team)).toEqual([]);
      for (const key of shown) expect(await keys[0].teamOf(key)).toBeUndefined();
      // A later connect gets a new address; the old ones stay dead.
      const fresh = await keys[0].keyOf(team);
      expect(shown).not.toContain(fresh);
    });
  });
}
