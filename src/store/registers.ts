import { z } from "zod";
import { BoardDocument } from "./claims/document.js";
import { type ClaimBoard, openClaimBoard } from "./claims/index.js";
import type { KeyvStore } from "./connection.js";
import { Memo } from "./memo.js";
import { DEFAULT_PREFIX } from "./schema/names.js";

// A workspace may connect several cash registers, each with a short name. The first is `main`, and
// its key is the workspace's own team id: everything a release before registers kept per workspace
// (credentials, callback address, caches, feeds, live cards) is main's, with nothing to move. Every
// other register's key is `<team>~<name>` (Slack ids never hold `~`), used wherever main's state is
// keyed by its team. The directory (one state per workspace on the claim board, changed by
// compare-and-set, so two admins at once lose nothing) lists the other registers and which register
// each channel uses.

export const MAIN_REGISTER = "main";

/**
 * Words a register may not be named: a register's name may start any command (`/invoice shop2 list`),
 * so it must never read as one of Kassa's own words (test/store/registers.test.ts holds the list
 * against the `/invoice` sub-commands).
 */
const RESERVED_WORDS =
  "help connect disconnect status use list summary export subscribe unsubscribe feed digest " +
  "new create callback language lang audit alert alerts payout payouts all paid unpaid " +
  "notpaid today yesterday week month off on setup policy register registers enabled disabled " +
  "reissue re-issue recurring remind every " +
  "лента язык перевыпустить повторяющиеся неоплаченные напомнить";
export const RESERVED_REGISTER_NAMES: ReadonlySet<string> = new Set(RESERVED_WORDS.split(" "));

/** Letters, digits and `-`, a letter first, at most 20 characters; stored and matched in lower case. */
export const registerNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{0,19}$/, "a letter, then letters, digits or -, at most 20 characters")
  .refine((name) => !RESERVED_REGISTER_NAMES.has(name), "that word is one of Kassa's own command words");

/** The key a register's state is kept under: main's is the team id itself. */
export function registerKey(team: string, name: string): string {
  return name === MAIN_REGISTER ? team : `${team}~${name}`;
}

/** The workspace and the register's name of a register key. */
export function registerOfKey(key: string): { team: string; name: string } {
  const at = key.indexOf("~");
  return at < 0 ? { team: key, name: MAIN_REGISTER } : { team: key.slice(0, at), name: key.slice(at + 1) };
}

/** The operators' CLI flags naming a register: `--team T…` and, for one besides main, `--register NAME`. */
export function registerCliFlags(key: string): string {
  const { team, name } = registerOfKey(key);
  return name === MAIN_REGISTER ? `--team ${team}` : `--team ${team} --register ${name}`;
}

const addedSchema = z.object({ by: z.string().min(1), at: z.iso.datetime() });
const directorySchema = z.object({
  v: z.literal(1),
  /** The registers besides main, by name: who added each and when. */
  others: z.record(z.string(), addedSchema),
  /** A channel's register, where an admin chose one (`/invoice use NAME`). */
  channels: z.record(z.string(), z.string()),
  /** A register kept to chosen channels (its connect form): used there only. Absent: anywhere. */
  limits: z.record(z.string(), z.array(z.string()).min(1)).default({}),
});
export type RegisterDirectoryState = z.infer<typeof directorySchema>;
const EMPTY: RegisterDirectoryState = { v: 1, others: {}, channels: {}, limits: {} };

/** A register as a feed or a digest shows it: its name (where it must be said), and where it may post. */
export type RegisterShown = { label: string | undefined; keptTo: readonly string[] | undefined };

/** The board's family of the workspaces' directories: item = team id, state DIRECTORY_FIELD. */
export const REGISTERS_FAMILY = "registers";
const DIRECTORY_FIELD = "directory";

export class RegisterDirectory {
  private readonly memo: Memo<RegisterDirectoryState>;
  private readonly document: BoardDocument<RegisterDirectoryState>;

