import type Keyv from "keyv";
import { StoreValueError } from "../store/credentials.js";
import {
  type Cadence,
  type DigestState,
  digestListSchema,
  digestStateSchema,
  type PeriodDigest,
} from "./model.js";

const stateKey = (team: string, channel: string, cadence: Cadence) => `${team}:${channel}:${cadence}`;

/**
 * The weekly and monthly digests of each workspace (written by admins' commands) and what each
 * owes Slack (written by the digest runner, under the workspace's lease): two namespaces, so a
 * command never races a pass writing its state.
 */
export class DigestStore {
  constructor(
    private readonly lists: Keyv,
    private readonly states: Keyv,
  ) {}

  async list(team: string): Promise<PeriodDigest[]> {
    const raw: unknown = await this.lists.get(team);
    if (raw === undefined) return [];
    const parsed = digestListSchema.safeParse(raw);
    if (!parsed.success) throw new StoreValueError(`digests of ${team} are not in the expected form`);
    return parsed.data.digests;
  }

  /** Sets a channel's digest of that cadence (replacing one set before). */
  async set(team: string, digest: PeriodDigest): Promise<void> {
    const others = (await this.list(team)).filter(
      (entry) => entry.channel !== digest.channel || entry.cadence !== digest.cadence,
    );
    await this.lists.set(team, { digests: [...others, digest] });
  }

  /** Stops a channel's digest of that cadence; false when there was none. */
  async remove(team: string, channel: string, cadence: Cadence): Promise<boolean> {
    const all = await this.list(team);
    const left = all.filter((entry) => entry.channel !== channel || entry.cadence !== cadence);
    if (left.length === all.length) return false;
    if (left.length === 0) await this.lists.delete(team);
    else await this.lists.set(team, { digests: left });
    await this.states.delete(stateKey(team, channel, cadence));
    return true;
  }

  /** Every digest of a workspace (disconnect, uninstall). */
  async removeTeam(team: string): Promise<void> {
    for (const entry of await this.list(team).catch(() => []))
      await this.states.delete(stateKey(team, entry.channel, entry.cadence));
    await this.lists.delete(team);
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
