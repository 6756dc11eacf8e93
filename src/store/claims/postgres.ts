import { randomUUID } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import {
  type ClaimBoard,
  type Enlisting,
  type KeyClaim,
  parseState,
  type Release,
  stateText,
} from "./board.js";

type Tables = { items: string; states: string };

const claimedSchema = z.array(z.object({ key: z.string(), owner: z.string(), due_at: z.coerce.number() }));
const infoSchema = z.array(z.object({ info: z.string() }));
const stateSchema = z.array(z.object({ state: z.string() }));
const countSchema = z.array(z.object({ n: z.number() }));

/** An item enlisted along a write, as the enlisting CTEs' parameters. */
const alongValues = (item: Enlisting) => [
  item.family,
  item.key,
  item.dueAt,
  item.field,
  JSON.stringify(item.state),
];

/**
 * The claim board in PostgreSQL: each step is one statement. A claim takes due rows with
 * FOR UPDATE SKIP LOCKED (two replicas never take the same one); a state is written only through a
 * FOR SHARE lock on its item's row still naming the writer's token, so a claim that commits first
 * makes the late write find no row, and one that comes after waits for it.
 */
export function postgresClaimBoard(pool: pg.Pool, tables: Tables): ClaimBoard {
  return { ...postgresSchedule(pool, tables), ...postgresStates(pool, tables) };
}

type StateSteps = "readState" | "writeState" | "deleteState" | "swapState" | "enlistWith";

type QueueSteps = "enlist" | "claimDue" | "nudge" | "sweep" | "drop";
type HoldSteps = "claimKey" | "renew" | "release";

/** The items: their schedule and claims. */
function postgresSchedule(pool: pg.Pool, tables: Tables): Omit<ClaimBoard, StateSteps> {
  return { ...postgresQueue(pool, tables), ...postgresHolds(pool, tables) };
}

/** The items' due times: enlisted, claimed when due (oldest first), nudged, swept, dropped. */
function postgresQueue(pool: pg.Pool, tables: Tables): Pick<ClaimBoard, QueueSteps> {
  const { items, states } = tables;
  return {
    async enlist(family, key, dueAt) {
      await pool.query(
        `INSERT INTO ${items} (family, key, due_at) VALUES ($1, $2, $3) ON CONFLICT (family, key) DO NOTHING`,
        [family, key, dueAt],
      );
    },
    async claimDue(family, now, leaseMs, limit) {
      if (limit <= 0) return [];
      const result = await pool.query(
        `WITH due AS (
           SELECT key, due_at FROM ${items} WHERE family = $1 AND due_at <= $2 AND lease_until <= $2
           ORDER BY due_at, key LIMIT $4 FOR UPDATE SKIP LOCKED)
         UPDATE ${items} AS t SET owner = $5 || ':' || t.key, lease_until = $2 + $3, nudged = 0
         FROM due WHERE t.family = $1 AND t.key = due.key RETURNING t.key, t.owner, due.due_at`,
        [family, now, leaseMs, limit, randomUUID()],
      );
      // RETURNING keeps no order: oldest due first again.
      return claimedSchema
        .parse(result.rows)
        .sort((a, b) => a.due_at - b.due_at || (a.key < b.key ? -1 : 1))
        .map((row) => ({ key: row.key, token: row.owner }));
    },
    async nudge(family, key, now) {
      await pool.query(
        `UPDATE ${items} SET due_at = LEAST(due_at, $3), nudged = CASE WHEN lease_until > $3 THEN $3 ELSE 0 END
         WHERE family = $1 AND key = $2`,
        [family, key, now],
      );
    },
    async sweep(family, now) {
      const result = await pool.query(
        `DELETE FROM ${items} WHERE family = $1 AND owner <> '' AND lease_until <= $2`,
        [family, now],
      );
      return result.rowCount ?? 0;
    },
    async drop(family, key) {
      await pool.query(
        `WITH gone AS (DELETE FROM ${states} WHERE family = $1 AND key = $2)
         DELETE FROM ${items} WHERE family = $1 AND key = $2`,
        [family, key],
      );
    },
  };
}

