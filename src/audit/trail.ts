import { type AuditHead, type AuditLink, linkAfter } from "./chain.js";
import type { AuditEngine, AuditQuery } from "./engine.js";
import { type AuditEntry, type AuditInput, auditEntrySchema } from "./entry.js";
import { dayStart, removalEntry, retentionCutoff } from "./retention.js";
import { ChainCheck, entryOf, type PostedHead, type VerifyResult } from "./verify.js";

/** Appends tried on a head another replica moved before giving up (each try reads the head again). */
const MAX_ATTEMPTS = 40;
/** Links read per step of a verification walk. */
const WALK_BATCH = 500;
export const MAX_PAGE = 200;

/** An entry as a page lists it: its place and hashes, and its content (undefined: unreadable, see verify). */
export type ListedEntry = { seq: number; hash: string; prevHash: string; entry: AuditEntry | undefined };
/** A page, newest first; `next` is the cursor (beforeSeq) of the page after it, when there is one. */
export type AuditPage = { entries: ListedEntry[]; next: number | undefined };
/** What a removal did: nothing (no day old enough), or entries fromSeq..toSeq and the entry saying so. */
export type Removal = { removed: 0 } | { removed: number; fromSeq: number; toSeq: number; record: AuditLink };

/** Appends kept losing to other replicas' appends: the store is busier than the trail allows for. */
export class AuditContentionError extends Error {
  override readonly name = "AuditContentionError";
}

export type AuditTrailOptions = { retentionDays: number; now?: () => number };

/**
 * A store's audit trail: one chain per workspace, appended in one order by every replica (each
 * append lands only on the head its hash was computed on; one process also queues its own appends
 * per workspace, so only other replicas make it retry). Nothing here edits or deletes an entry but
 * retention, which removes whole days as a prefix and records that it did.
 */
