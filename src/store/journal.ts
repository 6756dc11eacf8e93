import { createHash } from "node:crypto";
import type Keyv from "keyv";
import { z } from "zod";

/** Slack accepts replies on a response_url for 30 minutes; entries are dropped before that. */
export const JOURNAL_MAX_AGE_MS = 25 * 60 * 1000;
/** How long a claimed entry belongs to the replica that claimed it before another may try. */
const CLAIM_TTL_MS = 5 * 60 * 1000;

/**
 * What a slash command needs to be run again: Slack's fields without the (deprecated) verification
 * token or the trigger id, which would have expired anyway. No secrets; response_url is sensitive, so
 * an entry lives only until its reply is sent, and never past JOURNAL_MAX_AGE_MS.
 */
export const journalCommandSchema = z.object({
  command: z.string(),
  text: z.string(),
  team_id: z.string(),
  user_id: z.string(),
  channel_id: z.string(),
  response_url: z.url(),
  api_app_id: z.string().optional(),
  enterprise_id: z.string().optional(),
  is_enterprise_install: z.string().optional(),
  team_domain: z.string().optional(),
  channel_name: z.string().optional(),
  user_name: z.string().optional(),
});
export type JournalCommand = z.infer<typeof journalCommandSchema>;

/** `at`: when the command was acknowledged; `beat`: when its process last said it is still on it. */
const entrySchema = z.object({
  v: z.literal(1),
  at: z.number(),
  beat: z.number().optional(),
  command: journalCommandSchema,
});

/** Picks the journaled fields out of a slash command's body. */
export function journalCommand(body: Record<string, unknown>): JournalCommand | undefined {
  const fields = Object.fromEntries(
    Object.keys(journalCommandSchema.shape)
      .filter((key) => typeof body[key] === "string")
      .map((key) => [key, body[key]]),
  );
  const parsed = journalCommandSchema.safeParse(fields);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Commands acknowledged but not yet answered. An entry is written right after the ack and removed
 * once the reply is sent; what a dead process leaves behind is claimed (atomically, by one replica)
 * and run again while its response_url still works.
 */
export class CommandJournal {
  constructor(
    private readonly keyv: Keyv,
    /** The store's claimOnce: one atomic statement of the engine, shared by every replica. */
    private readonly claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  ) {}

  /** The entry's id: a digest of the response_url (unique per command), so the URL is not a key. */
  static idOf(command: JournalCommand): string {
    return createHash("sha256").update(command.response_url).digest("base64url").slice(0, 32);
  }

  async record(command: JournalCommand, at: number): Promise<string> {
    const id = CommandJournal.idOf(command);
    await this.keyv.set(id, { v: 1, at, command }, JOURNAL_MAX_AGE_MS);
    return id;
  }

  /** The process working on the command is alive: its entry is not stale yet. */
  async beat(id: string, command: JournalCommand, at: number, now: number): Promise<void> {
    const left = at + JOURNAL_MAX_AGE_MS - now;
    if (left > 0) await this.keyv.set(id, { v: 1, at, beat: now, command }, left);
  }

  async remove(id: string): Promise<void> {
    await this.keyv.delete(id);
  }

  /**
   * Entries whose process has not said it is still on them for `graceMs` (it beats every third of
   * that while it works, so it is gone) and younger than JOURNAL_MAX_AGE_MS, each claimed for this
   * caller; older ones are deleted.
   */
  async claimStale(now: number, graceMs: number): Promise<Array<{ id: string; command: JournalCommand }>> {
    const claimed: Array<{ id: string; command: JournalCommand }> = [];
    const iterate = this.keyv.iterator;
    if (!iterate) return claimed;
    const found: Array<[string, unknown]> = [];
    for await (const [key, value] of iterate(this.keyv.namespace)) found.push([String(key), value]);
    for (const [id, value] of found) {
      const entry = entrySchema.safeParse(value);
      if (!entry.success || now - entry.data.at >= JOURNAL_MAX_AGE_MS) {
        await this.keyv.delete(id);
        continue;
      }
      if (now - (entry.data.beat ?? entry.data.at) < graceMs) continue;
      if (!(await this.claimOnce(`journal:${id}`, CLAIM_TTL_MS))) continue;
      claimed.push({ id, command: entry.data.command });
    }
    return claimed;
  }
}
