import type Keyv from "keyv";
import type { z } from "zod";
import type { ClaimBoard } from "../store/claims/board.js";
import { BoardDocument } from "../store/claims/document.js";
import { StoreValueError } from "../store/credentials.js";
import {
  type Cadence,
  type DigestState,
  digestListSchema,
  digestStateSchema,
  type PeriodDigest,
} from "./model.js";

const stateKey = (team: string, channel: string, cadence: Cadence) => `${team}:${channel}:${cadence}`;

/** The board's family of the workspaces' digest lists: item = register key, one state LIST_FIELD. */
export const DIGEST_LIST_FAMILY = "digest-list";
const LIST_FIELD = "digests";
type DigestList = z.infer<typeof digestListSchema>;

/**
 * The weekly and monthly digests of each workspace (written by admins' commands) and what each
 * owes Slack (written by the digest runner, under the workspace's lease), apart, so a command never
 * races a pass writing its state. The list is a document on the claim board changed by
 * compare-and-set (two admins setting two digests at once both keep theirs); `lists` keeps, per
 * workspace with digests, the entry the runner lists them by (and, from releases before, the list
 * itself, read until the first change moves it).
 */
export class DigestStore {
  private readonly document: BoardDocument<DigestList>;

  constructor(
    private readonly lists: Keyv,
    private readonly states: Keyv,
    openBoard: () => Promise<ClaimBoard>,
  ) {
    this.document = new BoardDocument(openBoard, DIGEST_LIST_FAMILY, LIST_FIELD, (raw) => {
      const parsed = digestListSchema.safeParse(raw);
      return parsed.success ? parsed.data : undefined;
    });
  }

  async list(team: string): Promise<PeriodDigest[]> {
    const { raw, value } = await this.document.read(team);
    if (raw !== undefined && !value) throw unreadable(team);
    return (value ?? (await this.legacyOf(team))).digests;
  }

  /** Sets a channel's digest of that cadence (replacing one set before). */
  async set(team: string, digest: PeriodDigest): Promise<void> {
    await this.change(team, (digests) => [
      ...digests.filter((entry) => entry.channel !== digest.channel || entry.cadence !== digest.cadence),
      digest,
    ]);
  }

  /** Stops a channel's digest of that cadence; false when there was none. */
  async remove(team: string, channel: string, cadence: Cadence): Promise<boolean> {
    let found = false;
    await this.change(team, (digests) => {
      const left = digests.filter((entry) => entry.channel !== channel || entry.cadence !== cadence);
      found = left.length < digests.length;
      return left;
    });
    if (found) await this.states.delete(stateKey(team, channel, cadence));
    return found;
  }

  /** Every digest of a workspace (disconnect, uninstall). */
  async removeTeam(team: string): Promise<void> {
    for (const entry of await this.list(team).catch(() => []))
      await this.states.delete(stateKey(team, entry.channel, entry.cadence));
    await this.document.remove(team);
    await this.lists.delete(team);
  }

  /**
   * The list changed by compare-and-set, then the runner's entry for the workspace: written while it
   * has digests; removed when it has none, and written back if a change landed meanwhile.
   */
  private async change(team: string, next: (digests: PeriodDigest[]) => PeriodDigest[]): Promise<void> {
    const written = await this.document.update(team, async (current, stored) => {
      if (stored && !current) throw unreadable(team);
      return { digests: next((current ?? (await this.legacyOf(team))).digests) };
    });
    if (written.digests.length > 0) return void (await this.lists.set(team, true));
    await this.lists.delete(team);
    if ((await this.list(team)).length > 0) await this.lists.set(team, true);
  }

  /** The list as kept before it moved onto the board (the runner's entry `true`: none there). */
  private async legacyOf(team: string): Promise<DigestList> {
    const raw: unknown = await this.lists.get(team);
    if (raw === undefined || raw === true) return { digests: [] };
    const parsed = digestListSchema.safeParse(raw);
    if (!parsed.success) throw unreadable(team);
    return parsed.data;
  }

  /** Workspaces with at least one weekly or monthly digest. */
  async *teams(): AsyncGenerator<string> {
    const iterator = this.lists.iterator;
    if (!iterator) throw new Error("this store cannot list its keys");
    const seen = new Set<string>();
    for await (const [key] of iterator(this.lists.namespace)) {
      const team = String(key);
      // Redis' SCAN may return a key twice while its table grows.
      if (!seen.has(team)) {
        seen.add(team);
        yield team;
      }
    }
  }

  /** What a digest owes; one that cannot be read starts afresh (its claim still holds: no repeat). */
  async state(team: string, channel: string, cadence: Cadence): Promise<DigestState> {
    const parsed = digestStateSchema.safeParse(await this.states.get(stateKey(team, channel, cadence)));
    return parsed.success ? parsed.data : {};
  }

  async setState(team: string, channel: string, cadence: Cadence, state: DigestState): Promise<void> {
    await this.states.set(stateKey(team, channel, cadence), state);
  }
}

function unreadable(team: string): StoreValueError {
  return new StoreValueError(`digests of ${team} are not in the expected form`);
}
