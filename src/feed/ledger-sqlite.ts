import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { tableName } from "../store/schema/names.js";
import { type FeedLedger, type FeedTurnClaim, parseJson } from "./ledger.js";

type TurnRow = { team: string };

/**
 * The feed ledger in the SQLite file, on the store's control connection. Every step is one
 * statement or one transaction, which SQLite runs alone even when several processes share the file.
 */
export class SqliteFeedLedger implements FeedLedger {
  private readonly turns: string;
  private readonly states: string;
  private readonly statements: ReturnType<SqliteFeedLedger["prepare"]>;
  private readonly claimDue: (now: number, leaseMs: number, limit: number) => FeedTurnClaim[];

  constructor(
    private readonly db: Database.Database,
    prefix: string,
  ) {
    // The tables are the schema's (src/store/schema/sqlite.ts), applied for `prefix` before this.
    this.turns = tableName(prefix, "feed_turns");
    this.states = tableName(prefix, "feed_states");
    this.statements = this.prepare();
    const { due, take } = this.statements;
    this.claimDue = db.transaction((now: number, leaseMs: number, limit: number) => {
      const base = randomUUID();
      return due.all(now, now, limit).map((row, index) => {
        const token = `${base}:${index}`;
        take.run(token, now + leaseMs, row.team);
        return { team: row.team, token };
      });
    });
  }

  private prepare() {
    const { db, turns, states } = this;
    return {
      enlist: db.prepare<[string, number]>(
        `INSERT INTO ${turns} (team, due_at) VALUES (?, ?) ON CONFLICT (team) DO NOTHING`,
      ),
      due: db.prepare<[number, number, number], TurnRow>(
        `SELECT team FROM ${turns} WHERE due_at <= ? AND lease_until <= ? ORDER BY due_at, team LIMIT ?`,
      ),
      take: db.prepare<[string, number, string]>(
        `UPDATE ${turns} SET owner = ?, lease_until = ?, nudged = 0 WHERE team = ?`,
      ),
      renew: db.prepare<[number, string, string]>(
        `UPDATE ${turns} SET lease_until = ? WHERE team = ? AND owner = ?`,
      ),
      // Nudged during the turn: due_at already holds the nudge's time, so it stays due at once.
      release: db.prepare<[number, number, string, string]>(
        `UPDATE ${turns} SET owner = '', lease_until = 0,
           due_at = CASE WHEN nudged = 1 THEN MIN(due_at, ?) ELSE ? END, nudged = 0
         WHERE team = ? AND owner = ?`,
      ),
      nudge: db.prepare<[number, number, string]>(
        `UPDATE ${turns} SET due_at = MIN(due_at, ?), nudged = CASE WHEN lease_until > ? THEN 1 ELSE 0 END
         WHERE team = ?`,
      ),
      read: db.prepare<[string, string], { state: string }>(
        `SELECT state FROM ${states} WHERE team = ? AND channel = ?`,
      ),
      write: db.prepare<[string, string, string, string, string]>(
        `INSERT INTO ${states} (team, channel, state)
         SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${turns} WHERE team = ? AND owner = ?)
         ON CONFLICT (team, channel) DO UPDATE SET state = excluded.state`,
      ),
      deleteState: db.prepare<[string, string]>(`DELETE FROM ${states} WHERE team = ? AND channel = ?`),
      dropStates: db.prepare<[string]>(`DELETE FROM ${states} WHERE team = ?`),
      dropTurn: db.prepare<[string]>(`DELETE FROM ${turns} WHERE team = ?`),
    };
  }

  async enlist(team: string, dueAt: number): Promise<void> {
    this.statements.enlist.run(team, dueAt);
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<FeedTurnClaim[]> {
    return limit > 0 ? this.claimDue(now, leaseMs, limit) : [];
  }

  async renew(team: string, token: string, now: number, leaseMs: number): Promise<boolean> {
    return this.statements.renew.run(now + leaseMs, team, token).changes === 1;
  }

  async release(team: string, token: string, dueAt: number): Promise<boolean> {
    return this.statements.release.run(dueAt, dueAt, team, token).changes === 1;
  }

  async nudge(team: string, now: number): Promise<void> {
    this.statements.nudge.run(now, now, team);
  }

  async readState(team: string, channel: string): Promise<unknown> {
    const row = this.statements.read.get(team, channel);
    return row === undefined ? undefined : parseJson(row.state);
  }

  async writeState(team: string, channel: string, token: string, state: unknown): Promise<boolean> {
    return this.statements.write.run(team, channel, JSON.stringify(state), team, token).changes === 1;
  }

  async deleteState(team: string, channel: string): Promise<void> {
    this.statements.deleteState.run(team, channel);
  }

  async drop(team: string): Promise<void> {
    this.db.transaction(() => {
      this.statements.dropStates.run(team);
      this.statements.dropTurn.run(team);
    })();
  }
}
