/**
 * The feed's one crash window, closed: a process that claimed an announcement and died before
 * writing the claim down. The claim's owner was written down first, so the next process takes the
 * claim up as its own and posts the message, once. Real SQLite store, real Slack stand-in.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import { deliver } from "../../src/feed/delivery.js";
import type { FeedContext } from "../../src/feed/deps.js";
import { emptyState } from "../../src/feed/model.js";
import { FeedStore } from "../../src/feed/store.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";

const TEAM = "T0FEEDCRASH";
const CHANNEL = "C0FEEDCRASH";
const ID = "715300100_FeedCrash";
const KEY = `feed:msg:${TEAM}:${CHANNEL}:${ID}:payed`;

describe("feed delivery after a crash between claiming and writing the claim down", () => {
  const dir = mkdtempSync(join(tmpdir(), "kassa-feed-"));
  let store: KeyvStore;
  let slack: SlackStandIn;
  let ctx: FeedContext;
  let feeds: FeedStore;
  beforeAll(async () => {
    store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
    slack = await startSlackStandIn();
    feeds = new FeedStore(
      store.namespace("feeds"),
      store.namespace("feedstates"),
      store.namespace("feedcards"),
    );
    const client = new webApi.WebClient("xoxb-feed-tests", {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    ctx = {
      deps: {
        feeds,
        reader: {
          history: async () => ({ entries: [], hasNextPage: false, unreadable: 0 }),
          invoice: async (_team, id) => ({ ...unpaidInvoice(id), state: "payed" }),
          methodFor: async () => undefined,
        },
        claimOnce: (key, ttlMs, owner) => store.claimOnce(key, ttlMs, owner),
        slack: async () => client,
        logger: createLogger("silent"),
      },
      now: () => new Date(),
      stopped: () => false,
    };
  });
  afterAll(async () => {
    await slack?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const subscription = { channel: CHANNEL, mode: "paid" as const, by: "U0ADMIN", since: 0, digest: null };
  const posts = () => slack.callsOf("chat.postMessage").filter((call) => call.body.channel === CHANNEL);

  it("posts the message once: the claim is the owner's it wrote down, not someone else's", async () => {
    // What the dead process left: the announcement owed with its claim token, and the claim made.
    const state = { ...emptyState(), owed: [{ id: ID, state: "payed", claimToken: "token-of-the-dead" }] };
    await feeds.setState(TEAM, CHANNEL, state);
    expect(await store.claimOnce(KEY, 60_000, "token-of-the-dead")).toBe(true);

    await deliver(ctx, TEAM, subscription, await feeds.state(TEAM, CHANNEL));
    expect(posts()).toHaveLength(1);
    expect(String(posts()[0]?.body.text)).toContain(ID);
    expect((await feeds.state(TEAM, CHANNEL)).owed).toEqual([]);

    // The same announcement owed again under another token (another replica's copy): already sent.
    const again = { ...emptyState(), owed: [{ id: ID, state: "payed", claimToken: "another-token" }] };
    await deliver(ctx, TEAM, subscription, again);
    expect(posts()).toHaveLength(1);
  });

  it("writes the token down before it claims, so a crash right after the claim loses nothing", async () => {
    const id = "715300101_FeedCrash";
    const state = { ...emptyState(), owed: [{ id, state: "payed" }] };
    // Slack fails: the announcement stays owed, claimed, with the token it was claimed under.
    slack.failApi("chat.postMessage", "internal_error");
    try {
      await deliver(ctx, TEAM, subscription, state);
    } finally {
      slack.failApi("chat.postMessage", null);
    }
    const [owed] = (await feeds.state(TEAM, CHANNEL)).owed;
    expect(owed?.claimToken).toEqual(expect.any(String));
    const key = `feed:msg:${TEAM}:${CHANNEL}:${id}:payed`;
    expect(await store.claimOnce(key, 60_000, owed?.claimToken)).toBe(true);
    expect(await store.claimOnce(key, 60_000, "someone-else")).toBe(false);
  });
});
