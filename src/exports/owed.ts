import type { webApi } from "@slack/bolt";
import type Keyv from "keyv";
import { z } from "zod";
import { exportEndMessage } from "../blocks/export.js";
import { langSchema } from "../i18n/lang.js";
import type { Logger } from "../util/logger.js";

/** An entry nobody could settle (its workspace gone, Slack refusing) is dropped after a day. */
const OWED_TTL_MS = 24 * 60 * 60_000;
/** How long a replica that claimed an entry has to tell its asker before another may try. */
const TELL_CLAIM_MS = 5 * 60_000;

/**
 * What an export owes its asker, written when it starts: where its progress message is (the channel,
 * then the message once posted), what it exports, and `beat`, when its replica last renewed the
 * export's lease (of `leaseMs`). No secrets, no amounts.
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
  beat: z.number(),
  leaseMs: z.number().positive(),
});
export type OwedExport = z.infer<typeof owedSchema>;

/**
 * Exports under way, each owing its asker an end: settled (removed) when the export says how it
 * ended; one whose replica died (no beat for its lease) is claimed by one replica, which tells the
 * asker it stopped, as the command journal's commands a stopped process left are answered.
 */
export class OwedExports {
  constructor(
    private readonly keyv: Keyv,
    /** The store's claimOnce: one atomic statement of the engine, shared by every replica. */
    private readonly claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  ) {}

  async write(jobId: string, entry: OwedExport): Promise<void> {
    await this.keyv.set(jobId, entry, OWED_TTL_MS);
  }

  async settle(jobId: string): Promise<void> {
    await this.keyv.delete(jobId);
  }

  /**
   * Entries whose export has not beaten for its lease (its replica is gone), each claimed for this
   * caller. With `only`: every entry of that workspace but `except`, whatever its beat (the
   * caller holds the workspace's export lease now, so no other export of it is running).
   */
  async claimLapsed(
    now: number,
    only?: { team: string; except: string },
  ): Promise<Array<{ jobId: string; entry: OwedExport }>> {
    const iterate = this.keyv.iterator;
    if (!iterate) return [];
    const found: Array<[string, unknown]> = [];
    for await (const [key, value] of iterate(this.keyv.namespace)) found.push([String(key), value]);
    const claimed: Array<{ jobId: string; entry: OwedExport }> = [];
    for (const [jobId, value] of found) {
      const entry = owedSchema.safeParse(value);
      if (!entry.success) {
        await this.keyv.delete(jobId);
        continue;
      }
      if (
        only
          ? entry.data.team !== only.team || jobId === only.except
          : now - entry.data.beat < entry.data.leaseMs
      )
        continue;
      if (!(await this.claimOnce(`export-owed:${jobId}`, TELL_CLAIM_MS))) continue;
      claimed.push({ jobId, entry: entry.data });
    }
    return claimed;
  }
}

/**
 * One running export's entry, kept up to date by its replica: one write at a time, the newest last, so
 * a beat never takes back the progress message's ts. A write that fails is logged; the next writes it all.
 */
export class OwedNote {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly owed: OwedExports,
    private readonly jobId: string,
    private readonly entry: OwedExport,
    private readonly logger: Logger,
  ) {}

  write(): Promise<void> {
    const entry = { ...this.entry };
    this.writes = this.writes
      .then(() => this.owed.write(this.jobId, entry))
      .catch((error: unknown) =>
        this.logger.warn(
          { team: this.entry.team, export: this.jobId, err: error },
          "could not note an export",
        ),
      );
    return this.writes;
  }

  /** The export's lease was renewed just now. */
  beat(): Promise<void> {
    this.entry.beat = Date.now();
    return this.write();
  }

  /** The progress message was posted: another replica can end it now. */
  posted(ts: string): Promise<void> {
    this.entry.ts = ts;
    return this.write();
  }

  /** The export said how it ended: once every write asked for has landed, the entry goes. */
  async settle(): Promise<void> {
    await this.writes;
    await this.owed.settle(this.jobId).catch((error: unknown) => {
      this.logger.warn(
        { team: this.entry.team, export: this.jobId, err: error },
        "could not settle an export",
      );
    });
  }
}

/**
 * Tells each claimed asker that their export stopped with the replica making it, in place of its
 * progress message (its Cancel gone) or, when none was posted yet, as a new message; then settles it.
 */
export async function tellLapsed(
  owed: OwedExports,
  claimed: Array<{ jobId: string; entry: OwedExport }>,
  slack: (team: string) => Promise<webApi.WebClient | undefined>,
  logger: Logger,
): Promise<void> {
  for (const { jobId, entry } of claimed) {
    const line = { team: entry.team, user: entry.user, export: jobId };
    try {
      const client = await slack(entry.team);
      if (!client) {
        // Uninstalled since: nobody to tell there.
        await owed.settle(jobId);
        continue;
      }
      const { text, blocks } = exportEndMessage(
        { kind: "lapsed", title: entry.title, format: entry.format },
        entry.lang,
      );
      if (entry.ts) await client.chat.update({ channel: entry.channel, ts: entry.ts, text, blocks });
      else await client.chat.postMessage({ channel: entry.channel, text, blocks });
      await owed.settle(jobId);
      logger.info({ ...line, outcome: "export_lapsed" }, "told the asker an export stopped with its replica");
    } catch (error) {
      // The claim lapses in TELL_CLAIM_MS; a later sweep tries again.
      logger.warn({ ...line, err: error }, "could not tell the asker an export stopped");
    }
  }
}
