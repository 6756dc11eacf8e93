import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { KeyvStore } from "../store/keyv.js";
import { ensureSchema } from "../store/schema/index.js";
import { DEFAULT_PREFIX, tableName } from "../store/schema/names.js";
import {
  type AddCardLimits,
  type AddCardResult,
  type AskerShare,
  cardId,
  MAX_CARDS_PER_WATCH,
  type RescheduleFields,
  type ToldFrom,
  type ToldTo,
  type Watch,
  type WatchCard,
  type WatchQueue,
  type WatchSeed,
  watchCardSchema,
  watchKey,
} from "./model.js";
import { addCardInOneTransaction, rowSchema, type WatchTables, watchFromRow } from "./postgres-tables.js";
import { readSpacingMs } from "./read-budget.js";

// PostgreSQL: the claim is `FOR UPDATE SKIP LOCKED` plus a lease on the due time, "tell once" an
// UPDATE guarded by the state last told, the read budget an upserted counter per second. Tables
// (P = prefix): P_watches, P_watch_cards (cascade), P_watch_next_read.

/** Budget rows older than this many seconds are deleted now and then. */

export class PostgresWatchQueue implements WatchQueue {
  private readonly watches: string;
  private readonly cards: string;
  private readonly nextRead: string;
  readonly tables: WatchTables;

  private constructor(
    private readonly pool: pg.Pool,
    prefix: string,
  ) {
    this.watches = tableName(prefix, "watches");
    this.cards = tableName(prefix, "watch_cards");
    this.nextRead = tableName(prefix, "watch_next_read");
    this.tables = { watches: this.watches, cards: this.cards, nextRead: this.nextRead };
  }

  /** `prefix`: the tables' names' start (tests give each run its own); its schema is applied first. */
  static async open(store: KeyvStore, prefix = DEFAULT_PREFIX): Promise<PostgresWatchQueue> {
    if (store.native?.kind !== "postgres")
      throw new Error("the PostgreSQL watch queue needs a PostgreSQL store");
    await ensureSchema(store.native, prefix);
    return new PostgresWatchQueue(store.native.pool, prefix);
  }

  async addCard(seed: WatchSeed, card: WatchCard, limits: AddCardLimits): Promise<AddCardResult> {
    return addCardInOneTransaction(this.pool, this.tables, seed, card, limits);
  }

  async room(
    team: string,
    invoiceId: string,
    maxPerWorkspace: number,
    asker?: AskerShare,
  ): Promise<AddCardResult> {
    // One round trip (it is on the command path, before the card is posted): the asker's count is
    // only asked for when there is an asker.
    const result = await this.pool.query<{ cards: string; watches: string; found: boolean; mine: string }>(
      `SELECT (SELECT count(*) FROM ${this.cards} WHERE watch_key = $1) AS cards,
              (SELECT count(*) FROM ${this.watches} WHERE team = $2) AS watches,
              EXISTS (SELECT 1 FROM ${this.watches} WHERE key = $1) AS found,
              CASE WHEN $3::text IS NULL THEN 0 ELSE
                (SELECT count(DISTINCT c.watch_key) FROM ${this.cards} c JOIN ${this.watches} w ON w.key = c.watch_key
                  WHERE w.team = $2 AND c.card->>'user' = $3) END AS mine`,
      [watchKey(team, invoiceId), team, asker?.user ?? null],
    );
    const row = result.rows[0];
    if (row?.found) return Number(row.cards) >= MAX_CARDS_PER_WATCH ? "invoice_full" : "watching";
    if (Number(row?.watches ?? 0) >= maxPerWorkspace) return "workspace_full";
    return asker && Number(row?.mine ?? 0) >= asker.max ? "asker_full" : "watching";
  }

  async removeCard(team: string, invoiceId: string, id: string): Promise<void> {
    const key = watchKey(team, invoiceId);
    await this.pool.query(`DELETE FROM ${this.cards} WHERE watch_key = $1 AND card_id = $2`, [key, id]);
    await this.pool.query(
      `DELETE FROM ${this.watches} w WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM ${this.cards} c WHERE c.watch_key = w.key)`,
      [key],
    );
  }

  async remove(team: string, invoiceId: string, lease = ""): Promise<boolean> {
    // Refused only when the watch is there and another claim holds it; one gone already is ended.
    const result = await this.pool.query<{ refused: boolean }>(
      `WITH gone AS (DELETE FROM ${this.watches} WHERE key = $1 AND ($2 = '' OR lease = $2) RETURNING 1)
       SELECT NOT EXISTS (SELECT 1 FROM gone) AND EXISTS (SELECT 1 FROM ${this.watches} WHERE key = $1) AS refused`,
      [watchKey(team, invoiceId), lease],
    );
    return result.rows[0]?.refused !== true;
  }

