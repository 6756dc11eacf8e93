import type { webApi } from "@slack/bolt";
import { buildFeedMessage, feedPausedText, feedResumedText } from "../blocks/feed.js";
import { buildSummaryMessage } from "../blocks/summary.js";
import type { Logger } from "../logger.js";
import type { HistoryEntry } from "../payments/history.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import { digestDue, periodBounds, summarize } from "../reports/summary.js";
import { slackErrorCode } from "../slack-error.js";
import { classifySlackFailure } from "../watch/delivery.js";
import { feedChanges } from "./changes.js";
import type { Announcement, FeedState, Pause, Subscription } from "./model.js";
import type { FeedStore } from "./store.js";

/** What the feed reads from the payment service (WorkspacePayments). */
export type FeedReader = {
  history(
    teamId: string,
    page: number,
    items: number,
  ): Promise<{ entries: HistoryEntry[]; hasNextPage: boolean | null; unreadable: number }>;
  invoice(teamId: string, invoiceId: string): Promise<Invoice>;
  methodFor(teamId: string, code: string): Promise<PaymentMethod | undefined>;
};

export type FeedRunnerDeps = {
  feeds: FeedStore;
  reader: FeedReader;
  /** The store's claimOnce: true for one caller per key across replicas. */
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
  slack: (teamId: string) => Promise<webApi.WebClient | undefined>;
  logger: Logger;
  now?: () => Date;
};

export type FeedRunnerOptions = {
  /** FEED_INTERVAL_MS: how often each register's history is read. */
  intervalMs: number;
  /** Invoices per history page, and how many pages one pass reads at most. */
  pageSize?: number;
  maxPages?: number;
};

/** An announcement is claimed for this long: far longer than any retry of it. */
const CLAIM_TTL_MS = 14 * 24 * 3600 * 1000;
/** Failed posts of one announcement before it is given up (with a log line): a day at the interval. */
const MAX_ATTEMPTS = 2880;

const CHANNEL_GONE = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

/**
 * The payment feed: reads each subscribed register's history every interval, newest page first,
 * stopping at the first page with nothing new, and posts each change once per channel. One replica
 * reads a register per interval (a claimOnce lease per time slot); every announcement is written to
 * the channel's state before Slack is called and claimed once across replicas, so a crash repeats
 * nothing and loses nothing but the instant between the claim and writing it down.
 */