export class AuditTrail {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(
    private readonly engine: AuditEngine,
    private readonly options: AuditTrailOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Records one act: the entry, checked, stamped with the trail's clock unless it has a time (never
   * before the head's, so times never go back along a chain), appended after the team's head. One
   * store read and one write, more only when another replica appended meanwhile. Throws on an
   * invalid entry (a caller's mistake) and when the store fails.
   */
  record(input: AuditInput): Promise<AuditLink> {
    const checked = auditEntrySchema.parse({
      ...input,
      time: input.time ?? new Date(this.now()).toISOString(),
    });
    return this.inTurn(checked.team, () =>
      this.appendOnHead(checked.team, async (head) => {
        // An entry with a ref already in the chain is not appended again (read after the head, so an
        // append on that head means no other append, that one included, came in between).
        const already = checked.ref === undefined ? undefined : await this.withRef(checked);
        if (already) return already;
        const link = linkAfter(head, { ...checked, time: notBefore(checked.time, head) });
        return (await this.engine.append(link, head)) ? link : undefined;
      }),
    );
  }

  /**
   * The link holding the entry of `entry.ref`, if the chain has it: among those of its action at or
   * after its time (an append never takes an earlier time), newest first, a page at a time.
   */
  private async withRef(entry: AuditEntry): Promise<AuditLink | undefined> {
    const marker = `"ref":${JSON.stringify(entry.ref)}`;
    const query = { from: Date.parse(entry.time), action: entry.action, limit: MAX_PAGE };
    for (let beforeSeq: number | undefined; ; ) {
      const links = await this.engine.page(entry.team, { ...query, beforeSeq });
      const found = links.find((link) => link.entry.includes(marker) && entryOf(link)?.ref === entry.ref);
      if (found || links.length < MAX_PAGE) return found;
      beforeSeq = links.at(-1)?.seq;
    }
  }

  /** The team's head (newest entry's number, hash and time), what an outside copy pins; undefined: none. */
  head(team: string): Promise<AuditHead | undefined> {
    return this.engine.head(team);
  }

  /** Every team with a chain, uninstalled ones too (for retention and the daily head). */
  teams(): Promise<string[]> {
    return this.engine.teams();
  }

  /** A page of a team's entries, newest first (limit 1 to MAX_PAGE). */
  async list(team: string, query: Omit<AuditQuery, "limit"> & { limit?: number }): Promise<AuditPage> {
    const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 20)), MAX_PAGE);
    const links = await this.engine.page(team, { ...query, limit: limit + 1 });
    const entries = links.slice(0, limit).map((link) => ({
      seq: link.seq,
      hash: link.hash,
      prevHash: link.prevHash,
      entry: entryOf(link),
    }));
    return { entries, next: links.length > limit ? entries.at(-1)?.seq : undefined };
  }

  /**
   * Walks the team's chain from its oldest kept entry to the head read first (entries appended
   * meanwhile are left for the next verification): it holds, or the first entry that does not.
   */
  async verify(team: string, posted: readonly PostedHead[] = []): Promise<VerifyResult> {
    const head = await this.engine.head(team);
    const check = new ChainCheck(team, posted);
    let after = 0;
    while (head && after < head.seq) {
      const links = (await this.engine.walk(team, after, WALK_BATCH)).filter((link) => link.seq <= head.seq);
      if (links.length === 0) break;
      for (const link of links) {
        const broken = check.next(link);
        if (broken) return broken;
      }
      after = links.at(-1)?.seq ?? head.seq;
    }
    return check.finish(head);
  }

  /** Removes the team's days before today's retention (AUDIT_RETENTION_DAYS). */
  removeExpired(team: string): Promise<Removal> {
    return this.removeDaysBefore(team, retentionCutoff(this.now(), this.options.retentionDays));
  }

  /**
   * Removes the team's entries of the UTC days before `day` (YYYY-MM-DD; at the latest the first
   * day the retention keeps, else it refuses), a prefix of its chain,
   * and appends the entry that records it in the same atomic step: the range, its times, and the
   * hash of the last one removed, which the oldest kept entry chains from.
   */
  removeDaysBefore(team: string, day: string): Promise<Removal> {
    const cutoff = dayStart(day);
    // Nothing removes what the retention still keeps, whatever a caller asks.
    const earliest = retentionCutoff(this.now(), this.options.retentionDays);
    if (day > earliest)
      return Promise.reject(
        new RangeError(
          `the audit days before ${day} are not all past AUDIT_RETENTION_DAYS (before ${earliest} are)`,
        ),
      );
    return this.inTurn(team, () =>
      this.appendOnHead(team, async (head): Promise<Removal | undefined> => {
        const prefix = head && (await this.engine.prefixBefore(team, cutoff));
        if (!head || !prefix) return { removed: 0 };
        const time = notBefore(new Date(this.now()).toISOString(), head);
        const link = linkAfter(head, removalEntry(team, prefix.first, prefix.last, day, time));
        if (!(await this.engine.removeThrough(prefix.last.seq, link, head))) return undefined;
        const [fromSeq, toSeq] = [prefix.first.seq, prefix.last.seq];
        return { removed: toSeq - fromSeq + 1, fromSeq, toSeq, record: link };
      }),
    );
  }

  /** Tries `attempt` on the team's head until it lands (it answers what it did, undefined: the head moved). */
  private async appendOnHead<T>(
    team: string,
    attempt: (head: AuditHead | undefined) => Promise<T | undefined>,
  ) {
    for (let tries = 1; tries <= MAX_ATTEMPTS; tries++) {
      const done = await attempt(await this.engine.head(team));
      if (done !== undefined) return done;
      // Another replica appended first: read its head again, after a short random wait once it repeats.
      if (tries > 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(tries, 20)));
    }
    throw new AuditContentionError(`the audit chain of ${team} kept moving: ${MAX_ATTEMPTS} appends lost`);
  }

  /** Runs `work` after this process's earlier work on the team's chain. */
  private inTurn<T>(team: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(team) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(team, settled);
    void settled.then(() => {
      if (this.queues.get(team) === settled) this.queues.delete(team);
    });
    return run;
  }
}

/** `time`, or the head's time when `time` is earlier (another replica's clock ran ahead). */
function notBefore(time: string, head: AuditHead | undefined): string {
  return head && Date.parse(time) < head.at ? new Date(head.at).toISOString() : time;
}
