import { randomUUID } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import { tableName } from "../store/schema/names.js";
import { type FeedLedger, type FeedTurnClaim, parseJson } from "./ledger.js";

const claimedSchema = z.array(z.object({ team: z.string(), owner: z.string(), due_at: z.coerce.number() }));

/**
 * The feed ledger in PostgreSQL: each step is one statement. A claim takes due rows with
 * FOR UPDATE SKIP LOCKED (two replicas never take the same one); a state is written only through
 * a FOR SHARE lock on its workspace's row still naming the writer's token, so a claim that
 * commits first makes the late write find no row, and one that comes after waits for it.
 */
export class PostgresFeedLedger implements FeedLedger {
  private readonly turns: string;
  private readonly states: string;

  /** `prefix`: the tables' names' start (tests give each run its own); its schema must be applied. */
  constructor(
    private readonly pool: pg.Pool,
    prefix: string,
  ) {
    this.turns = tableName(prefix, "feed_turns");
    this.states = tableName(prefix, "feed_states");
  }

  async enlist(team: string, dueAt: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.turns} (team, due_at) VALUES ($1, $2) ON CONFLICT (team) DO NOTHING`,
      [team, dueAt],
    );
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<FeedTurnClaim[]> {
    if (limit <= 0) return [];
    const result = await this.pool.query(
      `WITH due AS (
         SELECT team, due_at FROM ${this.turns} WHERE due_at <= $1 AND lease_until <= $1
         ORDER BY due_at, team LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE ${this.turns} AS t SET owner = $4 || ':' || t.team, lease_until = $1 + $2, nudged = 0
       FROM due WHERE t.team = due.team RETURNING t.team, t.owner, due.due_at`,
      [now, leaseMs, limit, randomUUID()],
    );
    // RETURNING keeps no order: oldest due first again.
    return claimedSchema
      .parse(result.rows)
      .sort((a, b) => a.due_at - b.due_at || (a.team < b.team ? -1 : 1))
      .map((row) => ({ team: row.team, token: row.owner }));
  }

  async renew(team: string, token: string, now: number, leaseMs: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.turns} SET lease_until = $3 WHERE team = $1 AND owner = $2`,
      [team, token, now + leaseMs],
    );
    return result.rowCount === 1;
  }

  async release(team: string, token: string, dueAt: number): Promise<boolean> {
    // Nudged during the turn: due_at already holds the nudge's time, so it stays due at once.
    const result = await this.pool.query(
      `UPDATE ${this.turns} SET owner = '', lease_until = 0, nudged = 0,
         due_at = CASE WHEN nudged > 0 THEN LEAST(due_at, $3) ELSE $3 END
       WHERE team = $1 AND owner = $2`,
      [team, token, dueAt],
    );
    return result.rowCount === 1;
  }

  async nudge(team: string, now: number): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.turns} SET due_at = LEAST(due_at, $2),
         nudged = CASE WHEN lease_until > $2 THEN $2 ELSE 0 END
       WHERE team = $1`,
      [team, now],
    );
  }

  async readState(team: string, channel: string): Promise<unknown> {
    const result = await this.pool.query(
      `SELECT state FROM ${this.states} WHERE team = $1 AND channel = $2`,
      [team, channel],
    );
    const row = z.array(z.object({ state: z.string() })).parse(result.rows)[0];
    return row === undefined ? undefined : parseJson(row.state);
  }

  async writeState(team: string, channel: string, token: string, state: unknown): Promise<boolean> {
    const result = await this.pool.query(
      `WITH turn AS (SELECT 1 FROM ${this.turns} WHERE team = $1 AND owner = $4 FOR SHARE)
       INSERT INTO ${this.states} (team, channel, state) SELECT $1, $2, $3 FROM turn
       ON CONFLICT (team, channel) DO UPDATE SET state = excluded.state`,
      [team, channel, JSON.stringify(state), token],
    );
    return result.rowCount === 1;
  }

  async deleteState(team: string, channel: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.states} WHERE team = $1 AND channel = $2`, [team, channel]);
  }

  async drop(team: string): Promise<void> {
    await this.pool.query(
      `WITH gone AS (DELETE FROM ${this.states} WHERE team = $1) DELETE FROM ${this.turns} WHERE team = $1`,
      [team],
    );
  }
}
