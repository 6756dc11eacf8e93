import type Keyv from "keyv";
import { StoreValueError } from "../store/credentials.js";
import { Memo } from "../store/memo.js";
import type { FeedLedger } from "./ledger.js";
import {
  type FeedFilter,
  type FeedState,
  feedStateSchema,
  filterOf,
  filterOfMode,
  type Mentions,
  modeOfFilter,
  type Subscription,
  subscriptionsSchema,
} from "./model.js";

/**
 * Which channels follow each workspace's cash register (written by people, through commands), and
 * each channel's feed state, which only the feed's turns write (through the ledger, fenced by their
 * claim): people never write a state, so a subscribe never races a turn. What people ask of a
 * feed's state (resume it, start it afresh) is said in the subscription, and the next turn does it.
 */
export class FeedStore {
  /** A workspace's feed channels, reused a few seconds: noteCard runs for every channel card. */
  private readonly feedChannels = new Memo<ReadonlySet<string>>(SUBSCRIBED_MEMO_MS);

  constructor(
    private readonly subscriptions: Keyv,
    readonly ledger: FeedLedger,
    /** Live cards posted in feed channels: the feed leaves their invoices to the card's thread. */
    private readonly cards: Keyv,
  ) {}

  /**
   * A live card of `invoiceId` was posted in `channel`: if the channel is a feed, the feed will not
   * announce that invoice there (its card's thread tells the change). One store read per workspace
   * every few seconds; a write only in feed channels.
   */
  async noteCard(teamId: string, channel: string, invoiceId: string): Promise<void> {
    let feeds = this.feedChannels.get(teamId, undefined);
    if (feeds === undefined) {
      feeds = new Set((await this.channels(teamId)).map((entry) => entry.channel));
      this.feedChannels.set(teamId, feeds);
    }
    if (feeds.has(channel)) await this.cards.set(`${teamId}:${channel}:${invoiceId}`, true, CARD_TTL_MS);
  }

  async hasCard(teamId: string, channel: string, invoiceId: string): Promise<boolean> {
    return (await this.cards.get(`${teamId}:${channel}:${invoiceId}`)) === true;
  }

  async channels(teamId: string): Promise<Subscription[]> {
    const raw: unknown = await this.subscriptions.get(teamId);
    if (raw === undefined) return [];
    const parsed = subscriptionsSchema.safeParse(raw);
    if (!parsed.success)
      throw new StoreValueError(`feed subscriptions of ${teamId} are not in the expected form`);
    return parsed.data.channels;
  }

  /**
   * Makes `channel` a feed, or changes what it posts (`filter`) and whom it mentions (`mentions`);
   * left out, each stays as it was (a new feed posts paid invoices and mentions nobody). A channel
   * subscribing again keeps what it has seen (its `since`) and resumes a paused feed (its next turn
   * lifts the pause): nothing old is announced twice, whatever the new filter takes.
   */
  async subscribe(
    teamId: string,
    values: {
      channel: string;
      by: string;
      now: number;
      filter?: FeedFilter | undefined;
      mentions?: Mentions | null | undefined;
    },
  ): Promise<"added" | "changed" | "resumed"> {
    const channels = await this.channels(teamId);
    const existing = channels.find((entry) => entry.channel === values.channel);
    const paused = existing ? Boolean((await this.state(teamId, values.channel))?.pause) : false;
    const filter = values.filter ?? (existing ? filterOf(existing) : filterOfMode("paid"));
    const mentions = values.mentions === undefined ? (existing?.mentions ?? null) : values.mentions;
    const next: Subscription = {
      channel: values.channel,
      mode: modeOfFilter(filter),
      filter,
      mentions,
      by: values.by,
      since: existing?.since ?? values.now,
      digest: existing?.digest ?? null,
      ...(paused ? { resumedAt: values.now } : existing?.resumedAt ? { resumedAt: existing.resumedAt } : {}),
    };
    await this.subscriptions.set(teamId, {
      channels: [...channels.filter((entry) => entry.channel !== values.channel), next],
    });
    this.feedChannels.delete(teamId);
    await this.ledger.enlist(teamId, values.now);
    await this.ledger.nudge(teamId, values.now);
    if (!existing) return "added";
    return paused ? "resumed" : "changed";
  }

  /** The channel's feed, if it is one. */
  async channel(teamId: string, channel: string): Promise<Subscription | undefined> {
    return (await this.channels(teamId)).find((entry) => entry.channel === channel);
  }

  /** Sets or (null) stops a channel's daily digest; false when the channel is not a feed. */
  async setDigest(teamId: string, channel: string, digest: Subscription["digest"]): Promise<boolean> {
    const channels = await this.channels(teamId);
    const existing = channels.find((entry) => entry.channel === channel);
    if (!existing) return false;
    await this.subscriptions.set(teamId, {
      channels: channels.map((entry) =>
        entry.channel === channel ? { ...entry, digest: digest ?? null } : entry,
      ),
    });
    return true;
  }

  async unsubscribe(teamId: string, channel: string): Promise<boolean> {
    const channels = await this.channels(teamId);
    const left = channels.filter((entry) => entry.channel !== channel);
    if (left.length === channels.length) return false;
    if (left.length === 0) await this.subscriptions.delete(teamId);
    else await this.subscriptions.set(teamId, { channels: left });
    this.feedChannels.delete(teamId);
    // A turn under way may still write it back: its subscription's `since` then no longer matches
    // a later subscription's, which starts afresh.
    await this.ledger.deleteState(teamId, channel);
    return true;
  }

  /** Every feed of a workspace (disconnect, uninstall). */
  async removeTeam(teamId: string): Promise<void> {
    await this.subscriptions.delete(teamId);
    this.feedChannels.delete(teamId);
    await this.ledger.drop(teamId);
  }

  /** Workspaces with at least one feed (each enlisted in the ledger when Kassa starts). */
  async *teams(): AsyncGenerator<string> {
    const iterator = this.subscriptions.iterator;
    if (!iterator) throw new Error("this store cannot list its keys");
    const seen = new Set<string>();
    for await (const [key] of iterator(this.subscriptions.namespace)) {
      const team = String(key);
      // Redis' SCAN may return a key twice while its table grows.
      if (!seen.has(team)) {
        seen.add(team);
        yield team;
      }
    }
  }

  /**
   * A channel's state as its feed last wrote it (undefined: none yet). One that cannot be read
   * counts as none: the feed rebuilds it from the history. (States kept before the ledger were moved
   * onto it by the store's schema step 4.)
   */
  async state(teamId: string, channel: string): Promise<FeedState | undefined> {
    const parsed = feedStateSchema.safeParse(await this.ledger.readState(teamId, channel));
    return parsed.success ? parsed.data : undefined;
  }
}
/** A card is watched at most WATCH_MAX_HOURS (24 h by default); kept a day longer. */
const CARD_TTL_MS = 48 * 3600 * 1000;
/** How long a workspace's feed channels are reused for noteCard: a new feed is seen within it. */
const SUBSCRIBED_MEMO_MS = 5000;
