import type { webApi } from "@slack/bolt";
import { isExpired } from "../blocks/invoice.js";
import type { Lang } from "../i18n/lang.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import {
  type AddCardResult,
  amountsFingerprint,
  cardId,
  FINAL_STATES,
  MAX_CARDS_PER_WATCH,
  type WatchCard,
  type WatchQueue,
} from "./model.js";
import { timedQueue } from "./timed-queue.js";

/** How the watcher reads invoices: the workspace's own credentials (WorkspacePayments). */
export type InvoiceReader = {
  invoice(teamId: string, invoiceId: string): Promise<Invoice>;
  /** The chosen method as the workspace's method list describes it (cached; undefined when unknown). */
  methodFor(teamId: string, code: string): Promise<PaymentMethod | undefined>;
  /** The language the workspace's cards are written in (English when not given). */
  languageOf?(teamId: string): Promise<Lang>;
  /** Whether a paid invoice's card offers Refund (issue 52): the register's payouts are on. None: never. */
  refundOffered?(registerKey: string): Promise<boolean>;
  /**
   * What replaced the invoice's link, where Kassa made it and it was re-issued (issue 51: its card
   * keeps "Replaced by" and offers no Re-issue); undefined otherwise, never an error. None: never.
   */
  replacementOf?(
    registerKey: string,
    invoice: Invoice,
  ): Promise<{ invoiceId: string; user: string } | undefined>;
};

/** A Web API client with the workspace's bot token, or undefined when Kassa has none any more. */
export type SlackClients = (teamId: string) => Promise<webApi.WebClient | undefined>;

export type WatcherOptions = {
  intervalMs: number;
  maxHours: number;
  maxPerWorkspace: number;
  maxReadsPerSecond: number;
  /** A claimed watch is not given to another replica for this long (longer than one read can take). */
  leaseMs: number;
  /** STORE_TIMEOUT_MS: what a command waits for the store when it starts or stops a watch. */
  storeTimeoutMs: number;
};

/** What a command or a button asks of the watcher; listeners see only this. */
export type WatchRegistry = {
  /** Whether a card of this invoice would be watched (not final, not expired). */
  shouldWatch(invoice: Invoice, now: Date): boolean;
  /**
   * Whether a new card of this invoice, asked for by `user`, would be watched now (posted with the
   * right line first time).
   */
  room(team: string, invoiceId: string, user: string): Promise<AddCardResult>;
  /** Starts (or joins) the invoice's watch with this card. */
  /** `registerName`: the workspace's register it is read with (main's when left out), shown where several. */
  watch(
    team: string,
    register: string,
    invoice: Invoice,
    card: WatchCard,
    registerName?: string,
  ): Promise<AddCardResult>;
  /** The card stops being updated (Stop updating). */
  stop(
    team: string,
    invoiceId: string,
    card: Pick<WatchCard, "kind" | "user"> & { channel?: string; ts?: string },
  ): Promise<void>;
  /** Every watch of the workspace ends (disconnect, uninstall). */
  forgetTeam(team: string): Promise<void>;
  count(team: string): Promise<number>;
  readonly maxPerWorkspace: number;
  /** One person's fair share of the workspace's watched invoices. */
  readonly maxPerAsker: number;
  readonly maxCardsPerWatch: number;
};

/**
 * One person's fair share: a quarter of WATCH_MAX_PER_WORKSPACE (at least one), so a single person
 * asking for many invoices leaves room for the rest of the team.
 */
export function askerShare(maxPerWorkspace: number): number {
  return Math.max(1, Math.ceil(maxPerWorkspace / 4));
}

/**
 * The part of live cards a person waits for (a command, a button, a callback): each call is one step
 * of the queue, answered within STORE_TIMEOUT_MS or failed with a StoreCallError (timed-queue.ts; the
 * watcher's loop uses the same timed queue).
 */
export class LiveCardRegistry implements WatchRegistry {
  readonly maxCardsPerWatch = MAX_CARDS_PER_WATCH;
  protected readonly queue: WatchQueue;

  constructor(
    queue: WatchQueue,
    protected readonly options: WatcherOptions,
    protected readonly now: () => Date = () => new Date(),
  ) {
    this.queue = timedQueue(queue, options.storeTimeoutMs);
  }

  get maxPerWorkspace(): number {
    return this.options.maxPerWorkspace;
  }

  get maxPerAsker(): number {
    return askerShare(this.options.maxPerWorkspace);
  }

  shouldWatch(invoice: Invoice, now: Date): boolean {
    // WATCH_MAX_PER_WORKSPACE=0 turns live cards off: cards are posted as they are, without a line.
    if (this.options.maxPerWorkspace === 0) return false;
    return !FINAL_STATES.has(invoice.state) && !isExpired(invoice, now);
  }

  room(team: string, invoiceId: string, user: string): Promise<AddCardResult> {
    const share = { user, max: this.maxPerAsker };
    return this.queue.room(team, invoiceId, this.options.maxPerWorkspace, share, this.now().getTime());
  }

  watch(
    team: string,
    register: string,
    invoice: Invoice,
    card: WatchCard,
    registerName?: string,
  ): Promise<AddCardResult> {
    const seed = {
      team,
      invoiceId: invoice.id,
      register,
      ...(registerName === undefined ? {} : { registerName }),
      state: invoice.state,
      amounts: amountsFingerprint(invoice),
      invoice,
    };
    const limits = {
      maxPerWorkspace: this.options.maxPerWorkspace,
      firstDueInMs: this.options.intervalMs,
      now: this.now().getTime(),
      asker: { user: card.user, max: this.maxPerAsker },
    };
    return this.queue.addCard(seed, card, limits);
  }

  async stop(
    team: string,
    invoiceId: string,
    card: Pick<WatchCard, "kind" | "user"> & { channel?: string; ts?: string },
  ): Promise<void> {
    await this.queue.removeCard(team, invoiceId, cardId(card));
  }

  /** A payment notification for this invoice: read it on the next pass instead of when it was due. */
  checkSoon(team: string, invoiceId: string): Promise<boolean> {
    return this.queue.dueBy(team, invoiceId, this.now().getTime());
  }

  async forgetTeam(team: string): Promise<void> {
    await this.queue.removeTeam(team);
  }

  count(team: string): Promise<number> {
    return this.queue.count(team);
  }
}
