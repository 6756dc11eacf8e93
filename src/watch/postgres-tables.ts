import type pg from "pg";
import { z } from "zod";
import {
  type AddCardLimits,
  type AddCardResult,
  cardId,
  invoiceSnapshotSchema,
  MAX_CARDS_PER_WATCH,
  type Watch,
  type WatchCard,
  type WatchSeed,
  watchKey,
} from "./model.js";

/** The watch queue's tables, named from a prefix (tests give each run its own). */
export type WatchTables = { watches: string; cards: string; nextRead: string; oldReads: string };

/** Creates the tables when missing; safe when replicas start together. */
export async function createWatchTables(pool: pg.Pool, tables: WatchTables): Promise<void> {
  const { watches, cards, nextRead, oldReads } = tables;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${watches} (
      key TEXT PRIMARY KEY, team TEXT NOT NULL, invoice_id TEXT NOT NULL, register TEXT NOT NULL,
      state TEXT NOT NULL, amounts TEXT NOT NULL, invoice JSONB NOT NULL, started_at BIGINT NOT NULL,
      interval_ms BIGINT NOT NULL, last_checked_at BIGINT NOT NULL, cards_updated_at BIGINT NOT NULL,
      due_at BIGINT NOT NULL)`,
    // Added after the first release: tables made before it gain the column here.
    `ALTER TABLE ${watches} ADD COLUMN IF NOT EXISTS lease TEXT NOT NULL DEFAULT ''`,
    // A payment notification that came while the watch was being read (see dueBy).
    `ALTER TABLE ${watches} ADD COLUMN IF NOT EXISTS nudged_at BIGINT`,
    `CREATE INDEX IF NOT EXISTS ${watches}_due ON ${watches} (due_at)`,
    `CREATE INDEX IF NOT EXISTS ${watches}_team ON ${watches} (team)`,
    `CREATE TABLE IF NOT EXISTS ${cards} (
      watch_key TEXT NOT NULL REFERENCES ${watches} (key) ON DELETE CASCADE,
      card_id TEXT NOT NULL, card JSONB NOT NULL, PRIMARY KEY (watch_key, card_id))`,
    // When each cash register's next read may start (its read budget; see ReadBudget).
    `CREATE TABLE IF NOT EXISTS ${nextRead} (register TEXT PRIMARY KEY, next_at BIGINT NOT NULL)`,
    // Counts per second, before reads were spaced: only ever held the last 10 seconds.
    `DROP TABLE IF EXISTS ${oldReads}`,
  ];
  for (const sql of statements) {
    try {
      await pool.query(sql);
    } catch (error) {
      // Another replica created it at the same moment (a race on the catalog's unique index).
      if ((error as { code?: string }).code !== "23505") throw error;
    }
  }
}

/** A claimed row of the watches table, as the driver returns it (BIGINTs as strings). */
export const rowSchema = z.object({
  key: z.string(),
  team: z.string(),
  invoice_id: z.string(),
  register: z.string(),
  state: z.string(),
  amounts: z.string(),
  invoice: z.unknown(),
  started_at: z.coerce.number(),
  interval_ms: z.coerce.number(),
  last_checked_at: z.coerce.number(),
  cards_updated_at: z.coerce.number(),
  lease: z.string(),
});

/** The watch a row holds; undefined when its invoice snapshot cannot be read. */
export function watchFromRow(row: z.infer<typeof rowSchema>, cards: WatchCard[]): Watch | undefined {
  const invoice = invoiceSnapshotSchema.safeParse(row.invoice);
  if (!invoice.success) return undefined;
  return {
    team: row.team,
    invoiceId: row.invoice_id,
    register: row.register,
    state: row.state,
    amounts: row.amounts,
    invoice: invoice.data,
    startedAt: row.started_at,
    intervalMs: row.interval_ms,
    lastCheckedAt: row.last_checked_at,
    cardsUpdatedAt: row.cards_updated_at,
    lease: row.lease,
    cards,
  };
}

/**
 * addCard for PostgreSQL: one transaction, one workspace's additions one after another (an advisory
 * lock), so two replicas cannot both take the workspace's or the invoice's last place.
 */
export async function addCardInOneTransaction(
  pool: pg.Pool,
  { watches, cards: cardsTable }: WatchTables,
  seed: WatchSeed,
  card: WatchCard,
  limits: AddCardLimits,
): Promise<AddCardResult> {
  const key = watchKey(seed.team, seed.invoiceId);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // One workspace's additions one after another, so two replicas cannot both take the last place.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${watches}:${seed.team}`]);
    const existing = await client.query(`SELECT 1 FROM ${watches} WHERE key = $1`, [key]);
    if (existing.rowCount === 0) {
      const count = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${watches} WHERE team = $1`,
        [seed.team],
      );
      if (Number(count.rows[0]?.n ?? 0) >= limits.maxPerWorkspace) {
        await client.query("ROLLBACK");
        return "workspace_full";
      }
      const asker = limits.asker;
      if (
        asker &&
        (await askerWatches(client, { watches, cards: cardsTable }, seed.team, asker.user)) >= asker.max
      ) {
        await client.query("ROLLBACK");
        return "asker_full";
      }
      await client.query(
        `INSERT INTO ${watches} (key, team, invoice_id, register, state, amounts, invoice, started_at,
          interval_ms, last_checked_at, cards_updated_at, due_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$8,$8,$10)`,
        [
          key,
          seed.team,
          seed.invoiceId,
          seed.register,
          seed.state,
          seed.amounts,
          JSON.stringify(seed.invoice),
          limits.now,
          limits.firstDueInMs,
          limits.now + limits.firstDueInMs,
        ],
      );
    } else {
      const cards = await client.query<{ n: string; mine: boolean }>(
        `SELECT count(*) AS n, bool_or(card_id = $2) AS mine FROM ${cardsTable} WHERE watch_key = $1`,
        [key, cardId(card)],
      );
      const row = cards.rows[0];
      if (!row?.mine && Number(row?.n ?? 0) >= MAX_CARDS_PER_WATCH) {
        await client.query("ROLLBACK");
        return "invoice_full";
      }
    }
    await client.query(
      `INSERT INTO ${cardsTable} (watch_key, card_id, card) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [key, cardId(card), JSON.stringify(card)],
    );
    await client.query("COMMIT");
    return "watching";
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** How many of the team's watches hold a card of `user`. */
export async function askerWatches(
  db: pg.Pool | pg.PoolClient,
  { watches, cards }: Pick<WatchTables, "watches" | "cards">,
  team: string,
  user: string,
): Promise<number> {
  const result = await db.query<{ n: string }>(
    `SELECT count(DISTINCT c.watch_key) AS n FROM ${cards} c JOIN ${watches} w ON w.key = c.watch_key
       WHERE w.team = $1 AND c.card->>'user' = $2`,
    [team, user],
  );
  return Number(result.rows[0]?.n ?? 0);
}
