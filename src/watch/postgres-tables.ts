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
export type WatchTables = { watches: string; cards: string; nextRead: string };

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