export class FeedRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly soon = new Map<string, Promise<void>>();
  private readonly now: () => Date;

  constructor(
    private readonly deps: FeedRunnerDeps,
    private readonly options: FeedRunnerOptions,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, "feed pass failed"))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    // A short first wait: a payment made while Kassa was down is posted soon after it starts.
    this.timer = setTimeout(tick, Math.min(1000, this.options.intervalMs));
  }

  /** Stops the loop; a pass under way may finish within `graceMs` (what it did not post stays owed). */
  async close(graceMs = 3000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const waiting = [this.running, ...this.soon.values()].filter(Boolean);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(waiting),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** One pass over every workspace with a feed; each register read by one replica per interval. */
  async pass(): Promise<void> {
    const slot = Math.floor(this.now().getTime() / this.options.intervalMs);
    for await (const team of this.deps.feeds.teams()) {
      if (this.stopped) return;
      if (!(await this.deps.claimOnce(`feed:pass:${team}:${slot}`, this.options.intervalMs))) continue;
      await this.readTeam(team).catch((error: unknown) =>
        this.deps.logger.error({ err: error, team }, "feed read failed"),
      );
      // Only under the pass's lease: one replica posts each day's digest.
      await this.digests(team).catch((error: unknown) =>
        this.deps.logger.error({ err: error, team }, "feed digest failed"),
      );
    }
  }

  /**
   * A callback or a live card saw a change: read this workspace's history now instead of at the next
   * interval. Announcements stay once-only through their claims.
   */
  checkSoon(team: string): void {
    if (this.stopped || this.soon.has(team)) return;
    const run = this.readTeam(team)
      .catch((error: unknown) => this.deps.logger.error({ err: error, team }, "feed read failed"))
      .finally(() => this.soon.delete(team));
    this.soon.set(team, run);
  }

  /** Reads one workspace's history and tells each of its feed channels what is new. */
  async readTeam(team: string): Promise<void> {
    const subscriptions = await this.deps.feeds.channels(team);
    if (subscriptions.length === 0) return;
    const states = new Map<string, FeedState>();
    for (const subscription of subscriptions)
      states.set(subscription.channel, await this.deps.feeds.state(team, subscription.channel));

    let readError: unknown;
    const pageSize = this.options.pageSize ?? 50;
    try {
      for (let page = 1; page <= (this.options.maxPages ?? 5); page += 1) {
        const history = await this.deps.reader.history(team, page, pageSize);
        if (history.unreadable > 0)
          this.deps.logger.warn(
            { team, page, unreadable: history.unreadable },
            "feed history entries left out",
          );
        let anythingNew = false;
        for (const subscription of subscriptions) {
          const before = states.get(subscription.channel) as FeedState;
          const changes = feedChanges(before, subscription, history.entries);
          states.set(subscription.channel, changes.state);
          anythingNew ||= changes.anythingNew;
        }
        if (!anythingNew || history.entries.length < pageSize || history.hasNextPage === false) break;
      }
    } catch (error) {
      readError = error;
    }

    for (const subscription of subscriptions) {
      const state = states.get(subscription.channel) as FeedState;
      if (readError) await this.readFailed(team, subscription, state, readError);
      else await this.deliver(team, subscription, state);
    }
  }

  /** The history could not be read: the feed says so once to its subscriber, and tries again later. */
  private async readFailed(team: string, subscription: Subscription, state: FeedState, error: unknown) {
    if (state.pause) return; // already said (or not in the channel: nothing changes that)
    this.deps.logger.warn(
      {
        team,
        channel: subscription.channel,
        err: error,
        outcome: "feed_paused",
        reason: "unreadable_history",
      },
      "feed paused",
    );
    const pause: Pause = { reason: "unreadable_history", at: this.now().getTime(), told: false };
    await this.deps.feeds.setState(team, subscription.channel, { ...state, pause });
    pause.told = await this.tellSubscriber(
      team,
      subscription,
      feedPausedText("unreadable_history", subscription.channel),
    );
    await this.deps.feeds.setState(team, subscription.channel, { ...state, pause });
  }

  /** Writes down what the channel is owed, then posts it, oldest first, clearing each once Slack has it. */
  private async deliver(team: string, subscription: Subscription, read: FeedState): Promise<void> {
    const channel = subscription.channel;
    let state = read;
    if (state.pause?.reason === "unreadable_history") {
      state = { ...state, pause: null };
      this.deps.logger.info({ team, channel, outcome: "feed_resumed" }, "feed resumed");
      await this.tellSubscriber(team, subscription, feedResumedText(channel));
    }
    if (state.pause?.reason === "not_in_channel") {
      // Quiet until someone subscribes again: what changed meanwhile is noted, not piled up.
      await this.deps.feeds.setState(team, channel, { ...state, owed: [] });
      return;
    }
    await this.deps.feeds.setState(team, channel, state);
    const slack = await this.deps.slack(team);
    if (!slack) return;
    while (state.owed.length > 0 && !this.stopped) {
      const next = state.owed[0] as Announcement;
      const outcome = await this.post(team, channel, slack, next, state);
      if (outcome === "retry") {
        const attempts = state.attempts + 1;
        if (attempts < MAX_ATTEMPTS) {
          await this.deps.feeds.setState(team, channel, { ...state, attempts });
          return;
        }
        this.deps.logger.error(
          { team, channel, invoice: next.id, outcome: "feed_given_up" },
          "feed message given up",
        );
      }
      if (outcome === "not_in_channel") {
        const pause: Pause = { reason: "not_in_channel", at: this.now().getTime(), told: false };
        state = { ...state, owed: [], attempts: 0, pause };
        await this.deps.feeds.setState(team, channel, state);
        pause.told = await this.tellSubscriber(team, subscription, feedPausedText("not_in_channel", channel));
        await this.deps.feeds.setState(team, channel, state);
        return;
      }
      state = { ...state, owed: state.owed.slice(1), attempts: 0 };
      await this.deps.feeds.setState(team, channel, state);
    }
  }

  /** Posts one announcement: "sent" (or already sent by another), "retry" or "not_in_channel". */
  private async post(
    team: string,
    channel: string,
    slack: webApi.WebClient,
    announcement: Announcement,
    state: FeedState,
  ): Promise<"sent" | "retry" | "not_in_channel"> {
    const log = { team, channel, invoice: announcement.id, state: announcement.state };
    if (await this.deps.feeds.hasCard(team, channel, announcement.id)) {
      // Its live card in this channel tells the change in its thread: not announced twice here.
      this.deps.logger.info(
        { ...log, outcome: "feed_left_to_card" },
        "feed leaves the invoice to its live card",
      );
      return "sent";
    }
    if (!announcement.claimed) {
      const key = `feed:msg:${team}:${channel}:${announcement.id}:${announcement.state}`;
      if (!(await this.deps.claimOnce(key, CLAIM_TTL_MS))) {
        this.deps.logger.info({ ...log, outcome: "feed_already_sent" }, "feed message already sent");
        return "sent";
      }
      announcement.claimed = true;
      await this.deps.feeds.setState(team, channel, state);
    }
    let invoice: Invoice;
    try {
      // The message says what invoice/info says now (the history lists no description or paid amount).
      invoice = await this.deps.reader.invoice(team, announcement.id);
    } catch (error) {
      this.deps.logger.warn({ ...log, err: error, outcome: "feed_read_failed" }, "feed invoice read failed");
      return "retry";
    }
    const method = invoice.method
      ? await this.deps.reader.methodFor(team, invoice.method).catch(() => undefined)
      : undefined;
    const message = buildFeedMessage(
      // Told as the history showed it, even if it moved on since (its own change comes next).
      { ...invoice, state: announcement.state },
      { teamId: team, isNew: announcement.isNew === true, method },
    );
    try {
      await slack.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
      this.deps.logger.info({ ...log, outcome: "feed_posted" }, "feed message posted");
      return "sent";
    } catch (error) {
      const failure = classifySlackFailure(error);
      const code = slackErrorCode(error);
      if (CHANNEL_GONE.has(code)) {
        this.deps.logger.warn(
          { ...log, slackError: code, outcome: "feed_paused", reason: "not_in_channel" },
          "feed paused",
        );
        return "not_in_channel";
      }
      this.deps.logger.warn(
        { ...log, slackError: code, kind: failure.kind, outcome: "feed_post_failed" },
        "feed post failed",
      );
      return "retry";
    }
  }

  /**
   * Yesterday's summary in each feed channel with a digest, once its time of day has come; the day
   * is written down once Slack took it, so a failed post is tried at the next pass.
   */
  private async digests(team: string): Promise<void> {
    for (const subscription of await this.deps.feeds.channels(team)) {
      const digest = subscription.digest;
      if (!digest || this.stopped) continue;
      const now = this.now();
      const day = digestDue(now, digest);
      if (!day) continue;
      const state = await this.deps.feeds.state(team, subscription.channel);
      if (state.digestDay === day || state.pause?.reason === "not_in_channel") continue;
      const slack = await this.deps.slack(team);
      if (!slack) continue;
      const summary = await summarize(
        (page, items) => this.deps.reader.history(team, page, items),
        periodBounds("yesterday", now, digest.zone),
      );
      const message = buildSummaryMessage(summary, now, "channel");
      try {
        await slack.chat.postMessage({
          channel: subscription.channel,
          text: message.text,
          blocks: message.blocks,
        });
      } catch (error) {
        this.deps.logger.warn(
          {
            team,
            channel: subscription.channel,
            slackError: slackErrorCode(error),
            outcome: "digest_post_failed",
          },
          "digest not posted",
        );
        continue;
      }
      this.deps.logger.info(
        { team, channel: subscription.channel, day, outcome: "digest_posted" },
        "digest posted",
      );
      await this.deps.feeds.setState(team, subscription.channel, {
        ...(await this.deps.feeds.state(team, subscription.channel)),
        digestDay: day,
      });
    }
  }

  /** A private note to whoever subscribed the channel (a DM from Kassa); true once Slack took it. */
  private async tellSubscriber(team: string, subscription: Subscription, text: string): Promise<boolean> {
    try {
      const slack = await this.deps.slack(team);
      if (!slack) return false;
      await slack.chat.postMessage({ channel: subscription.by, text });
      return true;
    } catch (error) {
      this.deps.logger.warn(
        { team, channel: subscription.channel, slackError: slackErrorCode(error) },
        "feed note not sent",
      );
      return false;
    }
  }
}
