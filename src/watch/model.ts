import { z } from "zod";
import type { Invoice } from "../payments/model.js";
import { MAIN_REGISTER, registerKey } from "../store/registers.js";

const moneySchema = z.object({ value: z.string(), currency: z.string().nullable() });
const timeSchema = z.object({ text: z.string(), zone: z.string(), epochSeconds: z.number() });

/** The invoice as last shown, read back from the store: the card can be redrawn without a read. */
export const invoiceSnapshotSchema: z.ZodType<Invoice> = z.object({
  id: z.string(),
  url: z.string().nullable(),
  state: z.string(),
  type: z.string(),
  method: z.string().nullable(),
  requiredMethod: z.string().nullable(),
  currency: z.string(),
  currencyConflict: z
    .object({ amountCurrency: z.string(), currency: z.string() })
    .nullish()
    .transform((value) => value ?? null),
  amounts: z.partialRecord(
    z.enum(["amount", "payAmount", "remainingAmount", "balanceAmount", "rubAmount"]),
    moneySchema,
  ),
  commissions: z.partialRecord(
    z.enum(["serviceCommission", "extraCommission", "commissionAmount"]),
    moneySchema,
  ),
  subtractFrom: z.string().nullable(),
  description: z.string().nullable(),
  extra: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  createdAt: timeSchema,
  expiredAt: timeSchema,
  finalAt: timeSchema.nullable(),
  apiVersion: z.enum(["v2", "v3"]),
});

/** What counts as "the amounts changed": every amount and commission, with currencies. */
export function amountsFingerprint(invoice: Invoice): string {
  return JSON.stringify([invoice.amounts, invoice.commissions]);
}

/**
 * What a card is still owed by Slack: its redraw, and the thread note (or DM) of a state change. It is
 * written before the Slack calls and cleared once Slack accepts them, so a failed call or a crash
 * leaves it owed and the next read delivers it. `noteSending`: the note's call was made and may have
 * reached Slack (a crash then may repeat the note, never lose it).
 */
export const owedSchema = z.object({
  redraw: z.boolean(),
  note: z.object({ from: z.string().max(100), to: z.string().max(100) }).optional(),
  noteSending: z.boolean().optional(),
  /** Failed deliveries in a row: spaces the next attempt out. */
  attempts: z.number().int().nonnegative().optional(),
});
export type Owed = z.infer<typeof owedSchema>;

/**
 * Where a watched invoice is shown: a channel card Kassa posted (updated in place, changes told in
 * its thread), or a private card, which Slack cannot edit later (changes go to the asker by DM).
 */
export const watchCardSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("channel"),
    channel: z.string().min(1).max(40),
    ts: z.string().min(1).max(40),
    /** Who asked: mentioned in the thread reply. */
    user: z.string().min(1).max(40),
    /** State when the card was posted: the card says "was: …" once it changed. */
    postedState: z.string().max(100),
    /** `user` created the invoice (/invoice new): the card keeps saying so. */
    createdBy: z.boolean().optional(),
    /** The amount typed in /invoice new, shown beside the service's converted one. */
    entered: z.object({ value: z.string().max(40), currency: z.string().max(12) }).optional(),
    /** Who the invoice is for, as its creator named them (issue 51): every redraw keeps it. */
    customer: z.string().min(1).max(80).optional(),
    owed: owedSchema.optional(),
  }),
  z.object({
    kind: z.literal("dm"),
    user: z.string().min(1).max(40),
    postedState: z.string().max(100),
    owed: owedSchema.optional(),
  }),
]);
export type WatchCard = z.infer<typeof watchCardSchema>;

/**
 * The asker of a card a workflow step posted without naming a person: nobody is mentioned in its
 * thread, and all such cards of a workspace share one asker's share of its live cards.
 */
export const WORKFLOW_ASKER = "workflow";

/** One card's identity within its watch. */
export function cardId(card: Pick<WatchCard, "kind" | "user"> & { channel?: string; ts?: string }): string {
  return card.kind === "channel" ? `c:${card.channel}:${card.ts}` : `u:${card.user}`;
}

/**
 * One watch per workspace and invoice. `state` is the last state told (the compare-and-set of
 * "tell once"), `amounts` a fingerprint of the amounts last shown.
 */
export const watchSchema = z.object({
  team: z.string().min(1),
  invoiceId: z.string().min(1),
  /** The cash register (its login): all watch reads of one register share WATCH_MAX_RPS. */
  register: z.string().min(1),
  /** The register read with, by name, shown where several; absent (older watches): main's, not shown. */
  registerName: z.string().min(1).max(20).optional(),
  state: z.string(),
  amounts: z.string(),
  startedAt: z.number(),
  /** Milliseconds until the next read; grows while nothing changes (0: read again at once). */
  intervalMs: z.number().int().nonnegative(),
  lastCheckedAt: z.number(),
  /** When the cards were last edited (the "last checked" line is refreshed only now and then). */
  cardsUpdatedAt: z.number(),
  cards: z.array(watchCardSchema),
  /** The invoice as the cards last showed it. */
  invoice: invoiceSnapshotSchema,
  /** Set on a claimed watch: the claim's token, which the queue's guarded steps check. */
  lease: z.string().optional(),
});
export type Watch = z.infer<typeof watchSchema>;

/** The key a watch's invoice is read with: its register's (main's, the team id, for older watches). */
export function readKey(watch: Pick<Watch, "team" | "registerName">): string {
  return registerKey(watch.team, watch.registerName ?? MAIN_REGISTER);
}

