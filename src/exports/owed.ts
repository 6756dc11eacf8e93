import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { exportEndMessage } from "../blocks/export.js";
import { langSchema } from "../i18n/lang.js";
import { type ClaimBoard, openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import type { Logger } from "../util/logger.js";

/** The claim board's family of exports under way, each owing its asker an end (item key: the job id). */
export const OWED_FAMILY = "export-owed";
/** The item's states: what is owed, and since when telling it has failed. */
const ENTRY = "entry";
const FAILING = "failing";

/** An entry nobody could settle (its workspace gone, Slack refusing) is given up a day after the first try. */
const OWED_TTL_MS = 24 * 60 * 60_000;
/** How long a replica that claimed an entry has to tell its asker before another may try. */
const TELL_CLAIM_MS = 5 * 60_000;
/** Lapsed entries claimed per call of claimDue; a sweep takes batches until one comes back short. */
const BATCH = 50;
const MAX_BATCHES = 10;

/**
 * What an export owes its asker, written when it starts: where its progress message is (the channel,
 * then the message once posted) and what it exports. No secrets, no amounts. (Entries of the release
 * before the board also carry `beat` and `leaseMs`, its heartbeat: the claim's lease is that now.)
 */
const owedSchema = z.object({
  v: z.literal(1),
  team: z.string().min(1),
  user: z.string().min(1),
  channel: z.string().min(1),
  lang: langSchema,
  title: z.string(),
  format: z.string(),
  ts: z.string().optional(),
});
export type OwedExport = z.infer<typeof owedSchema>;
const failingSchema = z.object({ since: z.number() });

/** A lapsed export claimed to tell its asker: the item's key (the job id) and the claim's token. */
export type OwedClaim = { jobId: string; token: string; entry: OwedExport };

/**
 * Exports under way, each owing its asker an end, as a family on the claim board. The running export
 * holds its item's claim (its job id the token) and renews it with the export's lease, never past it:
 * when its replica dies the item lapses no later than the workspace's export lease does, and one
 * replica claims it (claimDue), tells the asker and forgets it. Settled (forgotten) when the export
 * says how it ended; left due at once when it stopped without saying.
 */
export class OwedExports {
  constructor(private readonly board: ClaimBoard) {}

  /**
   * The export's item, claimed until `at + leaseMs` (`at`: when its lease was taken, so this claim
   * ends first). Enlisted first: the item stays scheduled when the claim lapses, whatever the engine.
   */
  async open(jobId: string, at: number, leaseMs: number): Promise<boolean> {
    await this.board.enlist(OWED_FAMILY, jobId, at + leaseMs);
    return (await this.board.claimKey(OWED_FAMILY, jobId, jobId, at, leaseMs)).held;
  }

  /** Writes the entry while the export still holds its item; false when it no longer does. */
  write(jobId: string, entry: OwedExport): Promise<boolean> {
    return this.board.writeState(OWED_FAMILY, jobId, ENTRY, jobId, entry);
  }

  /** The export's lease was renewed, asked at `at`: the item's claim too, to `at + leaseMs`. */
  renew(jobId: string, at: number, leaseMs: number): Promise<boolean> {
    return this.board.renew(OWED_FAMILY, jobId, jobId, at, leaseMs);
  }

  /** The export said how it ended: nothing is owed. */
  async settle(jobId: string): Promise<void> {
    await this.board.release(OWED_FAMILY, jobId, jobId, "forget");
  }

  /** The export stopped without telling its asker (lost, crashed): due at once for the next sweep. */
  async leave(jobId: string, now: number): Promise<void> {
    await this.board.release(OWED_FAMILY, jobId, jobId, { dueAt: now });
  }

  /**
   * Entries whose export lapsed (its replica is gone, or it stopped without a word), each claimed for
   * this caller for TELL_CLAIM_MS. An item without a readable entry is forgotten. With `only`: those
   * of that workspace but `except` (the caller holds the workspace's export lease, so every other
   * export of it has lapsed); another workspace's is left due at once, for the sweep.
   */
  async claimLapsed(now: number, only?: { team: string; except: string }): Promise<OwedClaim[]> {
    const claimed: OwedClaim[] = [];
    for (let round = 0; round < MAX_BATCHES; round++) {
      const batch = await this.board.claimDue(OWED_FAMILY, now, TELL_CLAIM_MS, BATCH);
      for (const { key, token } of batch) {
        const entry = owedSchema.safeParse(await this.board.readState(OWED_FAMILY, key, ENTRY));
        if (!entry.success) await this.board.release(OWED_FAMILY, key, token, "forget");
        else if (only && (entry.data.team !== only.team || key === only.except))
          await this.board.release(OWED_FAMILY, key, token, { dueAt: now });
        else claimed.push({ jobId: key, token, entry: entry.data });
      }
      // With `only`, what was left due would come back at once: one batch.
      if (batch.length < BATCH || only) break;
    }
    return claimed;
  }

  /** Told (or nobody left to tell): forgotten. */
  async told(claim: OwedClaim): Promise<void> {
    await this.board.release(OWED_FAMILY, claim.jobId, claim.token, "forget");
  }

  /**
   * Telling failed: the claim lapses and a later sweep tries again, until a day after the first
   * failure; then the entry is given up (true).
   */
  async failed(claim: OwedClaim, now: number): Promise<boolean> {
    const failing = failingSchema.safeParse(await this.board.readState(OWED_FAMILY, claim.jobId, FAILING));
    if (!failing.success) {
      await this.board.writeState(OWED_FAMILY, claim.jobId, FAILING, claim.token, { since: now });
      return false;
    }
    if (now - failing.data.since < OWED_TTL_MS) return false;
    await this.told(claim);
    return true;
  }
}

/** The exports owed on the store's claim board (`prefix`: a test run's own, as the leases'). */
export async function owedExportsFor(
  store: Pick<KeyvStore, "native">,
  prefix?: string,
): Promise<OwedExports> {
  return new OwedExports(await openClaimBoard(store, prefix));
}

/**
 * One running export's entry, kept up to date by its replica: one write at a time, the newest last, so
 * a renewal never runs before the claim is taken. A write that fails is logged; the next writes it all.
 */
export class OwedNote {
  private writes: Promise<void> = Promise.resolve();
  private opened = false;
  /** Settled or left: a renewal already on its way then does nothing (the item is not the export's). */
  private ended = false;

  constructor(
    private readonly owed: OwedExports,
    private readonly jobId: string,
    private readonly entry: OwedExport,
    /** When the export's lease was taken, and for how long it is renewed each time. */
    private readonly lease: { at: number; ms: number },
    private readonly logger: Logger,
    /** The exports' clock (ms since the epoch). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Claims the item (the first time) and writes the entry as it stands. */
  write(): Promise<void> {
    const entry = { ...this.entry };
    return this.inTurn(async () => {
      if (this.ended) return;
      if (!this.opened) this.opened = await this.owed.open(this.jobId, this.lease.at, this.lease.ms);
      if (!this.opened || !(await this.owed.write(this.jobId, entry)))
        throw new Error("the export no longer holds its entry");
    }, "could not note an export");
  }

  /** The export's lease was renewed, asked at `at`. */
  beat(at: number): Promise<void> {
    return this.inTurn(async () => {
      if (this.ended) return;
      if (!(await this.owed.renew(this.jobId, at, this.lease.ms)))
        throw new Error("the export no longer holds its entry");
    }, "could not note an export");
  }

  /** The progress message was posted: another replica can end it now. */
  posted(ts: string): Promise<void> {
    this.entry.ts = ts;
    return this.write();
  }

  /** The export said how it ended: once every write asked for has landed, the entry goes. */
  async settle(): Promise<void> {
    await this.inTurn(() => this.end(() => this.owed.settle(this.jobId)), "could not settle an export");
  }

  /** The export stopped without a word to its asker: another sweep tells them, at once. */
  async leave(): Promise<void> {
    await this.inTurn(
      () => this.end(() => this.owed.leave(this.jobId, this.now())),
      "could not settle an export",
    );
  }

  /** Ends the note once the writes asked for before it have landed; later ones do nothing. */
  private end(step: () => Promise<void>): Promise<void> {
    this.ended = true;
    return step();
  }

  private inTurn(step: () => Promise<void>, failure: string): Promise<void> {
    this.writes = this.writes
      .then(step)
      .catch((error: unknown) =>
        this.logger.warn({ team: this.entry.team, export: this.jobId, err: error }, failure),
      );
    return this.writes;
  }
}

/**
 * Tells each claimed asker that their export stopped with the replica making it, in place of its
 * progress message (its Cancel gone) or, when none was posted yet, as a new message; then forgets it.
 */
export async function tellLapsed(
  owed: OwedExports,
  claimed: OwedClaim[],
  slack: (team: string) => Promise<webApi.WebClient | undefined>,
  logger: Logger,
  now: () => number = Date.now,
): Promise<void> {
  for (const claim of claimed) {
    const { jobId, entry } = claim;
    const line = { team: entry.team, user: entry.user, export: jobId };
    try {
      const client = await slack(entry.team);
      if (!client) {
        // Uninstalled since: nobody to tell there.
        await owed.told(claim);
        continue;
      }
      const { text, blocks } = exportEndMessage(
        { kind: "lapsed", title: entry.title, format: entry.format },
        entry.lang,
      );
      if (entry.ts) await client.chat.update({ channel: entry.channel, ts: entry.ts, text, blocks });
      else await client.chat.postMessage({ channel: entry.channel, text, blocks });
      await owed.told(claim);
      logger.info({ ...line, outcome: "export_lapsed" }, "told the asker an export stopped with its replica");
    } catch (error) {
      // The claim lapses in TELL_CLAIM_MS; a later sweep tries again, for a day.
      logger.warn({ ...line, err: error }, "could not tell the asker an export stopped");
      await owed.failed(claim, now()).catch(() => false);
    }
  }
}
