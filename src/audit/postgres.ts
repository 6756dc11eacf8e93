import type pg from "pg";
import { z } from "zod";
import {
  AUDIT_COLUMNS,
  type AuditEngine,
  auditHeadSchema,
  auditRowSchema,
  linkValues,
  seqRowSchema,
  teamRowsSchema,
} from "./engine.js";

const NO_END = Number.MAX_SAFE_INTEGER;
const countsSchema = z.array(z.object({ appended: z.number() }));

/**
 * The statements that append: $1..$8 the link, $9 the expected head's number (0: none), $10 its hash.
 * The head moves (or is created), and the entry goes in only with it; a removal (its own entry
 * appended, $11 the last number removed) deletes the prefix only if that entry went in.
 */
function appendStatements(table: string, heads: string) {
  const onHead = `moved AS (
      UPDATE ${heads} SET seq = $2::bigint, hash = $8::text, at = $3::bigint
      WHERE team = $1::text AND seq = $9::bigint AND hash = $10::text AND $2::bigint = $9::bigint + 1
      RETURNING seq),
    started AS (
      INSERT INTO ${heads} (team, seq, hash, at) SELECT $1::text, $2::bigint, $8::text, $3::bigint
      WHERE $9::bigint = 0 AND $2::bigint = 1 ON CONFLICT (team) DO NOTHING RETURNING seq)`;
  const insertEntry = `INSERT INTO ${table} (${AUDIT_COLUMNS})
    SELECT $1::text, $2::bigint, $3::bigint, $4::text, $5::text, $6::text, $7::text, $8::text
    WHERE EXISTS (SELECT 1 FROM moved) OR EXISTS (SELECT 1 FROM started)`;
  return {
    append: `WITH ${onHead} ${insertEntry}`,
    removeThrough: `WITH ${onHead}, appended AS (${insertEntry} RETURNING seq),
           removed AS (DELETE FROM ${table} WHERE team = $1 AND seq <= $11 AND EXISTS (SELECT 1 FROM appended))
         SELECT (SELECT count(*) FROM appended)::int AS appended`,
  };
}

const rows = (result: pg.QueryResult) => result.rows.map((row: unknown) => auditRowSchema.parse(row));

/** The oldest entry and the newest before `before` (ms): what a removal of the days before takes. */
async function prefixOf(pool: pg.Pool, table: string, team: string, before: number) {
  // Times never go back along a chain, so the first entry at or after the time starts what is kept.
  const kept = await pool.query(
    `SELECT seq FROM ${table} WHERE team = $1 AND at >= $2 ORDER BY at, seq LIMIT 1`,
    [team, before],
  );
  const keptFrom = z.array(seqRowSchema).parse(kept.rows)[0]?.seq ?? NO_END;
  const select = `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = $1`;
  const [first] = rows(await pool.query(`${select} ORDER BY seq LIMIT 1`, [team]));
  const [last] = rows(await pool.query(`${select} AND seq < $2 ORDER BY seq DESC LIMIT 1`, [team, keptFrom]));
  return first && last ? { first, last } : undefined;
}

/**
 * The trail in PostgreSQL, each step one statement. Each team's head is a row of its own (`heads`),
 * moved in the statement that inserts the entry, so entries deleted from the end leave a head naming
 * them. An append moves the head only while it is still the expected one (or, for a team's first
 * entry, creates it); two replicas appending on one head meet on its row: the second waits for the
 * first to commit, then finds another head, writes nothing and reads the head again.
 */
export function postgresAuditEngine(pool: pg.Pool, tables: { entries: string; heads: string }): AuditEngine {
  const { entries: table, heads } = tables;
  const statements = appendStatements(table, heads);
  return {
    async head(team) {
      const result = await pool.query(`SELECT seq, hash, at FROM ${heads} WHERE team = $1`, [team]);
      return z.array(auditHeadSchema).parse(result.rows)[0];
    },
    async append(link, expected) {
      const values = [...linkValues(link), expected?.seq ?? 0, expected?.hash ?? ""];
      return (await pool.query(statements.append, values)).rowCount === 1;
    },
    async removeThrough(throughSeq, link, expected) {
      const values = [...linkValues(link), expected.seq, expected.hash, throughSeq];
      const result = await pool.query(statements.removeThrough, values);
      return countsSchema.parse(result.rows)[0]?.appended === 1;
    },
    async walk(team, afterSeq, limit) {
      return rows(
        await pool.query(
          `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          [team, afterSeq, limit],
        ),
      );
    },
    async page(team, query) {
      const { beforeSeq = NO_END, from = 0, to = NO_END, actor = null, action = null, limit } = query;
      const result = await pool.query(
        `SELECT ${AUDIT_COLUMNS} FROM ${table}
         WHERE team = $1 AND seq < $2 AND at >= $3 AND at < $4
           AND ($5::text IS NULL OR actor = $5) AND ($6::text IS NULL OR action = $6)
         ORDER BY seq DESC LIMIT $7`,
        [team, beforeSeq, from, to, actor, action, limit],
      );
      return rows(result);
    },
    prefixBefore: (team, before) => prefixOf(pool, table, team, before),
    async teams() {
      // Every team with a head: one whose entries were all deleted still has its head, and fails verify.
      const result = await pool.query(`SELECT team FROM ${heads}`);
      return teamRowsSchema.parse(result.rows).map((row) => row.team);
    },
  };
}
