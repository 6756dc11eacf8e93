import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import {
  type ClaimBoard,
  type ClaimedItem,
  type Enlisting,
  type KeyClaim,
  parseState,
  type Release,
  stateText,
} from "./board.js";

type Tables = { items: string; states: string };

/**
 * The claim board in the SQLite file, on the store's control connection. Every step is one
 * statement or one transaction, which SQLite runs alone even when several processes share the file.
 */
export function sqliteClaimBoard(db: Database.Database, tables: Tables): ClaimBoard {
  return { ...sqliteSchedule(db, tables), ...sqliteStates(db, tables) };
}

type QueueSteps = "enlist" | "claimDue" | "nudge";
type RemovalSteps = "sweep" | "drop";
type HoldSteps = "claimKey" | "renew" | "release";

/** The items: their schedule and claims. */
function sqliteSchedule(db: Database.Database, tables: Tables): Omit<ClaimBoard, StateSteps> {
  return { ...sqliteQueue(db, tables), ...sqliteRemovals(db, tables), ...sqliteHolds(db, tables) };
}

/** The items' due times: enlisted, claimed when due (oldest first), nudged. */
function sqliteQueue(db: Database.Database, tables: Tables): Pick<ClaimBoard, QueueSteps> {
  const { items } = tables;
  const enlist = db.prepare<[string, string, number]>(
    `INSERT INTO ${items} (family, key, due_at) VALUES (?, ?, ?) ON CONFLICT (family, key) DO NOTHING`,
  );
  const due = db.prepare<[string, number, number, number], { key: string }>(
    `SELECT key FROM ${items} WHERE family = ? AND due_at <= ? AND lease_until <= ?
     ORDER BY due_at, key LIMIT ?`,
  );
  const take = db.prepare<[string, number, string, string]>(
    `UPDATE ${items} SET owner = ?, lease_until = ?, nudged = 0 WHERE family = ? AND key = ?`,
  );
  const claimDue = db.transaction((family: string, now: number, leaseMs: number, limit: number) => {
    const base = randomUUID();
    return due.all(family, now, now, limit).map((row, index): ClaimedItem => {
      const token = `${base}:${index}`;
      take.run(token, now + leaseMs, family, row.key);
      return { key: row.key, token };
    });
  });
  const nudge = db.prepare<[number, number, number, string, string]>(
    `UPDATE ${items} SET due_at = MIN(due_at, ?), nudged = CASE WHEN lease_until > ? THEN ? ELSE 0 END
     WHERE family = ? AND key = ?`,
  );
  return {
    async enlist(family, key, dueAt) {
      enlist.run(family, key, dueAt);
    },
    async claimDue(family, now, leaseMs, limit) {
      return limit > 0 ? claimDue(family, now, leaseMs, limit) : [];
    },
    async nudge(family, key, now) {
      nudge.run(now, now, now, family, key);
    },
  };
}

/** Items removed: those whose claim lapsed with no release (swept), or one with its states (dropped). */
function sqliteRemovals(db: Database.Database, tables: Tables): Pick<ClaimBoard, RemovalSteps> {
  const { items, states } = tables;
  const sweep = db.prepare<[string, number]>(
    `DELETE FROM ${items} WHERE family = ? AND owner <> '' AND lease_until <= ?`,
  );
  const forgetStates = db.prepare<[string, string]>(`DELETE FROM ${states} WHERE family = ? AND key = ?`);
  const forgetItem = db.prepare<[string, string]>(`DELETE FROM ${items} WHERE family = ? AND key = ?`);
  const drop = db.transaction((family: string, key: string) => {
    forgetStates.run(family, key);
    forgetItem.run(family, key);
  });
  return {
    async sweep(family, now) {
      return sweep.run(family, now).changes;
    },
    async drop(family, key) {
      drop(family, key);
    },
  };
}