/** The claims of one named item: taken, renewed, released (with the next due time, or forgotten). */
function postgresHolds(pool: pg.Pool, tables: Tables): Pick<ClaimBoard, HoldSteps> {
  const { items, states } = tables;
  return {
    async claimKey(family, key, token, now, leaseMs, info = ""): Promise<KeyClaim> {
      const until = now + leaseMs;
      const taken = await pool.query(
        `INSERT INTO ${items} (family, key, due_at, owner, lease_until, info) VALUES ($1, $2, $3, $4, $3, $5)
         ON CONFLICT (family, key) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until,
           info = excluded.info, nudged = 0
         WHERE ${items}.lease_until <= $6 OR ${items}.owner = excluded.owner RETURNING key`,
        [family, key, until, token, info, now],
      );
      if (taken.rowCount === 1) return { held: true };
      const current = await pool.query(
        `SELECT info FROM ${items} WHERE family = $1 AND key = $2 AND lease_until > $3`,
        [family, key, now],
      );
      return { held: false, info: infoSchema.parse(current.rows)[0]?.info || undefined };
    },
    async renew(family, key, token, now, leaseMs) {
      const result = await pool.query(
        `UPDATE ${items} SET lease_until = $4 WHERE family = $1 AND key = $2 AND owner = $3 AND lease_until > $5`,
        [family, key, token, now + leaseMs, now],
      );
      return result.rowCount === 1;
    },
    async release(family, key, token, next: Release) {
      if (next === "forget") {
        const result = await pool.query(
          `WITH gone AS (DELETE FROM ${items} WHERE family = $1 AND key = $2 AND owner = $3 RETURNING key),
             states AS (DELETE FROM ${states} s USING gone WHERE s.family = $1 AND s.key = gone.key)
           SELECT count(*)::int AS n FROM gone`,
          [family, key, token],
        );
        return z.array(z.object({ n: z.number() })).parse(result.rows)[0]?.n === 1;
      }
      // Nudged during the claim: due_at already holds the nudge's time, so it stays due at once.
      const result = await pool.query(
        `UPDATE ${items} SET owner = '', lease_until = 0, info = '', nudged = 0,
           due_at = CASE WHEN nudged > 0 THEN LEAST(due_at, $4) ELSE $4 END
         WHERE family = $1 AND key = $2 AND owner = $3`,
        [family, key, token, next.dueAt],
      );
      return result.rowCount === 1;
    },
  };
}

/** CTEs enlisting an item with its state (params $n..$n+4, alongValues) when `condition` holds. */
function enlistingCtes({ items, states }: Tables, n: number, condition: string): string {
  return `enlisted AS (
      INSERT INTO ${items} (family, key, due_at) SELECT $${n}::text, $${n + 1}::text, $${n + 2}::bigint
      WHERE ${condition} ON CONFLICT (family, key) DO NOTHING),
    put AS (
      INSERT INTO ${states} (family, key, field, state) SELECT $${n}::text, $${n + 1}::text, $${n + 3}::text, $${n + 4}::text
      WHERE ${condition} ON CONFLICT (family, key, field) DO UPDATE SET state = excluded.state)`;
}

/** The items' states: written under a claim, or swapped (compare-and-set) without one. */
function postgresStates(pool: pg.Pool, tables: Tables): Pick<ClaimBoard, StateSteps> {
  const { items, states } = tables;
  return {
    async readState(family, key, field) {
      const result = await pool.query(
        `SELECT state FROM ${states} WHERE family = $1 AND key = $2 AND field = $3`,
        [family, key, field],
      );
      const row = stateSchema.parse(result.rows)[0];
      return row === undefined ? undefined : parseState(row.state);
    },
    async writeState(family, key, field, token, state) {
      const result = await pool.query(
        `WITH item AS (SELECT 1 FROM ${items} WHERE family = $1 AND key = $2 AND owner = $5 FOR SHARE)
         INSERT INTO ${states} (family, key, field, state) SELECT $1, $2, $3, $4 FROM item
         ON CONFLICT (family, key, field) DO UPDATE SET state = excluded.state`,
        [family, key, field, JSON.stringify(state), token],
      );
      return result.rowCount === 1;
    },
    async deleteState(family, key, field) {
      await pool.query(`DELETE FROM ${states} WHERE family = $1 AND key = $2 AND field = $3`, [
        family,
        key,
        field,
      ]);
    },
    ...postgresSwaps(pool, tables),
  };
}

/** swapState (a compare-and-set of one state, with no claim; an item enlisted along) and enlistWith. */
function postgresSwaps(pool: pg.Pool, tables: Tables): Pick<ClaimBoard, "swapState" | "enlistWith"> {
  const { states } = tables;
  const enlisting = (n: number, condition: string) => enlistingCtes(tables, n, condition);
  return {
    async swapState(family, key, field, expected, replacement, along) {
      // Each case one statement: a rival waits for the row, then checks the condition again on what
      // was committed (READ COMMITTED), so of two swaps from the same state one wins. An item along
      // is enlisted by the same statement, only when the swap returned its row.
      const [was, next] = [stateText(expected), stateText(replacement)];
      const where = "family = $1 AND key = $2 AND field = $3";
      const [sql, values]: [string, unknown[]] =
        was === undefined && next === undefined
          ? [`SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM ${states} WHERE ${where})`, [family, key, field]]
          : was === undefined
            ? [
                `INSERT INTO ${states} (family, key, field, state) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (family, key, field) DO NOTHING RETURNING 1`,
                [family, key, field, next],
              ]
            : next === undefined
              ? [`DELETE FROM ${states} WHERE ${where} AND state = $4 RETURNING 1`, [family, key, field, was]]
              : [
                  `UPDATE ${states} SET state = $5 WHERE ${where} AND state = $4 RETURNING 1`,
                  [family, key, field, was, next],
                ];
      if (!along) return (await pool.query(sql, values)).rowCount === 1;
      const result = await pool.query(
        `WITH swapped AS (${sql}), ${enlisting(values.length + 1, "EXISTS (SELECT 1 FROM swapped)")}
         SELECT count(*)::int AS n FROM swapped`,
        [...values, ...alongValues(along)],
      );
      return countSchema.parse(result.rows)[0]?.n === 1;
    },
    async enlistWith(item) {
      await pool.query(`WITH ${enlisting(1, "true")} SELECT 1`, alongValues(item));
    },
  };
}
