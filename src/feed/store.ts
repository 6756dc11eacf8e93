import type Keyv from "keyv";
import type { z } from "zod";
import type { ClaimBoard } from "../store/claims/board.js";
import { ListedDocument } from "../store/claims/listed.js";
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

  private readonly lists: ListedDocument<Subscriptions>;

  constructor(
    /** Per register with feeds, the entry its feeds are listed by (and, from releases before, the list itself). */
    index: Keyv,
    readonly ledger: FeedLedger,
    /** Live cards posted in feed channels: the feed leaves their invoices to the card's thread. */
    private readonly cards: Keyv,
    openBoard: () => Promise<ClaimBoard>,
  ) {
    this.lists = new ListedDocument(openBoard, FEED_SUBSCRIPTIONS_FAMILY, SUBSCRIPTIONS_FIELD, index, {
      parse: (raw) => {
        const parsed = subscriptionsSchema.safeParse(raw);
        return parsed.success ? parsed.data : undefined;
      },
      empty: () => ({ channels: [] }),
      size: (list) => list.channels.length,
      unreadable: (team) => new StoreValueError(`feed subscriptions of ${team} are not in the expected form`),
    });
  }

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
    return (await this.lists.read(teamId)).channels;
  }

  /**
   * Makes `channel` a feed, or changes what it posts (`filter`) and whom it mentions (`mentions`);
   * left out, each stays as it was (a new feed posts paid invoices and mentions nobody). A channel
   * subscribing again keeps what it has seen (its `since`) and resumes a paused feed (its next turn
   * lifts the pause): nothing old is announced twice, whatever the new filter takes.
   */
  async subscribe(teamId: string, values: SubscribeValues): Promise<"added" | "changed" | "resumed"> {
    let outcome: "added" | "changed" | "resumed" = "added";
    await this.change(teamId, async (channels) => {
      const existing = channels.find((entry) => entry.channel === values.channel);
      const paused = existing ? Boolean((await this.state(teamId, values.channel))?.pause) : false;
      outcome = !existing ? "added" : paused ? "resumed" : "changed";
      const next = subscriptionOf(values, existing, paused);
      return [...channels.filter((entry) => entry.channel !== values.channel), next];
    });
    this.feedChannels.delete(teamId);
    await this.ledger.enlist(teamId, values.now);
    await this.ledger.nudge(teamId, values.now);
    return outcome;
  }

  /** The register's feed channels changed by compare-and-set (ListedDocument). */
  private async change(
    teamId: string,
    next: (channels: Subscription[]) => Subscription[] | Promise<Subscription[]>,
  ): Promise<void> {
    await this.lists.change(teamId, async ({ channels }) => ({ channels: await next(channels) }));
  }

  /** The channel's feed, if it is one. */
  async channel(teamId: string, channel: string): Promise<Subscription | undefined> {
    return (await this.channels(teamId)).find((entry) => entry.channel === channel);
  }

  /** Sets or (null) stops a channel's daily digest; false when the channel is not a feed. */
  async setDigest(teamId: string, channel: string, digest: Subscription["digest"]): Promise<boolean> {
    if (!(await this.channel(teamId, channel))) return false;
    let found = false;
    await this.change(teamId, (channels) => {
      found = channels.some((entry) => entry.channel === channel);
      return channels.map((entry) =>
        entry.channel === channel ? { ...entry, digest: digest ?? null } : entry,
      );
    });
    return found;
  }

  async unsubscribe(teamId: string, channel: string): Promise<boolean> {
    if (!(await this.channel(teamId, channel))) return false;
    let found = false;
    await this.change(teamId, (channels) => {
      const left = channels.filter((entry) => entry.channel !== channel);
      found = left.length < channels.length;
      return left;
    });
    if (!found) return false;
    this.feedChannels.delete(teamId);
    // A turn under way may still write it back: its subscription's `since` then no longer matches
    // a later subscription's, which starts afresh.
    await this.ledger.deleteState(teamId, channel);
    return true;
  }

  /** Every feed of a workspace (disconnect, uninstall). */
  async removeTeam(teamId: string): Promise<void> {
    await this.lists.remove(teamId);
    this.feedChannels.delete(teamId);
    await this.ledger.drop(teamId);
  }

  /** Workspaces with at least one feed (each enlisted in the ledger when Kassa starts). */
  teams(): AsyncGenerator<string> {
    return this.lists.keys();
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

/** The board's family of the feeds' subscriptions: item = register key, one state SUBSCRIPTIONS_FIELD. */
export const FEED_SUBSCRIPTIONS_FAMILY = "feed-subs";
const SUBSCRIPTIONS_FIELD = "channels";
type Subscriptions = z.infer<typeof subscriptionsSchema>;

/** What a subscribe asks: the channel, who, when, and (left out: as it was) its filter and mentions. */
type SubscribeValues = {
  channel: string;
  by: string;
  now: number;
  filter?: FeedFilter | undefined;
  mentions?: Mentions | null | undefined;
};

/**
 * A channel's subscription as asked: what it posts and whom it mentions (left out: as it was; a new
 * feed posts paid invoices, mentioning nobody), keeping what it has seen (`since`) and its digest; a
 * paused feed subscribed again is resumed.
 */
function subscriptionOf(
  values: SubscribeValues,
  existing: Subscription | undefined,
  paused: boolean,
): Subscription {
  const filter = values.filter ?? (existing ? filterOf(existing) : filterOfMode("paid"));
  const mentions = values.mentions === undefined ? (existing?.mentions ?? null) : values.mentions;
  return {
    channel: values.channel,
    mode: modeOfFilter(filter),
    filter,
    mentions,
    by: values.by,
    since: existing?.since ?? values.now,
    digest: existing?.digest ?? null,
    ...(paused ? { resumedAt: values.now } : existing?.resumedAt ? { resumedAt: existing.resumedAt } : {}),
  };
}
