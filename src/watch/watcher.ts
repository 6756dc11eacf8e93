import type { webApi } from "@slack/bolt";
import { isExpired } from "../blocks/invoice.js";
import type { WatchStatus } from "../blocks/watch.js";
import type { Logger } from "../logger.js";
import { NotConnectedError, ServiceError } from "../payments/errors.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import { withStoreDeadline } from "../store/deadline.js";
import { classifySlackFailure, DeliveryFailed, deliverCard, nothingOwed, owe } from "./delivery.js";
import {
  type AddCardResult,
  amountsFingerprint,
  cardId,
  FINAL_STATES,
  MAX_CARDS_PER_WATCH,
  MAX_INTERVAL_MS,
  type Watch,
  type WatchCard,
  type WatchQueue,
} from "./model.js";

/** How the watcher reads invoices: the workspace's own credentials (WorkspacePayments). */
export type InvoiceReader = {
  invoice(teamId: string, invoiceId: string): Promise<Invoice>;
  /** The chosen method as the workspace's method list describes it (cached; undefined when unknown). */
  methodFor(teamId: string, code: string): Promise<PaymentMethod | undefined>;
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

/** After a failed read, or after an hour without a change, each read waits this much longer than the last. */
const BACKOFF_FACTOR = 1.5;
/** For its first hour a watch is read as often as its register's budget allows... */
const FULL_SPEED_MS = 60 * 60_000;
/** ...then it may slow down to this (a payment an hour or more after the card is rarer). */
const SLOW_INTERVAL_MS = 5 * 60_000;
/** The "last checked" line is redrawn no more often than this (chat.update is rate-limited per workspace). */
export const CHECKED_LINE_REFRESH_MS = 5 * 60_000;
/** Watches read at the same time by one replica. */
const CONCURRENT_READS = 32;
/** Watches claimed per pass. */
const CLAIM_BATCH = 256;
/** The credentials were refused by the service, or are gone: reading again will not help. */
function credentialsFailed(error: unknown): boolean {
  if (error instanceof NotConnectedError) return true;
  return error instanceof ServiceError && error.messages.some((message) => /auth/i.test(message));
}

/**
 * After a read without a change: as often as the register's budget lets every one of its watches be
 * read (WATCH_MAX_RPS), never more often than WATCH_INTERVAL_MS; after the first hour, slowing down
 * towards SLOW_INTERVAL_MS (never below the budget's pace).
 */
export function readIntervalMs(
  options: Pick<WatcherOptions, "intervalMs" | "maxReadsPerSecond">,
  watchesOfRegister: number,
  watchedForMs: number,
  previousIntervalMs: number,
): number {
  const fair = Math.max(
    options.intervalMs,
    Math.ceil((watchesOfRegister / options.maxReadsPerSecond) * 1000),
  );
  if (watchedForMs < FULL_SPEED_MS) return fair;
  return Math.max(fair, Math.min(SLOW_INTERVAL_MS, Math.round(previousIntervalMs * BACKOFF_FACTOR)));
}

/** What a command or a button asks of the watcher; listeners see only this. */
export type WatchRegistry = {
  /** Whether a card of this invoice would be watched (not final, not expired). */
  shouldWatch(invoice: Invoice, now: Date): boolean;
  /** Whether a new card of this invoice would be watched now (posted with the right line first time). */
  room(team: string, invoiceId: string): Promise<AddCardResult>;
  /** Starts (or joins) the invoice's watch with this card. */
  watch(team: string, register: string, invoice: Invoice, card: WatchCard): Promise<AddCardResult>;
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
  readonly maxCardsPerWatch: number;
};

/**
 * Re-reads the invoices of live cards and keeps the cards current: the schedule and its claim, the
 * per-register read budget and the "tell once" step are the queue's (one per store engine); this
 * class decides what a read means and tells Slack.
 */
export class Watcher implements WatchRegistry {
  readonly maxCardsPerWatch = MAX_CARDS_PER_WATCH;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly queue: WatchQueue,
    private readonly reader: InvoiceReader,
    private readonly slack: SlackClients,
    private readonly options: WatcherOptions,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get maxPerWorkspace(): number {
    return this.options.maxPerWorkspace;
  }

  shouldWatch(invoice: Invoice, now: Date): boolean {
    // WATCH_MAX_PER_WORKSPACE=0 turns live cards off: cards are posted as they are, without a line.
    if (this.options.maxPerWorkspace === 0) return false;
    return !FINAL_STATES.has(invoice.state) && !isExpired(invoice, now);
  }

  room(team: string, invoiceId: string): Promise<AddCardResult> {
    return this.timed(this.queue.room(team, invoiceId, this.options.maxPerWorkspace), "watch.room");
  }

  async watch(team: string, register: string, invoice: Invoice, card: WatchCard): Promise<AddCardResult> {
    const adding = this.queue.addCard(
      {
        team,
        invoiceId: invoice.id,
        register,
        state: invoice.state,
        amounts: amountsFingerprint(invoice),
        invoice,
      },
      card,
      {
        maxPerWorkspace: this.options.maxPerWorkspace,
        firstDueInMs: this.options.intervalMs,
        now: this.now().getTime(),
      },
    );
    return this.timed(adding, "watch.add");
  }

  /** A person is waiting: the store's answer within STORE_TIMEOUT_MS, or a StoreCallError. */
  private timed<T>(work: Promise<T>, operation: string): Promise<T> {
    return withStoreDeadline(work, this.options.storeTimeoutMs, operation);
  }

  async stop(
    team: string,
    invoiceId: string,
    card: Pick<WatchCard, "kind" | "user"> & { channel?: string; ts?: string },
  ): Promise<void> {
    await this.timed(this.queue.removeCard(team, invoiceId, cardId(card)), "watch.stop");
  }

  /** A payment notification for this invoice: read it on the next pass instead of when it was due. */
  async checkSoon(team: string, invoiceId: string): Promise<boolean> {
    return this.timed(this.queue.dueBy(team, invoiceId, this.now().getTime()), "watch.checkSoon");
  }

  async forgetTeam(team: string): Promise<void> {
    await this.timed(this.queue.removeTeam(team), "watch.forgetTeam");
  }

  count(team: string): Promise<number> {
    return this.timed(this.queue.count(team), "watch.count");
  }

  /** Starts the passes: one right away, then every `tickMs`. */
  start(): void {
    const tickMs = Math.max(50, Math.min(1000, Math.floor(this.options.intervalMs / 4)));
    const loop = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, outcome: "watch_pass_failed" }, "watch pass failed"),
        )
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(loop, tickMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /**
   * Stops claiming; a pass under way gets up to `graceMs` to finish (a Slack call in it ends by
   * SLACK_TIMEOUT_MS anyway). What it could not finish stays owed in the store, and its leases run out.
   */
  async close(graceMs = 5000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    await this.queue.close();
  }

  /** One pass: claims what is due and reads it, a few at a time. Exposed for tests. */
  async pass(): Promise<number> {
    const now = this.now().getTime();
    const due = await this.queue.claimDue(now, CLAIM_BATCH, this.options.leaseMs);
    // Counted once per workspace per pass: how many watches share its register's read budget.
    const counts = new Map<string, Promise<number>>();
    const watchesOf = (team: string) => {
      let count = counts.get(team);
      if (!count) {
        count = this.queue.count(team).catch(() => 1);
        counts.set(team, count);
      }
      return count;
    };
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped) {
        const watch = due[next++];
        if (watch)
          await this.check(watch, await watchesOf(watch.team)).catch((error: unknown) =>
            this.failed(watch, error),
          );
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, due.length) }, worker));
    return due.length;
  }

  private async failed(watch: Watch, error: unknown): Promise<void> {
    this.logger.warn(
      { team: watch.team, invoice: watch.invoiceId, outcome: "watch_error", err: error },
      "watch check failed; trying later",
    );
    const now = this.now().getTime();
    await this.queue
      .reschedule(watch.team, watch.invoiceId, now + watch.intervalMs, {
        intervalMs: watch.intervalMs,
        lastCheckedAt: watch.lastCheckedAt,
      })
      .catch(() => undefined);
  }

  /** After a failed read: a little less often each time, up to MAX_INTERVAL_MS. */
  private backoffInterval(watch: Watch): number {
    return Math.min(
      MAX_INTERVAL_MS,
      Math.max(this.options.intervalMs, Math.round(watch.intervalMs * BACKOFF_FACTOR)),
    );
  }

  private readInterval(watch: Watch, watchesOfRegister: number, now: number): number {
    return readIntervalMs(this.options, watchesOfRegister, now - watch.startedAt, watch.intervalMs);
  }

  private async check(watch: Watch, watchesOfRegister: number): Promise<void> {
    const now = this.now();
    const nowMs = now.getTime();
    const log = { team: watch.team, invoice: watch.invoiceId };
    if (watch.cards.length === 0) return this.queue.remove(watch.team, watch.invoiceId);
    if (nowMs >= watch.startedAt + this.options.maxHours * 3_600_000) {
      // A last try for each card (and what it still owes) before the watch goes.
      await this.deliver(
        watch,
        watch.invoice,
        { kind: "ended", reason: "max_hours", hours: this.options.maxHours },
        true,
      );
      await this.queue.remove(watch.team, watch.invoiceId);
      this.logger.info({ ...log, outcome: "watch_ended", reason: "max_hours" }, "watch ended");
      return;
    }
    if (!(await this.queue.takeRead(watch.register, this.options.maxReadsPerSecond, nowMs))) {
      // The register's budget for this second is spent: try again soon, a little spread out.
      const retryAt = nowMs + 1000 + Math.floor(Math.random() * 1000);
      return this.queue.reschedule(watch.team, watch.invoiceId, retryAt, {
        intervalMs: watch.intervalMs,
        lastCheckedAt: watch.lastCheckedAt,
      });
    }
    let invoice: Invoice;
    try {
      invoice = await this.reader.invoice(watch.team, watch.invoiceId);
    } catch (error) {
      if (credentialsFailed(error)) {
        await this.deliver(watch, watch.invoice, { kind: "ended", reason: "credentials" }, true);
        await this.queue.remove(watch.team, watch.invoiceId);
        this.logger.warn({ ...log, outcome: "watch_ended", reason: "credentials" }, "watch ended");
        return;
      }
      // A slow, down or confused service: keep watching, a little less often (no thread reply).
      this.logger.warn(
        { ...log, outcome: "watch_read_failed", err: error },
        "watch read failed; trying later",
      );
      const intervalMs = this.backoffInterval(watch);
      return this.queue.reschedule(watch.team, watch.invoiceId, nowMs + intervalMs, {
        intervalMs,
        lastCheckedAt: watch.lastCheckedAt,
      });
    }
    const checkedAt = this.now();
    const expired = isExpired(invoice, checkedAt);
    const state = expired ? "expired" : invoice.state;
    const amounts = amountsFingerprint(invoice);
    const final = FINAL_STATES.has(invoice.state) || expired;
    const status: WatchStatus = final
      ? { kind: "ended", reason: expired ? "expired" : "final" }
      : { kind: "watching", lastCheckedAt: checkedAt };
    let changed = false;
    if (state !== watch.state || amounts !== watch.amounts) {
      // Only the caller whose compare-and-set wins tells the change, whichever replica reads it.
      const won = await this.queue.tell(watch.team, watch.invoiceId, watch, { state, amounts, invoice });
      if (won) {
        changed = true;
        const notice = state !== watch.state ? { from: watch.state, to: state } : undefined;
        // Written down before any Slack call: a failed call or a crash leaves it owed, never lost.
        for (const card of watch.cards) {
          card.owed = owe(card, notice);
          await this.queue.setCard(watch.team, watch.invoiceId, card);
        }
        this.logger.info(
          {
            ...log,
            outcome: notice ? "watch_changed" : "watch_amounts_changed",
            from: watch.state,
            to: state,
          },
          "watched invoice changed",
        );
      }
    }
    // A final state, or the "last checked" line now and then: redrawn, best effort unless owed.
    const refresh = final || changed || checkedAt.getTime() - watch.cardsUpdatedAt >= CHECKED_LINE_REFRESH_MS;
    const delivery = await this.deliver(watch, invoice, status, refresh);
    if (delivery === "token_dead") return;
    const owing = watch.cards.filter((card) => !nothingOwed(card.owed));
    if (final && owing.length === 0) {
      await this.queue.remove(watch.team, watch.invoiceId);
      this.logger.info(
        { ...log, outcome: "watch_ended", reason: expired ? "expired" : "final" },
        "watch ended",
      );
      return;
    }
    // Something is still owed: tried again soon (sooner than the next read would come), with backoff.
    const attempts = Math.max(0, ...owing.map((card) => card.owed?.attempts ?? 0));
    const retryAt =
      checkedAt.getTime() + Math.max(delivery.retryAfterMs, Math.min(60_000, 2000 * 2 ** attempts));
    const intervalMs = changed
      ? this.options.intervalMs
      : this.readInterval(watch, watchesOfRegister, checkedAt.getTime());
    const nextRead = checkedAt.getTime() + intervalMs;
    // Never before Slack's Retry-After, whatever the read schedule says.
    const owedAt = Math.max(checkedAt.getTime() + delivery.retryAfterMs, Math.min(nextRead, retryAt));
    await this.queue.reschedule(watch.team, watch.invoiceId, owing.length > 0 ? owedAt : nextRead, {
      intervalMs,
      lastCheckedAt: checkedAt.getTime(),
      ...(refresh && owing.length === 0 ? { cardsUpdatedAt: checkedAt.getTime() } : {}),
    });
  }

  /**
   * Delivers to each card what it is owed (and, with `refresh`, a redraw to every channel card).
   * Updates `watch.cards` to what each card still owes; "token_dead" when the watch has ended.
   */
  private async deliver(
    watch: Watch,
    invoice: Invoice,
    status: WatchStatus,
    refresh: boolean,
  ): Promise<"token_dead" | { retryAfterMs: number }> {
    const due = watch.cards.filter((card) => !nothingOwed(card.owed) || (refresh && card.kind === "channel"));
    if (due.length === 0) return { retryAfterMs: 0 };
    const client = await this.slack(watch.team);
    if (!client) {
      this.logger.warn(
        { team: watch.team, outcome: "watch_no_token" },
        "no bot token for a watched workspace",
      );
      return { retryAfterMs: 0 };
    }
    const now = this.now();
    const method = invoice.method
      ? await this.reader.methodFor(watch.team, invoice.method).catch(() => undefined)
      : undefined;
    const save = async (card: WatchCard) => {
      await this.queue.setCard(watch.team, watch.invoiceId, card);
    };
    let retryAfterMs = 0;
    const log = { team: watch.team, invoice: watch.invoiceId };
    for (const card of due) {
      const stored = !nothingOwed(card.owed);
      const at = watch.cards.indexOf(card);
      const owing: WatchCard = stored ? card : { ...card, owed: { redraw: true } };
      try {
        const settled = await deliverCard(owing, { client, watch, invoice, status, method, now, save });
        watch.cards[at] = settled;
        if (stored) await save(settled);
      } catch (error) {
        const failed = error instanceof DeliveryFailed ? error : new DeliveryFailed(owing, error);
        const failure = classifySlackFailure(failed.cause);
        if (failure.kind === "card_gone") {
          watch.cards.splice(at, 1);
          await this.queue.removeCard(watch.team, watch.invoiceId, cardId(card));
          this.logger.info(
            { ...log, outcome: "watch_card_gone", slackError: failure.code },
            "card dropped from its watch",
          );
        } else if (failure.kind === "token_dead") {
          await this.queue.remove(watch.team, watch.invoiceId);
          this.logger.warn(
            { ...log, outcome: "watch_ended", reason: "slack_token", slackError: failure.code },
            "watch ended",
          );
          return "token_dead";
        } else if (stored) {
          // Still owed: kept with one more attempt counted, delivered on a later pass.
          const kept: WatchCard = {
            ...failed.card,
            owed: { ...(failed.card.owed ?? { redraw: false }), attempts: (card.owed?.attempts ?? 0) + 1 },
          };
          watch.cards[at] = kept;
          await save(kept);
          retryAfterMs = Math.max(retryAfterMs, failure.retryAfterMs ?? 0);
          this.logger.warn(
            { ...log, outcome: "watch_update_failed", slackError: failure.code, owed: kept.owed },
            "card not updated yet; it stays owed and is tried again",
          );
        } else {
          this.logger.warn(
            { ...log, outcome: "watch_update_failed", slackError: failure.code },
            "card refresh failed; tried at the next read",
          );
        }
      }
    }
    return { retryAfterMs };
  }
}