  /** `memoMs`: how long a read is reused in memory (a change shows on other replicas after it). */
  constructor(open: () => Promise<ClaimBoard>, memoMs = 0) {
    this.memo = new Memo(memoMs);
    this.document = new BoardDocument(open, REGISTERS_FAMILY, DIRECTORY_FIELD, (raw) => {
      const parsed = directorySchema.safeParse(raw);
      return parsed.success ? parsed.data : undefined;
    });
  }

  /** The workspace's directory; an unreadable one reads as empty (only main), never as someone else's. */
  async get(team: string): Promise<RegisterDirectoryState> {
    const remembered = this.memo.get(team, undefined);
    if (remembered) return remembered;
    const directory = (await this.document.read(team)).value ?? EMPTY;
    this.memo.set(team, directory);
    return directory;
  }

  /** Names the workspace's registers besides main, sorted. */
  async others(team: string): Promise<string[]> {
    return Object.keys((await this.get(team)).others).sort();
  }

  /**
   * What background work (a feed, a digest) shows of a register and where it may post: its name where
   * its workspace has several (or it is not main), and the channels it is kept to (undefined: any).
   */
  async shown(key: string): Promise<RegisterShown> {
    const { team, name } = registerOfKey(key);
    const directory = await this.get(team);
    const several = Object.keys(directory.others).length > 0;
    return { label: several || name !== MAIN_REGISTER ? name : undefined, keptTo: directory.limits[name] };
  }

  async addOther(team: string, name: string, by: string): Promise<void> {
    await this.change(team, (directory) =>
      directory.others[name]
        ? directory
        : { ...directory, others: { ...directory.others, [name]: { by, at: new Date().toISOString() } } },
    );
  }

  /** Forgets a register; the channels that used it go back to main. */
  async removeOther(team: string, name: string): Promise<void> {
    await this.change(team, (directory) => ({
      v: 1,
      others: Object.fromEntries(Object.entries(directory.others).filter(([other]) => other !== name)),
      channels: Object.fromEntries(Object.entries(directory.channels).filter(([, used]) => used !== name)),
      limits: Object.fromEntries(Object.entries(directory.limits).filter(([limited]) => limited !== name)),
    }));
  }

  /** Keeps a register to these channels (its reports, balance, lookups and exports only there); none: anywhere. */
  async limitTo(team: string, name: string, channels: readonly string[]): Promise<void> {
    await this.change(team, (directory) => {
      const limits = Object.fromEntries(
        Object.entries(directory.limits).filter(([limited]) => limited !== name),
      );
      return {
        ...directory,
        limits: channels.length > 0 ? { ...limits, [name]: [...new Set(channels)] } : limits,
      };
    });
  }

  /** Makes `name` the channel's register; undefined: the channel uses main again. */
  async useInChannel(team: string, channel: string, name: string | undefined): Promise<void> {
    await this.change(team, (directory) => {
      const channels = Object.fromEntries(
        Object.entries(directory.channels).filter(([id]) => id !== channel),
      );
      return {
        ...directory,
        channels: name && name !== MAIN_REGISTER ? { ...channels, [channel]: name } : channels,
      };
    });
  }

  /** Forgets the workspace's directory (uninstall). */
  async removeTeam(team: string): Promise<void> {
    this.memo.delete(team);
    await this.document.remove(team);
  }

  private async change(
    team: string,
    next: (directory: RegisterDirectoryState) => RegisterDirectoryState,
  ): Promise<void> {
    this.memo.delete(team);
    await this.document.update(team, (current) => next(current ?? EMPTY));
    this.memo.delete(team);
  }
}

/** The register directory of a store, on its claim board under `prefix` (a test run's own, or the store's). */
export function registerDirectoryFor(
  store: KeyvStore,
  timeoutMs: number,
  options: { prefix?: string; memoMs?: number } = {},
): RegisterDirectory {
  return new RegisterDirectory(
    () => openClaimBoard(store, options.prefix ?? DEFAULT_PREFIX, timeoutMs),
    options.memoMs ?? 0,
  );
}
