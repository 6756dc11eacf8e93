import type pg from "pg";
import { z } from "zod";
import { invoiceSnapshotSchema, type Watch, type WatchCard } from "./model.js";

/** The watch queue's tables, named from a prefix (tests give each run its own). */
export type WatchTables = { watches: string; cards: string; reads: string };

/** Creates the tables when missing; safe when replicas start together. */
export async function createWatchTables(pool: pg.Pool, tables: WatchTables): Promise<void> {
  const { watches, cards, reads } = tables;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${watches} (
      key TEXT PRIMARY KEY, team TEXT NOT NULL, invoice_id TEXT NOT NULL, register TEXT NOT NULL,
      state TEXT NOT NULL, amounts TEXT NOT NULL, invoice JSONB NOT NULL, started_at BIGINT NOT NULL,
      interval_ms BIGINT NOT NULL, last_checked_at BIGINT NOT NULL, cards_updated_at BIGINT NOT NULL,
      due_at BIGINT NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${watches}_due ON ${watches} (due_at)`,
    `CREATE INDEX IF NOT EXISTS ${watches}_team ON ${watches} (team)`,
    `CREATE TABLE IF NOT EXISTS ${cards} (
      watch_key TEXT NOT NULL REFERENCES ${watches} (key) ON DELETE CASCADE,
      card_id TEXT NOT NULL, card JSONB NOT NULL, PRIMARY KEY (watch_key, card_id))`,
    `CREATE TABLE IF NOT EXISTS ${reads} (
      register TEXT NOT NULL, second BIGINT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (register, second))`,
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
    cards,
  };
}
