import type { webApi } from "@slack/bolt";
import { buildInvoiceMessage, isExpired } from "../blocks/invoice.js";
import { changeNotice, type WatchStatus, withWatchStatus } from "../blocks/watch.js";
import type { Logger } from "../logger.js";
import { NotConnectedError, ServiceError } from "../payments/errors.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import { withStoreDeadline } from "../store/deadline.js";
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

/** Each read without a change waits this much longer than the last, up to MAX_INTERVAL_MS. */
const BACKOFF_FACTOR = 1.5;
/** The "last checked" line is redrawn no more often than this (chat.update is rate-limited per workspace). */
export const CHECKED_LINE_REFRESH_MS = 5 * 60_000;
/** Watches read at the same time by one replica. */
const CONCURRENT_READS = 32;
/** Watches claimed per pass. */
const CLAIM_BATCH = 256;
/** Slack errors after which a card cannot be edited again: it is dropped from its watch. */
const CARD_GONE = new Set(["message_not_found", "channel_not_found", "cant_update_message", "is_archived"]);
/** Slack errors after which the workspace's token is no good: the watch ends. */
const TOKEN_DEAD = new Set([
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "not_authed",
  "token_expired",
]);

/** The credentials were refused by the service, or are gone: reading again will not help. */
function credentialsFailed(error: unknown): boolean {
  if (error instanceof NotConnectedError) return true;
  return error instanceof ServiceError && error.messages.some((message) => /auth/i.test(message));
}

function slackError(error: unknown): string {
  return (error as { data?: { error?: string } }).data?.error ?? (error as Error).message;
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

  /** Stops claiming; a pass under way finishes (its leases run out if it cannot). */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.queue.close();
  }

  /** One pass: claims what is due and reads it, a few at a time. Exposed for tests. */
  async pass(): Promise<number> {
    const now = this.now().getTime();
    const due = await this.queue.claimDue(now, CLAIM_BATCH, this.options.leaseMs);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped) {
        const watch = due[next++];
        if (watch) await this.check(watch).catch((error: unknown) => this.failed(watch, error));
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

  private nextInterval(watch: Watch): number {
    return Math.min(
      MAX_INTERVAL_MS,
      Math.max(this.options.intervalMs, Math.round(watch.intervalMs * BACKOFF_FACTOR)),
    );
  }

  private async check(watch: Watch): Promise<void> {
    const now = this.now();
    const nowMs = now.getTime();
    const log = { team: watch.team, invoice: watch.invoiceId };
    if (watch.cards.length === 0) return this.queue.remove(watch.team, watch.invoiceId);
    if (nowMs >= watch.startedAt + this.options.maxHours * 3_600_000) {
      await this.drawCards(watch, watch.invoice, {
        kind: "ended",
        reason: "max_hours",
        hours: this.options.maxHours,
      });
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
        await this.drawCards(watch, watch.invoice, { kind: "ended", reason: "credentials" });
        await this.queue.remove(watch.team, watch.invoiceId);
        this.logger.warn({ ...log, outcome: "watch_ended", reason: "credentials" }, "watch ended");
        return;
      }
      // A slow, down or confused service: keep watching, a little less often (no thread reply).
      this.logger.warn(
        { ...log, outcome: "watch_read_failed", err: error },
        "watch read failed; trying later",
      );
      const intervalMs = this.nextInterval(watch);
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
    let drawn = false;
    if (state !== watch.state || amounts !== watch.amounts) {
      // Only the caller whose compare-and-set wins tells the change: once, whichever replica reads it.
      const won = await this.queue.tell(watch.team, watch.invoiceId, watch, { state, amounts, invoice });
      if (won) {
        const notice = state !== watch.state ? { from: watch.state, to: state } : undefined;
        await this.drawCards(watch, invoice, status, notice);
        drawn = true;
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
    } else if (final || checkedAt.getTime() - watch.cardsUpdatedAt >= CHECKED_LINE_REFRESH_MS) {
      await this.drawCards(watch, invoice, status);
      drawn = true;
    }
    if (final) {
      await this.queue.remove(watch.team, watch.invoiceId);
      this.logger.info(
        { ...log, outcome: "watch_ended", reason: expired ? "expired" : "final" },
        "watch ended",
      );
      return;
    }
    const intervalMs = drawn ? this.options.intervalMs : this.nextInterval(watch);
    await this.queue.reschedule(watch.team, watch.invoiceId, checkedAt.getTime() + intervalMs, {
      intervalMs,
      lastCheckedAt: checkedAt.getTime(),
      ...(drawn ? { cardsUpdatedAt: checkedAt.getTime() } : {}),
    });
  }

  /** Redraws every card of the watch; with `notice`, tells the change in each thread (or by DM). */
  private async drawCards(
    watch: Watch,
    invoice: Invoice,
    status: WatchStatus,
    notice?: { from: string; to: string },
  ): Promise<void> {
    const client = await this.slack(watch.team);
    if (!client) {
      this.logger.warn(
        { team: watch.team, outcome: "watch_no_token" },
        "no bot token for a watched workspace",
      );
      return;
    }
    const now = this.now();
    const method = invoice.method
      ? await this.reader.methodFor(watch.team, invoice.method).catch(() => undefined)
      : undefined;
    for (const card of watch.cards) {
      const base = buildInvoiceMessage(invoice, {
        now,
        teamId: watch.team,
        visibility: "channel",
        originalState: card.postedState,
        method,
        ...(card.kind === "channel" && card.createdBy ? { createdBy: card.user } : {}),
      });
      try {
        if (card.kind === "channel") {
          const message = withWatchStatus(base, status, { t: watch.team, id: watch.invoiceId });
          await client.chat.update({
            channel: card.channel,
            ts: card.ts,
            text: message.text,
            blocks: message.blocks,
          });
          if (notice) {
            const text = changeNotice(invoice, notice.from, notice.to, {
              user: card.user,
              previous: watch.invoice,
            });
            await client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text });
          }
        } else if (notice) {
          // A private card cannot be edited later: the asker gets the change and the card by DM.
          const text = changeNotice(invoice, notice.from, notice.to, { previous: watch.invoice });
          await client.chat.postMessage({
            channel: card.user,
            text,
            blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...base.blocks],
          });
        }
      } catch (error) {
        const code = slackError(error);
        if (CARD_GONE.has(code)) {
          await this.queue.removeCard(watch.team, watch.invoiceId, cardId(card));
          this.logger.info(
            { team: watch.team, invoice: watch.invoiceId, outcome: "watch_card_gone", slackError: code },
            "card dropped from its watch",
          );
        } else if (TOKEN_DEAD.has(code)) {
          await this.queue.remove(watch.team, watch.invoiceId);
          this.logger.warn(
            { team: watch.team, outcome: "watch_ended", reason: "slack_token", slackError: code },
            "watch ended",
          );
          return;
        } else {
          this.logger.warn(
            { team: watch.team, invoice: watch.invoiceId, outcome: "watch_update_failed", slackError: code },
            "card update failed",
          );
        }
      }
    }
  }
}
