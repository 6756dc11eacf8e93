import { z } from "zod";
import type { RedisConnection } from "../store/connection.js";
import { runRedisScript } from "../store/redis-scripts.js";
import type { AuditHead, AuditLink } from "./chain.js";
import { type AuditEngine, type AuditQuery, auditLinkSchema } from "./engine.js";
import { APPEND_ON_HEAD } from "./redis-scripts.js";

/** Entries read per round trip while walking or paging. */
const BATCH = 100;

const headSchema = z
  .object({
    seq: z.coerce.number().int().positive(),
    hash: z.string(),
    at: z.coerce.number().int(),
    first: z.coerce.number().int().positive(),
  })
  .optional();

/**
 * The link stored under number `seq`: numbered by where it is kept (a link moved to another
 * number then fails to chain there), and one that is not a link at all kept as text that hashes
 * to nothing, so verification names its number instead of failing.
 */
function storedLink(team: string, seq: number, text: string): AuditLink {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const parsed = auditLinkSchema.safeParse(data);
  if (parsed.success) return { ...parsed.data, seq };
  return { team, seq, at: 0, actor: "", action: "", entry: text, prevHash: "", hash: "" };
}

/** The trail's keys of one Redis server and the reads and the append the engine is made of. */
function redisTrail(client: RedisConnection, prefix: string) {
  const keys = (team: string) => [
    `${prefix}:${team}:head`,
    `${prefix}:${team}:entries`,
    `${prefix}:${team}:at`,
    `${prefix}:teams`,
  ];
  return {
    async readHead(team: string) {
      const found = await client.hGetAll(`${prefix}:${team}:head`);
      return headSchema.parse(Object.keys(found).length === 0 ? undefined : found);
    },
    /** The links numbered `seqs`, in that order, those that are there. */
    async read(team: string, seqs: number[]): Promise<AuditLink[]> {
      if (seqs.length === 0) return [];
      const texts = await client.hmGet(`${prefix}:${team}:entries`, seqs.map(String));
      return texts.flatMap((text, i) =>
        typeof text === "string" ? [storedLink(team, seqs[i] ?? 0, text)] : [],
      );
    },
    async appendOn(link: AuditLink, expected: AuditHead | undefined, throughSeq: number) {
      const args = [
        ...[expected?.seq ?? 0, expected?.hash ?? "", link.seq, link.at, JSON.stringify(link)],
        ...[throughSeq, link.hash, link.team],
      ];
      return (await runRedisScript(client, APPEND_ON_HEAD, keys(link.team), args)) === 1;
    },
    /** The number of the newest entry before `time` (ms). */
    async newestBefore(team: string, time: number): Promise<number | undefined> {
      const found = await client.zRange(`${prefix}:${team}:at`, `(${time}`, "-inf", {
        BY: "SCORE",
        REV: true,
        LIMIT: { offset: 0, count: 1 },
      });
      return found[0] === undefined ? undefined : Number(found[0]);
    },
    /** The number of the first entry at or after `time` (ms): what the retention keeps starts there. */
    async firstFrom(team: string, time: number): Promise<number | undefined> {
      const kept = await client.zRange(`${prefix}:${team}:at`, time, "+inf", {
        BY: "SCORE",
        LIMIT: { offset: 0, count: 1 },
      });
      return kept[0] === undefined ? undefined : Number(kept[0]);
    },
    async teams() {
      return z.array(z.string()).parse(await client.sMembers(`${prefix}:teams`));
    },
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * The trail in Redis (one server, as the store is; not Redis Cluster). The hash is computed in Node
 * on the head read before; the script appends only while that head still holds, so two replicas
 * never both append on one previous hash: the second is told to read the head again.
 */
export function redisAuditEngine(client: RedisConnection, prefix: string): AuditEngine {
  const trail = redisTrail(client, prefix);
  return {
    async head(team) {
      const head = await trail.readHead(team);
      return head && { seq: head.seq, hash: head.hash, at: head.at };
    },
    append: (link, expected) => trail.appendOn(link, expected, 0),
    removeThrough: (throughSeq, link, expected) => trail.appendOn(link, expected, throughSeq),
    async walk(team, afterSeq, limit) {
      const head = await trail.readHead(team);
      if (!head) return [];
      // Entries missing in the middle are skipped here: the walk's check finds the gap.
      for (let from = Math.max(afterSeq + 1, head.first); from <= head.seq; from += limit) {
        const found = await trail.read(team, range(from, Math.min(from + limit - 1, head.seq)));
        if (found.length > 0) return found;
      }
      return [];
    },
    async page(team, query) {
      const head = await trail.readHead(team);
      if (!head) return [];
      let top = Math.min(head.seq, (query.beforeSeq ?? Number.MAX_SAFE_INTEGER) - 1);
      if (query.to !== undefined) top = Math.min(top, (await trail.newestBefore(team, query.to)) ?? 0);
      return pageDown(query, top, head.first, (seqs) => trail.read(team, seqs));
    },
    async prefixBefore(team, before) {
      const head = await trail.readHead(team);
      if (!head) return undefined;
      // Times never go back along a chain, so the first entry at or after the time starts what is kept.
      const keptFrom = (await trail.firstFrom(team, before)) ?? head.seq + 1;
      const [first, last] = await Promise.all([
        trail.read(team, [head.first]),
        trail.read(team, [keptFrom - 1]),
      ]);
      return first[0] && last[0] && keptFrom - 1 >= head.first
        ? { first: first[0], last: last[0] }
        : undefined;
    },
    teams: () => trail.teams(),
  };
}

/** Reads down from `top` to `first` in batches, keeping what the query matches, until the page is full. */
async function pageDown(
  query: AuditQuery,
  top: number,
  first: number,
  read: (seqs: number[]) => Promise<AuditLink[]>,
): Promise<AuditLink[]> {
  const found: AuditLink[] = [];
  for (let high = top; high >= first && found.length < query.limit; high -= BATCH) {
    const seqs = Array.from({ length: Math.min(BATCH, high - first + 1) }, (_, i) => high - i);
    for (const link of await read(seqs)) {
      // Times never go back along a chain: below `from` nothing older matches.
      if (query.from !== undefined && link.at < query.from) return found;
      if (query.actor !== undefined && link.actor !== query.actor) continue;
      if (query.action !== undefined && link.action !== query.action) continue;
      found.push(link);
      if (found.length === query.limit) break;
    }
  }
  return found;
}
