/**
 * One callback address at a time. The keys are family logic on the claim board (which runs on every
 * engine in test/store/claims.test.ts), tested on the family's engines (test/support/engines.ts).
 * Two "replicas" are two stores opened on the same database.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CALLBACK_ROUTES,
  CALLBACK_TEAMS,
  type CallbackKeys,
  callbackKeysFor,
} from "../../src/store/callback-keys.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { claimTables, DEFAULT_PREFIX, redisClaimPrefix } from "../../src/store/schema/names.js";
import { familyEngines } from "../support/engines.js";

/** Team ids of this run only: runs may share a Redis or PostgreSQL server. */
const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-callback-keys-"));
const sqlite = join(sqliteDir, "kassa.sqlite");
/** The keys' own logic: on the family's engines. */
const BACKENDS = familyEngines({ sqlite });

afterAll(() => {
  rmSync(sqliteDir, { recursive: true, force: true });
});

/**
 * What the claim board under `prefix` holds for the team, read from the engine's own tables or keys:
 * "team:<id>" for its key, "key:<key>" for each route to it (whatever the keys: lost rotations' too).
 */
async function entriesOf(store: KeyvStore, team: string, prefix = DEFAULT_PREFIX): Promise<string[]> {
  const native = store.native;
  const found: string[] = [];
  const add = (row: { family: string; key: string }) =>
    found.push(row.family === CALLBACK_TEAMS ? `team:${row.key}` : `key:${row.key}`);
  const where = "(family = ? AND key = ?) OR (family = ? AND field = 'team' AND state = ?)";
  const args = [CALLBACK_TEAMS, team, CALLBACK_ROUTES, JSON.stringify(team)];
  if (native?.kind === "sqlite") {
    const rows = native.db.prepare(`SELECT family, key FROM ${claimTables(prefix).states} WHERE ${where}`);
    for (const row of rows.all(...args) as Array<{ family: string; key: string }>) add(row);
  } else if (native?.kind === "postgres") {
    let n = 0;
    const sql = `SELECT family, key FROM ${claimTables(prefix).states} WHERE ${where.replace(/\?/g, () => `$${++n}`)}`;
    for (const row of (await native.pool.query<{ family: string; key: string }>(sql, args)).rows) add(row);
  } else if (native?.kind === "redis") {
    const board = redisClaimPrefix(prefix);
    if ((await native.client.exists(`${board}:s:${CALLBACK_TEAMS}:${team}`)) === 1)
      add({ family: CALLBACK_TEAMS, key: team });
    const routes = `${board}:s:${CALLBACK_ROUTES}:`;
    for (const name of await native.client.keys(`${routes}*`))
      if ((await native.client.hGet(name, "team")) === JSON.stringify(team))
        add({ family: CALLBACK_ROUTES, key: name.slice(routes.length) });
  }
  return found.sort();
}

for (const backend of BACKENDS) {
  describe(`callback keys on ${backend.name}`, () => {
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

    it("uninstall and disconnect remove every address of the workspace, even beside rotations", async () => {
      const { team, keys, store } = await replicas();
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