export function watchKey(team: string, invoiceId: string): string {
  return `${team}:${invoiceId}`;
}

/** What a command hands over to start (or join) a watch. */
export type WatchSeed = Pick<Watch, "team" | "invoiceId" | "register" | "state" | "amounts" | "invoice"> &
  Partial<Pick<Watch, "registerName">>;

/** The result of adding a card: watched, or why not. */
export type AddCardResult = "watching" | "workspace_full" | "invoice_full" | "asker_full";

/**
 * One person's fair share of a new watch: at most this many of the workspace's watched invoices may
 * hold a card of theirs, so one person cannot take the whole WATCH_MAX_PER_WORKSPACE. Joining an
 * invoice already watched costs nothing and is never refused for it.
 */
export type AskerShare = { user: string; max: number };

/** Cards one invoice's watch keeps up to date; past it, new cards of that invoice are not watched. */
export const MAX_CARDS_PER_WATCH = 20;

/** The most time between two reads of one watch. */
export const MAX_INTERVAL_MS = 10 * 60_000;

/** States after which the invoice does not change any more. */
export const FINAL_STATES = new Set(["payed", "failed", "unavailable"]);

/** What addCard is told: the workspace's cap, when a new watch is first due, and the time now. */
export type AddCardLimits = {
  maxPerWorkspace: number;
  firstDueInMs: number;
  now: number;
  asker?: AskerShare;
};

/** What a read changes besides the due time. */
export type RescheduleFields = Pick<Watch, "intervalMs" | "lastCheckedAt"> &
  Partial<Pick<Watch, "cardsUpdatedAt">>;

/** What tell() moves on from, and to (and answers). */
export type ToldFrom = Pick<Watch, "state" | "amounts">;
export type ToldTo = Pick<Watch, "state" | "amounts" | "invoice"> & { notice?: { from: string; to: string } };
type Told = Promise<WatchCard[] | undefined>;

/**
 * The schedule and the atomic steps of watching: one implementation on the claim board for every
 * store engine (board-queue.ts). Every step that two replicas could race on is settled by one
 * atomic operation of the board (a claim, or a compare-and-set of one state).
 */
export interface WatchQueue {
  /** Adds a card to the invoice's watch, creating it (due after `firstDueInMs`) when there is none. */
  addCard(seed: WatchSeed, card: WatchCard, limits: AddCardLimits): Promise<AddCardResult>;
  /**
   * What addCard would answer now (without adding): lets a card be posted with the right line the
   * first time. A race with another addCard is settled by addCard itself. `now`: the caller's clock.
   */
  room(
    team: string,
    invoiceId: string,
    maxPerWorkspace: number,
    asker?: AskerShare,
    now?: number,
  ): Promise<AddCardResult>;
  /** Drops one card; the watch goes when its last card does. */
  removeCard(team: string, invoiceId: string, id: string): Promise<void>;
  /**
   * Ends the watch; with `lease`, only while that claim still holds it: false when the watch is there
   * and another claim (or none, after a reschedule) holds it. A watch already gone counts as ended.
   */
  remove(team: string, invoiceId: string, lease?: string): Promise<boolean>;
  /** Every watch of a workspace (disconnect, uninstall). */
  removeTeam(team: string): Promise<void>;
  count(team: string): Promise<number>;
  /**
   * Up to `max` watches due by `now`, each pushed `leaseMs` ahead and marked with a new claim token
   * (`lease` on each watch) in the same atomic step, so no other replica claims it while this one
   * reads it. A later claim (after the lease ran out) replaces the token: the steps below given the
   * old one are then refused, so a replica that was too slow cannot undo the newer one's work.
   */
  claimDue(now: number, max: number, leaseMs: number): Promise<Watch[]>;
  /** Pushes a claimed watch's due time to `until` while `lease` still holds it; false otherwise. */
  renew(team: string, invoiceId: string, lease: string, until: number): Promise<boolean>;
  /**
   * Makes the watch due by `now` if it is due later (a payment notification arrived for it); false
   * when there is no such watch. A watch being read is not claimed a second time: its claim's
   * reschedule makes it due by `now` instead, so the answer read before the payment cannot push the
   * next read out.
   */
  dueBy(team: string, invoiceId: string, now: number): Promise<boolean>;
  /**
   * Replaces a card's stored copy (what it is owed); false when the card is gone meanwhile, or
   * `lease` no longer holds the watch.
   */
  setCard(team: string, invoiceId: string, card: WatchCard, lease?: string): Promise<boolean>;
  /**
   * After a read: when the watch is next due, and what was seen; the claim ends (its token is
   * cleared). With `lease`, only while that claim holds the watch; false otherwise.
   */
  reschedule(
    team: string,
    invoiceId: string,
    dueAt: number,
    patch: RescheduleFields,
    lease?: string,
  ): Promise<boolean>;
  /**
   * Compare-and-set of what was last told, owing every card stored then in the same write (a note with
   * `notice`): the cards so written, for one caller per change; undefined when told or not held.
   */
  tell(team: string, invoiceId: string, from: ToldFrom, to: ToldTo, lease?: string): Told;
  /**
   * Reserves the cash register's next read slot (slots 1000 / WATCH_MAX_RPS ms apart, across
   * replicas): resolves with how long to wait for it (0: now), or null when it is more than
   * `maxWaitMs` away (nothing reserved).
   */
  takeRead(register: string, perSecond: number, now: number, maxWaitMs: number): Promise<number | null>;
  close(): Promise<void>;
}
