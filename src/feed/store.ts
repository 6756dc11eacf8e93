import type Keyv from "keyv";
import { StoreValueError } from "../store/credentials.js";
import { Memo } from "../store/memo.js";
import {
  emptyState,
  type FeedMode,
  type FeedState,
  feedStateSchema,
  type Subscription,
  subscriptionsSchema,
} from "./model.js";

/**
 * Which channels follow each workspace's cash register (written by people, through commands), and
 * each channel's feed state (written by the feed runner alone, under the register's pass lease):
 * two keys, so a subscribe never races a pass writing its state.
 */
export class FeedStore {
  /** A workspace's feed channels, reused a few seconds: noteCard runs for every channel card. */
  private readonly feedChannels = new Memo<ReadonlySet<string>>(SUBSCRIBED_MEMO_MS);

  constructor(
    private readonly subscriptions: Keyv,
    private readonly states: Keyv,
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
   * Makes `channel` a feed (or changes its mode). A channel subscribing again keeps what it has seen
   * and resumes a paused feed: nothing old is announced twice.
   */
  async subscribe(
    teamId: string,
    values: { channel: string; mode: FeedMode; by: string; now: number },
  ): Promise<"added" | "changed" | "resumed"> {
    const channels = await this.channels(teamId);
    const existing = channels.find((entry) => entry.channel === values.channel);
    const next: Subscription = {
      channel: values.channel,
      mode: values.mode,
      by: values.by,
      since: existing?.since ?? values.now,
      digest: existing?.digest ?? null,
    };
    await this.subscriptions.set(teamId, {
      channels: [...channels.filter((entry) => entry.channel !== values.channel), next],
    });
    if (!existing) {
      await this.states.delete(stateKey(teamId, values.channel));
      return "added";
    }
    const state = await this.state(teamId, values.channel);
    if (state.pause) {
      await this.setState(teamId, values.channel, { ...state, pause: null, attempts: 0 });
      return "resumed";
    }
    return "changed";
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
    await this.states.delete(stateKey(teamId, channel));
    return true;
  }

  /** Every feed of a workspace (disconnect, uninstall). */
  async removeTeam(teamId: string): Promise<void> {
    for (const entry of await this.channels(teamId))
      await this.states.delete(stateKey(teamId, entry.channel));
    await this.subscriptions.delete(teamId);
  }

  /** Workspaces with at least one feed. */
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

  /** A channel's state; one that cannot be read starts afresh (it is rebuilt from the history). */
  async state(teamId: string, channel: string): Promise<FeedState> {
    const raw: unknown = await this.states.get(stateKey(teamId, channel));
    const parsed = feedStateSchema.safeParse(raw);
    return parsed.success ? parsed.data : emptyState();
  }

  async setState(teamId: string, channel: string, state: FeedState): Promise<void> {
    await this.states.set(stateKey(teamId, channel), state);
  }
}

const stateKey = (teamId: string, channel: string) => `${teamId}:${channel}`;
/** A card is watched at most WATCH_MAX_HOURS (24 h by default); kept a day longer. */
const CARD_TTL_MS = 48 * 3600 * 1000;
/** How long a workspace's feed channels are reused for noteCard: a new feed is seen within it. */
const SUBSCRIBED_MEMO_MS = 5000;
