import { randomUUID } from "node:crypto";
import type { ClaimBoard } from "../store/claims/index.js";
import type { CellChange as Change } from "../store/claims/remembered.js";
import { WATCH_FAMILIES, WATCH_FIELDS } from "./board-state.js";
import { BoardWatches, holds } from "./board-watches.js";
import {
  type AddCardLimits,
  type AddCardResult,
  type AskerShare,
  cardId,
  MAX_CARDS_PER_WATCH,
  type RescheduleFields,
  type ToldFrom,
  type ToldTo,
  type Watch,
  type WatchCard,
  type WatchQueue,
  type WatchSeed,
  watchKey,
} from "./model.js";
import { owe } from "./owed.js";
import { readSpacingMs } from "./read-budget.js";

const { schedule: SCHEDULE, data: DATA, reads: READS } = WATCH_FAMILIES;
const FIELD = WATCH_FIELDS.data;

/**
 * The live cards' queue, one implementation on the claim board for every store engine (families in
 * board-state.ts). Each step that replicas race on is one compare-and-set of the watch's data, which
 * carries the token of the claim reading it: a claim marks the data with its token, and a step given
 * an older token finds another one there and is refused. The board's claims keep the schedule: one
 * replica at a time reads a watch, renewed, released with the next due time, nudged by a payment.
 */
export class BoardWatchQueue implements WatchQueue {
  private readonly watches: BoardWatches;

  /** `onUnreadable`: a claimed watch whose data could not be read was dropped. */
  constructor(board: ClaimBoard, onUnreadable: (count: number) => void = () => undefined) {
    this.watches = new BoardWatches(board, onUnreadable);
  }

  async addCard(seed: WatchSeed, card: WatchCard, limits: AddCardLimits): Promise<AddCardResult> {
    const key = watchKey(seed.team, seed.invoiceId);
    const dueAt = limits.now + limits.firstDueInMs;
    const cardsOf = async (invoiceId: string) =>
      (await this.watches.read(watchKey(seed.team, invoiceId)))?.cards;
    // A watch created or ended by another replica meanwhile sends this round again.
    for (let round = 0; round < 5; round += 1) {
      const joined = await this.join(seed.team, seed.invoiceId, card);
      if (joined === "added") {
        // The schedule too, should a crash have left the watch without one (enlist keeps one there).
        await this.watches.teams.addUser(seed.team, seed.invoiceId, card.user, limits.now);
        await this.watches.board.enlist(SCHEDULE, key, dueAt);
        return "watching";
      }
      if (joined !== "absent") return joined;
      const place = await this.watches.teams.reserve(seed.team, seed.invoiceId, card.user, limits, cardsOf);
      if (place !== "watching") return place;
      const now = limits.now;
      const watch: Watch = {
        ...seed,
        ...{ startedAt: now, intervalMs: limits.firstDueInMs, lastCheckedAt: now, cardsUpdatedAt: now },
        cards: [card],
      };
      const created = await this.watches.change(seed.team, seed.invoiceId, (_, raw) =>
        raw === undefined ? { result: true, replace: watch } : { result: false },
      );
      if (!created) continue;
      await this.watches.board.enlist(SCHEDULE, key, dueAt);
      return "watching";
    }
    throw new Error("the invoice's watch kept changing while a card was added");
  }

  /** Adds the card to the invoice's watch if there is one ("absent": none; an unreadable one is dropped). */
  private join(team: string, invoiceId: string, card: WatchCard) {
    const id = cardId(card);
    type Joined = "absent" | "added" | "watching" | "invoice_full";
    return this.watches.change(team, invoiceId, (watch, raw): Change<Joined> => {
      if (raw === undefined) return { result: "absent" };
      if (!watch) return { result: "absent", replace: undefined };
      if (watch.cards.some((existing) => cardId(existing) === id)) return { result: "watching" };
      if (watch.cards.length >= MAX_CARDS_PER_WATCH) return { result: "invoice_full" };
      return { result: "added", replace: { ...watch, cards: [...watch.cards, card] } };
    });
  }

  async room(
    team: string,
    invoiceId: string,
    maxPerWorkspace: number,
    asker?: AskerShare,
    now = Date.now(),
  ): Promise<AddCardResult> {
    // Two reads at once (the command waits on them): the watch, and the workspace's index.
    const cardsOf = async (id: string) => (await this.watches.read(watchKey(team, id)))?.cards;
    const [watch, fits] = await Promise.all([
      this.watches.read(watchKey(team, invoiceId)),
      this.watches.teams.fits(team, { maxPerWorkspace, now, ...(asker ? { asker } : {}) }, cardsOf),
    ]);
    if (watch) return watch.cards.length >= MAX_CARDS_PER_WATCH ? "invoice_full" : "watching";
    return fits;
  }

  async removeCard(team: string, invoiceId: string, id: string): Promise<void> {
    type Removed = { ended: boolean; user: string; keeps: boolean } | undefined;
    const removed = await this.watches.change(team, invoiceId, (watch): Change<Removed> => {
      const gone = watch?.cards.find((card) => cardId(card) === id);
      if (!watch || !gone) return { result: undefined };
      const cards = watch.cards.filter((card) => card !== gone);
      const keeps = cards.some((card) => card.user === gone.user);
      const result = { ended: cards.length === 0, user: gone.user, keeps };
      return { result, replace: cards.length === 0 ? undefined : { ...watch, cards } };
    });
    if (removed?.ended) await this.watches.ended(team, [invoiceId]);
    else if (removed && !removed.keeps) await this.watches.teams.dropUser(team, invoiceId, removed.user);
  }