/** The claims of one named item: taken, renewed, released (with the next due time, or forgotten). */
function sqliteHolds(db: Database.Database, tables: Tables): Pick<ClaimBoard, HoldSteps> {
  const { items, states } = tables;
  // Taken when free, lapsed, or already this token's: one statement, whichever process runs it first.
  const takeKey = db.prepare<[string, string, number, string, number, string, number]>(
    `INSERT INTO ${items} (family, key, due_at, owner, lease_until, info) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (family, key) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until,
       info = excluded.info, nudged = 0
     WHERE ${items}.lease_until <= ? OR ${items}.owner = excluded.owner RETURNING key`,
  );
  const holder = db.prepare<[string, string, number], { info: string }>(
    `SELECT info FROM ${items} WHERE family = ? AND key = ? AND lease_until > ?`,
  );
  const renew = db.prepare<[number, string, string, string, number]>(
    `UPDATE ${items} SET lease_until = ? WHERE family = ? AND key = ? AND owner = ? AND lease_until > ?`,
  );
  // Nudged during the claim: due_at already holds the nudge's time, so it stays due at once.
  const release = db.prepare<[number, number, string, string, string]>(
    `UPDATE ${items} SET owner = '', lease_until = 0, info = '',
       due_at = CASE WHEN nudged > 0 THEN MIN(due_at, ?) ELSE ? END, nudged = 0
     WHERE family = ? AND key = ? AND owner = ?`,
  );
  const forgetStates = db.prepare<[string, string]>(`DELETE FROM ${states} WHERE family = ? AND key = ?`);
  const forgetOwned = db.prepare<[string, string, string]>(
    `DELETE FROM ${items} WHERE family = ? AND key = ? AND owner = ?`,
  );
  const releaseForget = db.transaction((family: string, key: string, token: string) => {
    if (forgetOwned.run(family, key, token).changes !== 1) return false;
    forgetStates.run(family, key);
    return true;
  });
  return {
    async claimKey(family, key, token, now, leaseMs, info = ""): Promise<KeyClaim> {
      const until = now + leaseMs;
      if (takeKey.all(family, key, until, token, until, info, now).length === 1) return { held: true };
      return { held: false, info: holder.get(family, key, now)?.info || undefined };
    },
    async renew(family, key, token, now, leaseMs) {
      return renew.run(now + leaseMs, family, key, token, now).changes === 1;
    },
    async release(family, key, token, next: Release) {
      if (next === "forget") return releaseForget(family, key, token);
      return release.run(next.dueAt, next.dueAt, family, key, token).changes === 1;
    },
  };
}

type StateSteps = "readState" | "writeState" | "deleteState" | "swapState" | "enlistWith";

/** The items' states: written under a claim, or swapped (compare-and-set) without one. */
function sqliteStates(db: Database.Database, tables: Tables): Pick<ClaimBoard, StateSteps> {
  const { items, states } = tables;
  const read = db.prepare<[string, string, string], { state: string }>(
    `SELECT state FROM ${states} WHERE family = ? AND key = ? AND field = ?`,
  );
  const write = db.prepare<[string, string, string, string, string, string, string]>(
    `INSERT INTO ${states} (family, key, field, state)
     SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${items} WHERE family = ? AND key = ? AND owner = ?)
     ON CONFLICT (family, key, field) DO UPDATE SET state = excluded.state`,
  );
  const deleteState = db.prepare<[string, string, string]>(
    `DELETE FROM ${states} WHERE family = ? AND key = ? AND field = ?`,
  );
  // swapState: each case one statement, its condition checked as it writes.
  const swapInsert = db.prepare<[string, string, string, string]>(
    `INSERT INTO ${states} (family, key, field, state) VALUES (?, ?, ?, ?)
     ON CONFLICT (family, key, field) DO NOTHING`,
  );
  const swapUpdate = db.prepare<[string, string, string, string, string]>(
    `UPDATE ${states} SET state = ? WHERE family = ? AND key = ? AND field = ? AND state = ?`,
  );
  const swapDelete = db.prepare<[string, string, string, string]>(
    `DELETE FROM ${states} WHERE family = ? AND key = ? AND field = ? AND state = ?`,
  );
  const enlistItem = db.prepare<[string, string, number]>(
    `INSERT INTO ${items} (family, key, due_at) VALUES (?, ?, ?) ON CONFLICT (family, key) DO NOTHING`,
  );
  const putState = db.prepare<[string, string, string, string]>(
    `INSERT INTO ${states} (family, key, field, state) VALUES (?, ?, ?, ?)
     ON CONFLICT (family, key, field) DO UPDATE SET state = excluded.state`,
  );
  const enlistWith = db.transaction((item: Enlisting) => {
    enlistItem.run(item.family, item.key, item.dueAt);
    putState.run(item.family, item.key, item.field, JSON.stringify(item.state));
  });
  const swap = (family: string, key: string, field: string, expected: unknown, replacement: unknown) => {
    const [was, next] = [stateText(expected), stateText(replacement)];
    if (was === undefined && next === undefined) return read.get(family, key, field) === undefined;
    if (was === undefined) return swapInsert.run(family, key, field, next ?? "").changes === 1;
    if (next === undefined) return swapDelete.run(family, key, field, was).changes === 1;
    return swapUpdate.run(next, family, key, field, was).changes === 1;
  };
  // With an item along: the swap and the item's enlisting in one transaction.
  const swapAlong = db.transaction(
    (
      family: string,
      key: string,
      field: string,
      expected: unknown,
      replacement: unknown,
      along: Enlisting,
    ) => {
      const swapped = swap(family, key, field, expected, replacement);
      if (swapped) enlistWith(along);
      return swapped;
    },
  );
  return {
    async readState(family, key, field) {
      const row = read.get(family, key, field);
      return row === undefined ? undefined : parseState(row.state);
    },
    async writeState(family, key, field, token, state) {
      return write.run(family, key, field, JSON.stringify(state), family, key, token).changes === 1;
    },
    async deleteState(family, key, field) {
      deleteState.run(family, key, field);
    },
    async swapState(family, key, field, expected, replacement, along) {
      if (along) return swapAlong.immediate(family, key, field, expected, replacement, along);
      return swap(family, key, field, expected, replacement);
    },
    async enlistWith(item) {
      enlistWith.immediate(item);
    },
  };
}