  async removeTeam(team: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.watches} WHERE team = $1`, [team]);
  }

  async count(team: string): Promise<number> {
    const result = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.watches} WHERE team = $1`,
      [team],
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  async claimDue(now: number, max: number, leaseMs: number): Promise<Watch[]> {
    const claimed = await this.pool.query(
      `UPDATE ${this.watches} SET due_at = $1 + $3, lease = $4 WHERE key IN (
         SELECT key FROM ${this.watches} WHERE due_at <= $1 ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING key, team, invoice_id, register, state, amounts, invoice, started_at, interval_ms,
         last_checked_at, cards_updated_at, lease`,
      [now, max, leaseMs, randomUUID()],
    );
    if (claimed.rowCount === 0) return [];
    // Row by row: one unreadable row is dropped (below), never the whole batch.
    const rows = claimed.rows.flatMap((row) => {
      const parsed = rowSchema.safeParse(row);
      return parsed.success ? [parsed.data] : [];
    });
    const cards = await this.pool.query<{ watch_key: string; card: unknown }>(
      `SELECT watch_key, card FROM ${this.cards} WHERE watch_key = ANY($1)`,
      [rows.map((row) => row.key)],
    );
    const byWatch = new Map<string, WatchCard[]>();
    for (const row of cards.rows) {
      const card = watchCardSchema.safeParse(row.card);
      if (!card.success) continue;
      byWatch.set(row.watch_key, [...(byWatch.get(row.watch_key) ?? []), card.data]);
    }
    const watches: Watch[] = [];
    for (const row of rows) {
      const watch = watchFromRow(row, byWatch.get(row.key) ?? []);
      // A snapshot that cannot be read cannot be compared with the next read: the watch ends.
      if (watch) watches.push(watch);
      else await this.remove(row.team, row.invoice_id);
    }
    return watches;
  }

  async reschedule(
    team: string,
    invoiceId: string,
    dueAt: number,
    patch: RescheduleFields,
    lease = "",
  ): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.watches} SET due_at = LEAST($2, COALESCE(nudged_at, $2)), nudged_at = NULL,
         interval_ms = $3, last_checked_at = $4, cards_updated_at = COALESCE($5, cards_updated_at),
         lease = '' WHERE key = $1 AND ($6 = '' OR lease = $6)`,
      [
        watchKey(team, invoiceId),
        dueAt,
        patch.intervalMs,
        patch.lastCheckedAt,
        patch.cardsUpdatedAt ?? null,
        lease,
      ],
    );
    return result.rowCount === 1;
  }

  async renew(team: string, invoiceId: string, lease: string, until: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.watches} SET due_at = $3 WHERE key = $1 AND lease = $2`,
      [watchKey(team, invoiceId), lease, until],
    );
    return result.rowCount === 1;
  }

  async setCard(team: string, invoiceId: string, card: WatchCard, lease = ""): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.cards} SET card = $3 WHERE watch_key = $1 AND card_id = $2
         AND ($4 = '' OR EXISTS (SELECT 1 FROM ${this.watches} WHERE key = $1 AND lease = $4))`,
      [watchKey(team, invoiceId), cardId(card), JSON.stringify(card), lease],
    );
    return result.rowCount === 1;
  }

  async dueBy(team: string, invoiceId: string, now: number): Promise<boolean> {
    const result = await this.pool.query(
      // Under a claim, the nudge waits for that claim's reschedule (see DUE_BY in redis-scripts).
      `UPDATE ${this.watches} SET due_at = CASE WHEN lease = '' THEN LEAST(due_at, $2) ELSE due_at END,
         nudged_at = CASE WHEN lease = '' THEN nudged_at ELSE LEAST(COALESCE(nudged_at, $2), $2) END
         WHERE key = $1`,
      [watchKey(team, invoiceId), now],
    );
    return result.rowCount === 1;
  }

  async tell(team: string, invoiceId: string, from: ToldFrom, to: ToldTo, lease = ""): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.watches} SET state = $4, amounts = $5, invoice = $6
         WHERE key = $1 AND state = $2 AND amounts = $3 AND ($7 = '' OR lease = $7)`,
      [
        watchKey(team, invoiceId),
        from.state,
        from.amounts,
        to.state,
        to.amounts,
        JSON.stringify(to.invoice),
        lease,
      ],
    );
    return result.rowCount === 1;
  }

  async takeRead(
    register: string,
    perSecond: number,
    now: number,
    maxWaitMs: number,
  ): Promise<number | null> {
    // One statement: the register's next slot reserved (a row returned, with the wait) when it is
    // at most maxWaitMs away; no row: nothing reserved.
    const result = await this.pool.query<{ wait: string }>(
      `INSERT INTO ${this.nextRead} AS r (register, next_at) VALUES ($1, $2::bigint + $3::bigint)
         ON CONFLICT (register) DO UPDATE SET next_at = GREATEST(r.next_at, $2::bigint) + $3::bigint
           WHERE GREATEST(r.next_at, $2::bigint) - $2::bigint <= $4::bigint
         RETURNING next_at - $3::bigint - $2::bigint AS wait`,
      [register, now, readSpacingMs(perSecond), maxWaitMs],
    );
    const row = result.rows[0];
    return row ? Number(row.wait) : null;
  }

  async close(): Promise<void> {}
}
