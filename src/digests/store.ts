import type Keyv from "keyv";
import type { z } from "zod";
import type { ClaimBoard } from "../store/claims/board.js";
import { ListedDocument } from "../store/claims/listed.js";
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
 * races a pass writing its state. The list is a ListedDocument (store/claims/listed.ts): changed by
 * compare-and-set, so two admins setting two digests at once both keep theirs.
 */
export class DigestStore {
  private readonly lists: ListedDocument<DigestList>;

  constructor(
    index: Keyv,
    private readonly states: Keyv,
    openBoard: () => Promise<ClaimBoard>,
  ) {
    this.lists = new ListedDocument(openBoard, DIGEST_LIST_FAMILY, LIST_FIELD, index, {
      parse: (raw) => {
        const parsed = digestListSchema.safeParse(raw);
        return parsed.success ? parsed.data : undefined;
      },
      empty: () => ({ digests: [] }),
      size: (list) => list.digests.length,
      unreadable: (team) => new StoreValueError(`digests of ${team} are not in the expected form`),
    });
  }

  async list(team: string): Promise<PeriodDigest[]> {
    return (await this.lists.read(team)).digests;
  }

  /** Sets a channel's digest of that cadence (replacing one set before). */
  async set(team: string, digest: PeriodDigest): Promise<void> {
    await this.lists.change(team, ({ digests }) => ({
      digests: [
        ...digests.filter((entry) => entry.channel !== digest.channel || entry.cadence !== digest.cadence),
        digest,
      ],
    }));
  }

  /** Stops a channel's digest of that cadence; false when there was none. */
  async remove(team: string, channel: string, cadence: Cadence): Promise<boolean> {
    let found = false;
    await this.lists.change(team, ({ digests }) => {
      const left = digests.filter((entry) => entry.channel !== channel || entry.cadence !== cadence);
      found = left.length < digests.length;
      return { digests: left };
    });
    if (found) await this.states.delete(stateKey(team, channel, cadence));
    return found;
  }

  /** Every digest of a workspace (disconnect, uninstall). */
  async removeTeam(team: string): Promise<void> {
    for (const entry of await this.list(team).catch(() => []))
      await this.states.delete(stateKey(team, entry.channel, entry.cadence));
    await this.lists.remove(team);
  }

  /** Workspaces with at least one weekly or monthly digest. */
  teams(): AsyncGenerator<string> {
    return this.lists.keys();
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
