import { type AuditHead, type AuditLink, canonicalJson, chainHash, GENESIS_HASH } from "./chain.js";
import { type AuditEntry, auditEntrySchema } from "./entry.js";
import { removedRangeOf } from "./retention.js";

// Walking a chain: the links in sequence order, each checked against the one before it. Pure, so
// it is the same on every engine and in tests of tampered chains.

export type ChainEnd = { seq: number; time: string };

/** A head posted in the audit channel: its entry's number and its hash (or the hash's start, 12 characters or more). */
export type PostedHead = { seq: number; hash: string };

/** `SEQ:HASH` as an operator copies it from the audit channel; undefined when it is not one. */
export function parsePostedHead(text: string): PostedHead | undefined {
  const match = /^(\d{1,15}):([0-9a-f]{12,64})$/.exec(text.trim().toLowerCase());
  if (!match?.[1] || !match[2]) return undefined;
  const seq = Number(match[1]);
  return seq >= 1 ? { seq, hash: match[2] } : undefined;
}

/** What verification found: the chain holds (how many, first, last, head), or where it first breaks. */
export type VerifyResult =
  | {
      ok: true;
      count: number;
      first: ChainEnd | undefined;
      last: ChainEnd | undefined;
      head: { seq: number; hash: string } | undefined;
    }
  | { ok: false; seq: number; reason: string };

type Break = Extract<VerifyResult, { ok: false }>;

/** The entry a link holds, when its text is a valid entry in canonical form. */
export function entryOf(link: AuditLink): AuditEntry | undefined {
  let data: unknown;
  try {
    data = JSON.parse(link.entry);
  } catch {
    return undefined;
  }
  const parsed = auditEntrySchema.safeParse(data);
  if (!parsed.success || canonicalJson(parsed.data) !== link.entry) return undefined;
  return parsed.data;
}

/**
 * Checks a team's chain fed link by link in sequence order from the oldest kept. The oldest is
 * entry 1 chaining from the genesis value, or, after retention removed days, an entry whose previous
 * hash a later removal entry names (with the sequence number before it). Each next link has the
 * next number, chains from the hash before, hashes to its own, holds a valid entry of this team in
 * canonical form, matching its index columns, no earlier than the one before.
 */
export class ChainCheck {
  private first: { link: AuditLink; entry: AuditEntry } | undefined;
  private last: { link: AuditLink; entry: AuditEntry } | undefined;
  private anchored = false;
  private count = 0;

  constructor(
    private readonly team: string,
    /** Heads posted before (the audit channel's), each of which the chain must still hold. */
    private readonly posted: readonly PostedHead[] = [],
  ) {}

  /** Checks the next link; a break is final (stop feeding). */
  next(link: AuditLink): Break | undefined {
    const broken = (seq: number, reason: string): Break => ({ ok: false, seq, reason });
    const last = this.last?.link;
    if (!last) {
      this.anchored = link.seq === 1;
      if (link.seq === 1 && link.prevHash !== GENESIS_HASH)
        return broken(1, "the first entry does not chain from the genesis value");
    } else if (link.seq !== last.seq + 1) {
      return broken(last.seq + 1, `entry ${last.seq + 1} is missing (after ${last.seq} comes ${link.seq})`);
    } else if (link.prevHash !== last.hash) {
      return broken(link.seq, `it does not chain from entry ${last.seq} (its previous hash differs)`);
    }
    if (chainHash(link.prevHash, link.entry) !== link.hash)
      return broken(link.seq, "its content does not match its hash (altered after it was written)");
    const entry = entryOf(link);
    if (!entry) return broken(link.seq, "its content is not a valid entry in canonical form");
    if (entry.team !== this.team) return broken(link.seq, `it is an entry of ${entry.team}`);
    if (Date.parse(entry.time) !== link.at || entry.actor !== link.actor || entry.action !== link.action)
      return broken(link.seq, "its stored time, actor or action differ from its content");
    if (this.last && link.at < this.last.link.at)
      return broken(link.seq, `it is earlier than entry ${this.last.link.seq}`);
    const posted = this.posted.find((one) => one.seq === link.seq);
    if (posted && !link.hash.startsWith(posted.hash))
      return broken(link.seq, `its hash differs from the head posted for it (${posted.hash})`);
    this.first ??= { link, entry };
    const removed = removedRangeOf(entry);
    const oldest = this.first.link;
    if (removed && removed.toSeq === oldest.seq - 1 && removed.lastHash === oldest.prevHash)
      this.anchored = true;
    this.last = { link, entry };
    this.count += 1;
    return undefined;
  }

  /** The result once every link was fed: the head the store names must be the last link. */
  finish(head: AuditHead | undefined): VerifyResult {
    const [first, last] = [this.first, this.last];
    if (!first || !last) {
      if (head)
        return { ok: false, seq: head.seq, reason: `the head names entry ${head.seq}, which is not there` };
      return { ok: true, count: 0, first: undefined, last: undefined, head: undefined };
    }
    if (!this.anchored)
      return {
        ok: false,
        seq: first.link.seq,
        reason: `entries before ${first.link.seq} are gone and no removal entry records their removal`,
      };
    if (head && head.seq > last.link.seq)
      return {
        ok: false,
        seq: last.link.seq + 1,
        reason: `${missing(last.link.seq + 1, head.seq)}: the chain ends at entry ${last.link.seq} but its head names entry ${head.seq}, so the newest entries were removed`,
      };
    if (!head || head.seq !== last.link.seq || head.hash !== last.link.hash)
      return {
        ok: false,
        seq: last.link.seq + 1,
        reason: `the chain ends at entry ${last.link.seq} but the head names ${head ? `entry ${head.seq}` : "none"}`,
      };
    const beyond = this.posted.filter((one) => one.seq > last.link.seq).sort((a, b) => b.seq - a.seq)[0];
    if (beyond)
      return {
        ok: false,
        seq: last.link.seq + 1,
        reason: `the chain ends at entry ${last.link.seq} but a head was posted for entry ${beyond.seq}: the newest entries were removed`,
      };
    return {
      ok: true,
      count: this.count,
      first: { seq: first.link.seq, time: first.entry.time },
      last: { seq: last.link.seq, time: last.entry.time },
      head: { seq: last.link.seq, hash: last.link.hash },
    };
  }
}

/** Entries `from` to `to` named as missing ("entry 5 is missing", "entries 4 to 5 are missing"). */
function missing(from: number, to: number): string {
  return from === to ? `entry ${from} is missing` : `entries ${from} to ${to} are missing`;
}

/** A verification's result in one line, for the CLI and logs (English, as every log and CLI line). */
export function verificationLine(team: string, result: VerifyResult): string {
  if (!result.ok) return `${team}: the audit trail does not hold at entry ${result.seq}: ${result.reason}.`;
  const { count, first, last, head } = result;
  if (!first || !last || !head) return `${team}: no audit entries.`;
  const removed =
    first.seq > 1 ? `; entries before ${first.seq} were removed by retention, as a later entry records` : "";
  return `${team}: the audit trail holds: ${count} ${count === 1 ? "entry" : "entries"}, ${first.seq} (${first.time}) to ${last.seq} (${last.time}); head ${head.seq} ${head.hash}${removed}.`;
}
