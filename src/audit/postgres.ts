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
 * The trail in PostgreSQL, each step one statement. An append inserts the next number only while
 * the row it chains on is still the head (the row of the expected number with the expected hash,
 * and nothing on the next number); two replicas inserting one number meet on the primary key: the
 * second waits for the first to commit, then inserts nothing (ON CONFLICT DO NOTHING) and reads the
 * head again.
 */
export function postgresAuditEngine(pool: pg.Pool, table: string): AuditEngine {
  const rows = (result: pg.QueryResult) => result.rows.map((row: unknown) => auditRowSchema.parse(row));
  // $1..$8 the link, $9 the expected head's number (0: none), $10 its hash.
  const insertOnHead = `INSERT INTO ${table} (${AUDIT_COLUMNS})
    SELECT $1::text, $2::bigint, $3::bigint, $4::text, $5::text, $6::text, $7::text, $8::text
    WHERE $2::bigint = $9::bigint + 1 AND CASE WHEN $9::bigint = 0
      THEN NOT EXISTS (SELECT 1 FROM ${table} WHERE team = $1)
      ELSE EXISTS (SELECT 1 FROM ${table} WHERE team = $1 AND seq = $9::bigint AND hash = $10::text) END
    ON CONFLICT (team, seq) DO NOTHING`;
  return {
    async head(team) {
      const result = await pool.query(
        `SELECT seq, hash, at FROM ${table} WHERE team = $1 ORDER BY seq DESC LIMIT 1`,
        [team],
      );
      return z.array(auditHeadSchema).parse(result.rows)[0];
    },
    async append(link, expected) {
      const result = await pool.query(insertOnHead, [
        ...linkValues(link),
        expected?.seq ?? 0,
        expected?.hash ?? "",
      ]);
      return result.rowCount === 1;
    },
    async removeThrough(throughSeq, link, expected) {
      // One statement: the prefix goes only if the removal's own entry went in.
      const result = await pool.query(
        `WITH appended AS (${insertOnHead} RETURNING seq),
           removed AS (DELETE FROM ${table} WHERE team = $1 AND seq <= $11 AND EXISTS (SELECT 1 FROM appended))
         SELECT (SELECT count(*) FROM appended)::int AS appended`,
        [...linkValues(link), expected.seq, expected.hash, throughSeq],
      );
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
    async prefixBefore(team, before) {
      // Times never go back along a chain, so the first entry at or after the time starts what is kept.
      const kept = await pool.query(
        `SELECT seq FROM ${table} WHERE team = $1 AND at >= $2 ORDER BY at, seq LIMIT 1`,
        [team, before],
      );
      const keptFrom = z.array(seqRowSchema).parse(kept.rows)[0]?.seq ?? NO_END;
      const [first] = rows(
        await pool.query(`SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = $1 ORDER BY seq LIMIT 1`, [
          team,
        ]),
      );
      const [last] = rows(
        await pool.query(
          `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1`,
          [team, keptFrom],
        ),
      );
      return first && last ? { first, last } : undefined;
    },
    async teams() {
      const result = await pool.query(`SELECT DISTINCT team FROM ${table}`);
      return teamRowsSchema.parse(result.rows).map((row) => row.team);
    },
  };
}
