import { feedChanges } from "./changes.js";
import { deliver, readFailed } from "./delivery.js";
import type { FeedContext, FeedRunnerDeps, FeedRunnerOptions } from "./deps.js";
import { digests } from "./digest.js";
import type { FeedState } from "./model.js";

export type { FeedReader, FeedRunnerDeps, FeedRunnerOptions } from "./deps.js";

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
  /** Workspaces told of a change while their read was under way (that read may predate it). */
  private readonly again = new Set<string>();
  private readonly now: () => Date;
  /** What the feed's steps (delivery.ts, digest.ts) share with this loop. */
  private readonly context: FeedContext;

  constructor(
    private readonly deps: FeedRunnerDeps,
    private readonly options: FeedRunnerOptions,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.context = { deps, now: () => this.now(), stopped: () => this.stopped };
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
      await digests(this.context, team).catch((error: unknown) =>
        this.deps.logger.error({ err: error, team }, "feed digest failed"),
      );
    }
  }

  /**
   * A callback or a live card saw a change: read this workspace's history now instead of at the next
   * interval; told again while that read is under way, read once more after it (never two at once).
   * Announcements stay once-only through their claims.
   */
  checkSoon(team: string): void {
    if (this.stopped) return;
    if (this.soon.has(team)) {
      this.again.add(team);
      return;
    }
    const run = this.readTeam(team)
      .catch((error: unknown) => this.deps.logger.error({ err: error, team }, "feed read failed"))
      .finally(() => {
        this.soon.delete(team);
        if (this.again.delete(team)) this.checkSoon(team);
      });
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
      if (readError) await readFailed(this.context, team, subscription, state, readError);
      else await deliver(this.context, team, subscription, state);
    }
  }
}
