import type Database from "better-sqlite3";
import type { AuditHead, AuditLink } from "./chain.js";
import {
  AUDIT_COLUMNS,
  type AuditEngine,
  auditHeadSchema,
  auditRowSchema,
  linkValues,
  sameHead,
  seqRowSchema,
  teamRowsSchema,
} from "./engine.js";

const NO_END = Number.MAX_SAFE_INTEGER;

/**
 * The trail in the SQLite file, on the store's control connection. An append is one IMMEDIATE
 * transaction (the file's write lock, whichever process holds it): the head read, checked, the
 * next entry inserted and the head moved onto it with nothing in between. The head is a row of its
 * own (`heads`), so entries deleted from the end leave a head naming them.
 */
export function sqliteAuditEngine(
  db: Database.Database,
  tables: { entries: string; heads: string },
): AuditEngine {
  const { entries: table, heads } = tables;
  const head = db.prepare<[string]>(`SELECT seq, hash, at FROM ${heads} WHERE team = ?`);
  const insert = db.prepare(`INSERT INTO ${table} (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const moveHead = db.prepare<[string, number, string, number]>(
    `INSERT INTO ${heads} (team, seq, hash, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, at = excluded.at`,
  );
  const removePrefix = db.prepare<[string, number]>(`DELETE FROM ${table} WHERE team = ? AND seq <= ?`);
  const headNow = (team: string): AuditHead | undefined => {
    const row = head.get(team);
    return row === undefined ? undefined : auditHeadSchema.parse(row);
  };
  const appendOn = db.transaction((link: AuditLink, expected: AuditHead | undefined, throughSeq: number) => {
    if (!sameHead(headNow(link.team), expected) || link.seq !== (expected?.seq ?? 0) + 1) return false;
    if (throughSeq > 0) removePrefix.run(link.team, throughSeq);
    insert.run(...linkValues(link));
    moveHead.run(link.team, link.seq, link.hash, link.at);
    return true;
  });
  const walk = db.prepare<[string, number, number]>(
    `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = ? AND seq > ? ORDER BY seq LIMIT ?`,
  );
  const page = db.prepare(
    `SELECT ${AUDIT_COLUMNS} FROM ${table}
     WHERE team = @team AND seq < @beforeSeq AND at >= @from AND at < @to
       AND (@actor IS NULL OR actor = @actor) AND (@action IS NULL OR action = @action)
     ORDER BY seq DESC LIMIT @limit`,
  );
  const oldest = db.prepare<[string]>(
    `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = ? ORDER BY seq LIMIT 1`,
  );
  // Times never go back along a chain, so the first entry at or after the time starts what is kept.
  const keptFrom = db.prepare<[string, number]>(
    `SELECT seq FROM ${table} WHERE team = ? AND at >= ? ORDER BY at, seq LIMIT 1`,
  );
  const lastBelow = db.prepare<[string, number]>(
    `SELECT ${AUDIT_COLUMNS} FROM ${table} WHERE team = ? AND seq < ? ORDER BY seq DESC LIMIT 1`,
  );
  // Every team with a head: one whose entries were all deleted still has its head, and fails verify.
  const teams = db.prepare(`SELECT team FROM ${heads}`);
  const links = (rows: unknown[]) => rows.map((row) => auditRowSchema.parse(row));

  return {
    async head(team) {
      return headNow(team);
    },
    async append(link, expected) {
      return appendOn.immediate(link, expected, 0);
    },
    async removeThrough(throughSeq, link, expected) {
      return appendOn.immediate(link, expected, throughSeq);
    },
    async walk(team, afterSeq, limit) {
      return links(walk.all(team, afterSeq, limit));
    },
    async page(team, query) {
      const { beforeSeq = NO_END, from = 0, to = NO_END, actor = null, action = null, limit } = query;
      return links(page.all({ team, beforeSeq, from, to, actor, action, limit }));
    },
    async prefixBefore(team, before) {
      const first = oldest.get(team);
      const kept = seqRowSchema.optional().parse(keptFrom.get(team, before));
      const last = lastBelow.get(team, kept?.seq ?? NO_END);
      if (first === undefined || last === undefined) return undefined;
      return { first: auditRowSchema.parse(first), last: auditRowSchema.parse(last) };
    },
    async teams() {
      return teamRowsSchema.parse(teams.all()).map((row) => row.team);
    },
  };
}
