import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterOfMode, subscriptionsSchema } from "../../src/feed/model.js";
import { StoreValueError } from "../../src/store/credentials.js";
import { type FeedWorld, feedWorld } from "../support/feed-world.js";

describe("FeedStore", () => {
  let world: FeedWorld;
  beforeAll(async () => {
    world = await feedWorld();
  });
  afterAll(async () => world.close());

  it("subscribes a channel once, keeps its start when the mode changes, and enlists the workspace", async () => {
    const { feeds, ledger } = world;
    expect(await feeds.subscribe("T1", { channel: "C1", by: "U1", now: 1000 })).toBe("added");
    expect(
      await feeds.subscribe("T1", { channel: "C1", filter: filterOfMode("all"), by: "U1", now: 5000 }),
    ).toBe("changed");
    expect(await feeds.channels("T1")).toEqual([
      {
        channel: "C1",
        mode: "all",
        filter: { events: ["new", "paid", "failed", "wrongamount", "expired"] },
        mentions: null,
        by: "U1",
        since: 1000,
        digest: null,
      },
    ]);
    expect((await ledger.claim(5000, 1000, 10)).map((claim) => claim.team)).toEqual(["T1"]);
    expect(await feeds.unsubscribe("T1", "C1")).toBe(true);
    expect(await feeds.unsubscribe("T1", "C1")).toBe(false);
    expect(await feeds.channels("T1")).toEqual([]);
  });

  it("subscribing again to a paused feed asks its next turn to lift the pause (people never write a state)", async () => {
    const { feeds, ledger } = world;
    await feeds.subscribe("T2", { channel: "C1", by: "U1", now: 1000 });
    const [claim] = await ledger.claim(2000, 60_000, 10);
    const paused = {
      since: 1000,
      seen: [],
      owed: [],
      goodReads: 0,
      pause: { reason: "not_in_channel", at: 1500, told: true },
    };
    expect(await ledger.writeState("T2", "C1", claim?.token ?? "", paused)).toBe(true);
    expect(await feeds.subscribe("T2", { channel: "C1", by: "U1", now: 9000 })).toBe("resumed");
    expect((await feeds.channels("T2"))[0]?.resumedAt).toBe(9000);
    expect((await feeds.state("T2", "C1"))?.pause?.reason).toBe("not_in_channel");
  });

  it("says when a workspace's subscriptions cannot be read, instead of dropping its feeds", async () => {
    await world.store.namespace("feedsubs").set("T3", { channels: [{ channel: "not a channel id" }] });
    await expect(world.feeds.channels("T3")).rejects.toBeInstanceOf(StoreValueError);
  });

  it("reads a channel's state that cannot be read as none (rebuilt from the history)", async () => {
    const { feeds, ledger } = world;
    await feeds.subscribe("T4", { channel: "C1", by: "U1", now: 0 });
    const [claim] = (await ledger.claim(Date.now(), 60_000, 10)).filter((c) => c.team === "T4");
    expect(await ledger.writeState("T4", "C1", claim?.token ?? "", { seen: "garbage", owed: 5 })).toBe(true);
    expect(await feeds.state("T4", "C1")).toBeUndefined();
  });

  it("notes live cards only in feed channels", async () => {
    const { feeds } = world;
    await feeds.subscribe("T5", { channel: "CFEED", by: "U1", now: 0 });
    await feeds.noteCard("T5", "CFEED", "inv1");
    await feeds.noteCard("T5", "COTHER", "inv2");
    expect(await feeds.hasCard("T5", "CFEED", "inv1")).toBe(true);
    expect(await feeds.hasCard("T5", "COTHER", "inv2")).toBe(false);
  });

  it("removes every feed of a workspace, its turns and states with it", async () => {
    const { feeds, ledger } = world;
    await feeds.subscribe("T6", { channel: "C1", by: "U1", now: 0 });
    await feeds.removeTeam("T6");
    expect(await feeds.channels("T6")).toEqual([]);
    expect((await ledger.claim(Date.now(), 60_000, 100)).filter((c) => c.team === "T6")).toEqual([]);
  });

  it("a filter change keeps the feed's start and its mentions; a subscription stored before filters reads as its mode", async () => {
    const { feeds } = world;
    const mentions = { users: ["U0ANNA"], payments: true, minRub: "50000", failures: false };
    await feeds.subscribe("T7", { channel: "C1", by: "U1", now: 1000, mentions });
    await feeds.subscribe("T7", {
      channel: "C1",
      by: "U2",
      now: 9000,
      filter: { events: ["failed", "wrongamount", "expired"] },
    });
    expect(await feeds.channel("T7", "C1")).toMatchObject({
      since: 1000,
      mode: "all",
      filter: { events: ["failed", "wrongamount", "expired"] },
      mentions,
    });
    // As written by the version before filters.
    const old = subscriptionsSchema.parse({
      channels: [
        { channel: "C1", mode: "paid", by: "U1", since: 1000 },
        { channel: "C2", mode: "all", by: "U1", since: 1000, digest: null },
      ],
    });
    expect(old.channels.map((subscription) => [subscription.filter, subscription.mentions])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });
});