  async remove(team: string, invoiceId: string, lease?: string): Promise<boolean> {
    const outcome = await this.watches.change(
      team,
      invoiceId,
      (watch, raw): Change<"gone" | "refused" | "ended"> => {
        if (raw === undefined) return { result: "gone" };
        if (lease && watch?.lease !== lease) return { result: "refused" };
        return { result: "ended", replace: undefined };
      },
    );
    if (outcome === "ended") await this.watches.ended(team, [invoiceId]);
    return outcome !== "refused";
  }

  async removeTeam(team: string): Promise<void> {
    const invoiceIds = await this.watches.teams.invoices(team);
    await Promise.all(
      invoiceIds.map((invoiceId) =>
        this.watches.change(team, invoiceId, (_, raw) =>
          raw === undefined ? { result: undefined } : { result: undefined, replace: undefined },
        ),
      ),
    );
    await this.watches.ended(team, invoiceIds);
  }

  count(team: string): Promise<number> {
    return this.watches.teams.count(team);
  }

  async claimDue(now: number, max: number, leaseMs: number): Promise<Watch[]> {
    const claimed = await this.watches.board.claimDue(SCHEDULE, now, leaseMs, max);
    const watches = await Promise.all(claimed.map((item) => this.watches.take(item)));
    return watches.filter((watch): watch is Watch => watch !== undefined);
  }

  async renew(team: string, invoiceId: string, lease: string, until: number): Promise<boolean> {
    // The lease's end as given (a claim that ran out is still this one's until another takes it).
    return this.watches.board.renew(SCHEDULE, watchKey(team, invoiceId), lease, 0, until);
  }

  async dueBy(team: string, invoiceId: string, now: number): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    if ((await this.watches.cell.read(DATA, key, FIELD)) === undefined) return false;
    // Under a claim, the board keeps the nudge for that claim's release (the read may predate the payment).
    await this.watches.board.nudge(SCHEDULE, key, now);
    return true;
  }

  async setCard(team: string, invoiceId: string, card: WatchCard, lease?: string): Promise<boolean> {
    const id = cardId(card);
    return this.watches.change(team, invoiceId, (watch): Change<boolean> => {
      if (!holds(watch, lease) || !watch.cards.some((existing) => cardId(existing) === id))
        return { result: false };
      const cards = watch.cards.map((existing) => (cardId(existing) === id ? card : existing));
      return { result: true, replace: { ...watch, cards } };
    });
  }

  async reschedule(
    team: string,
    invoiceId: string,
    dueAt: number,
    patch: RescheduleFields,
    lease?: string,
  ): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    // The data first (the claim's token cleared), then the claim ends with the next due time.
    const holder = await this.watches.change(team, invoiceId, (watch): Change<string | undefined> => {
      if (!holds(watch, lease)) return { result: undefined };
      const { lease: held, ...rest } = watch;
      const { intervalMs, lastCheckedAt } = patch;
      const cardsUpdatedAt = patch.cardsUpdatedAt ?? rest.cardsUpdatedAt;
      return { result: held ?? "", replace: { ...rest, intervalMs, lastCheckedAt, cardsUpdatedAt } };
    });
    if (holder === undefined) return false;
    if (holder !== "") return this.watches.board.release(SCHEDULE, key, holder, { dueAt });
    // Not claimed (a caller without a lease): a short claim of its own moves the due time.
    const token = randomUUID();
    if (!(await this.watches.board.claimKey(SCHEDULE, key, token, Date.now(), 5000)).held) return true;
    return this.watches.board.release(SCHEDULE, key, token, { dueAt });
  }

  async tell(
    team: string,
    invoiceId: string,
    from: ToldFrom,
    to: ToldTo,
    lease?: string,
  ): Promise<WatchCard[] | undefined> {
    return this.watches.change(team, invoiceId, (watch): Change<WatchCard[] | undefined> => {
      if (!holds(watch, lease) || watch.state !== from.state || watch.amounts !== from.amounts)
        return { result: undefined };
      const cards = watch.cards.map((card) => ({ ...card, owed: owe(card, to.notice) }));
      const { state, amounts, invoice } = to;
      return { result: cards, replace: { ...watch, state, amounts, invoice, cards } };
    });
  }

  async takeRead(
    register: string,
    perSecond: number,
    now: number,
    maxWaitMs: number,
  ): Promise<number | null> {
    // The register's next free slot, one state (read-budget.ts): reserved when it is near enough.
    return this.watches.cell.update(READS, register, WATCH_FIELDS.reads, (next): Change<number | null> => {
      const slot = Math.max(typeof next === "number" ? next : now, now);
      if (slot - now > maxWaitMs) return { result: null };
      return { result: slot - now, replace: slot + readSpacingMs(perSecond) };
    });
  }

  async close(): Promise<void> {}
}
