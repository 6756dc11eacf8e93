import { z } from "zod";
import type { StateCell } from "../store/claims/remembered.js";
import { WATCH_FAMILIES, WATCH_FIELDS } from "./board-state.js";
import type { AddCardLimits, AskerShare, WatchCard } from "./model.js";

// Each workspace's index of its watches, one state on the claim board: per watched invoice, the
// people with a card on it and when its place was taken. The cap (WATCH_MAX_PER_WORKSPACE) and each
// asker's share are counted from it, in one read. A place is taken before its watch is created and
// given back after it ends, so a crash in between leaves a place taken without a watch: when the
// cap or a share looks reached, such places older than PLACE_GRACE_MS are given back (and each
// entry's people read again from its cards), so no crash keeps a place forever.

const indexSchema = z.record(z.string(), z.object({ users: z.array(z.string()), at: z.number() }));
type Index = z.infer<typeof indexSchema>;

/** A place taken this recently may belong to a watch being created right now: never given back. */
const PLACE_GRACE_MS = 60_000;

function parseIndex(raw: unknown): Index {
  const parsed = indexSchema.safeParse(raw);
  return parsed.success ? parsed.data : {};
}

/** Whether a new watch fits the workspace's cap and the asker's share. */
function fits(index: Index, maxPerWorkspace: number, asker?: AskerShare): "watching" | Refusal {
  if (Object.keys(index).length >= maxPerWorkspace) return "workspace_full";
  if (!asker) return "watching";
  const held = Object.values(index).filter((entry) => entry.users.includes(asker.user)).length;
  return held >= asker.max ? "asker_full" : "watching";
}

type Refusal = "workspace_full" | "asker_full";

/** What a watch's data says of its cards: undefined when there is no watch. */
export type CardsOf = (invoiceId: string) => Promise<WatchCard[] | undefined>;

export class TeamIndex {
  /** When each workspace was last found full with every place its watch's (this process's view). */
  private readonly foundFull = new Map<string, number>();

  constructor(private readonly cell: StateCell) {}

  private noteFull(team: string, now: number): void {
    if (this.foundFull.size >= 10_000) this.foundFull.clear();
    this.foundFull.set(team, now);
  }

  private async read(team: string): Promise<Index> {
    return parseIndex(await this.cell.read(WATCH_FAMILIES.team, team, WATCH_FIELDS.team));
  }

  private change<T>(team: string, decide: (index: Index) => { result: T; next?: Index }): Promise<T> {
    return this.cell.update(WATCH_FAMILIES.team, team, WATCH_FIELDS.team, (raw) => {
      const { result, next } = decide(parseIndex(raw));
      return next === undefined ? { result } : { result, replace: next };
    });
  }

  async count(team: string): Promise<number> {
    return Object.keys(await this.read(team)).length;
  }

  /**
   * room()'s answer for an invoice not watched yet: one read, and only when that says full, the
   * places a crash left are given back (as reserve does) and it is asked once more.
   */
  async fits(
    team: string,
    limits: Pick<AddCardLimits, "maxPerWorkspace" | "asker" | "now">,
    cardsOf: CardsOf,
  ): Promise<"watching" | Refusal> {
    const first = fits(await this.read(team), limits.maxPerWorkspace, limits.asker);
    if (first === "watching" || !(await this.prune(team, limits.now, cardsOf))) return first;
    return fits(await this.read(team), limits.maxPerWorkspace, limits.asker);
  }

  /** Takes the invoice's place (or joins the one taken), within the cap and the asker's share. */
  async reserve(
    team: string,
    invoiceId: string,
    user: string,
    limits: AddCardLimits,
    cardsOf: CardsOf,
  ): Promise<"watching" | Refusal> {
    const take = () =>
      this.change(team, (index) => {
        const entry = index[invoiceId];
        if (entry) {
          if (entry.users.includes(user)) return { result: "watching" as const };
          return { result: "watching" as const, next: { ...index, [invoiceId]: withUser(entry, user) } };
        }
        const answer = fits(index, limits.maxPerWorkspace, limits.asker);
        if (answer !== "watching") return { result: answer };
        return { result: answer, next: { ...index, [invoiceId]: { users: [user], at: limits.now } } };
      });
    const first = await take();
    if (first === "watching") return first;
    // Full, or so it looks: places left by a crash are given back, then it is asked once more.
    return (await this.prune(team, limits.now, cardsOf)) ? take() : first;
  }

  /** Notes `user` among the invoice's people (a card of theirs joined its watch). */
  addUser(team: string, invoiceId: string, user: string, now: number): Promise<void> {
    return this.change(team, (index) => {
      const entry = index[invoiceId] ?? { users: [], at: now };
      if (entry.users.includes(user)) return { result: undefined };
      return { result: undefined, next: { ...index, [invoiceId]: withUser(entry, user) } };
    });
  }

  /** `user` has no card on the invoice any more. */
  dropUser(team: string, invoiceId: string, user: string): Promise<void> {
    return this.change(team, (index) => {
      const entry = index[invoiceId];
      if (!entry?.users.includes(user)) return { result: undefined };
      const users = entry.users.filter((name) => name !== user);
      return { result: undefined, next: { ...index, [invoiceId]: { ...entry, users } } };
    });
  }

  /** The invoices' watches ended: their places are given back. */
  giveBack(team: string, invoiceIds: readonly string[]): Promise<void> {
    return this.change(team, (index) => {
      const next = { ...index };
      for (const invoiceId of invoiceIds) delete next[invoiceId];
      return invoiceIds.some((id) => id in index) ? { result: undefined, next } : { result: undefined };
    });
  }

  /** The invoices of the workspace's index. */
  async invoices(team: string): Promise<string[]> {
    return Object.keys(await this.read(team));
  }

  /**
   * Gives back places whose watch is gone (taken over PLACE_GRACE_MS ago) and reads each watch's
   * people again from its cards. True when anything changed.
   */
  private async prune(team: string, now: number, cardsOf: CardsOf): Promise<boolean> {
    // A workspace found truly full a moment ago is not read through again for each new card.
    if (now - (this.foundFull.get(team) ?? Number.NEGATIVE_INFINITY) < PLACE_GRACE_MS) return false;
    const seen = await Promise.all(
      Object.entries(await this.read(team)).map(async ([invoiceId, entry]) => ({
        invoiceId,
        entry,
        cards: await cardsOf(invoiceId),
      })),
    );
    const stale = new Map<string, number>();
    const people = new Map<string, string[]>();
    let young = 0;
    for (const { invoiceId, entry, cards } of seen) {
      if (!cards) {
        if (now - entry.at >= PLACE_GRACE_MS) stale.set(invoiceId, entry.at);
        else young += 1;
        continue;
      }
      const users = [...new Set(cards.map((card) => card.user))];
      if (users.length !== entry.users.length || users.some((user) => !entry.users.includes(user)))
        people.set(invoiceId, users);
    }
    if (stale.size === 0 && people.size === 0) {
      if (young === 0) this.noteFull(team, now);
      return false;
    }
    await this.change(team, (index) => {
      const next = { ...index };
      for (const [invoiceId, at] of stale) if (next[invoiceId]?.at === at) delete next[invoiceId];
      for (const [invoiceId, users] of people) {
        const entry = next[invoiceId];
        if (entry) next[invoiceId] = { ...entry, users };
      }
      return { result: undefined, next };
    });
    return true;
  }
}

function withUser(entry: Index[string], user: string): Index[string] {
  return { ...entry, users: [...entry.users, user] };
}
