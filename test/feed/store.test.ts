import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { emptyState } from "../../src/feed/model.js";
import { FeedStore } from "../../src/feed/store.js";
import { StoreValueError } from "../../src/store/credentials.js";

function stores() {
  const subscriptions = new Keyv();
  const states = new Keyv();
  const cards = new Keyv();
  return { subscriptions, states, cards, feeds: new FeedStore(subscriptions, states, cards) };
}

describe("FeedStore", () => {
  it("subscribes a channel once, keeps its start when the mode changes, and resumes a paused feed", async () => {
    const { feeds } = stores();
    expect(await feeds.subscribe("T1", { channel: "C1", mode: "paid", by: "U1", now: 1000 })).toBe("added");
    expect(await feeds.subscribe("T1", { channel: "C1", mode: "all", by: "U1", now: 5000 })).toBe("changed");
    expect(await feeds.channels("T1")).toEqual([
      { channel: "C1", mode: "all", by: "U1", since: 1000, digest: null },
    ]);
    await feeds.setState("T1", "C1", {
      ...emptyState(),
      pause: { reason: "not_in_channel", at: 1, told: true },
    });
    expect(await feeds.subscribe("T1", { channel: "C1", mode: "all", by: "U1", now: 9000 })).toBe("resumed");
    expect((await feeds.state("T1", "C1")).pause).toBeNull();
    expect(await feeds.unsubscribe("T1", "C1")).toBe(true);
    expect(await feeds.unsubscribe("T1", "C1")).toBe(false);
    expect(await feeds.channels("T1")).toEqual([]);
  });

  it("says when a workspace's subscriptions cannot be read, instead of dropping its feeds", async () => {
    const { feeds, subscriptions } = stores();
    await subscriptions.set("T1", { channels: [{ channel: "not a channel id" }] });
    await expect(feeds.channels("T1")).rejects.toBeInstanceOf(StoreValueError);
  });

  it("starts a channel's state afresh when it cannot be read (rebuilt from the history)", async () => {
    const { feeds, states } = stores();
    await states.set("T1:C1", { seen: "garbage", owed: 5 });
    expect(await feeds.state("T1", "C1")).toEqual(emptyState());
  });

  it("notes live cards only in feed channels", async () => {
    const { feeds } = stores();
    await feeds.subscribe("T1", { channel: "CFEED", mode: "paid", by: "U1", now: 0 });
    await feeds.noteCard("T1", "CFEED", "inv1");
    await feeds.noteCard("T1", "COTHER", "inv2");
    expect(await feeds.hasCard("T1", "CFEED", "inv1")).toBe(true);
    expect(await feeds.hasCard("T1", "COTHER", "inv2")).toBe(false);
  });
});
