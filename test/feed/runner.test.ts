/**
 * The feed's guarantees, one case each, on a real SQLite store and the Slack stand-in: fair across
 * workspaces (a held read, a backlog), a long read never starving posting, one bad invoice holding
 * up nothing, quiet while the service flaps.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { INTERVAL, postedWithin, run, started, stopAfterEach, subscribe } from "../support/feed-runs.js";

stopAfterEach();

describe("the feed across workspaces", () => {
  it("posts another workspace's payment within FEED_INTERVAL_MS + 2 s while one register never answers", async () => {
    const made = await started({ concurrency: 1, turnMs: 300 });
    const slow = made.history("TSLOW");
    slow.hold = true;
    await subscribe(made, "TSLOW");
    const channel = await subscribe(made, "TOK");
    const id = made.history("TOK").add();
    run(made);
    await expect.poll(() => slow.held.length).toBeGreaterThan(0);
    await sleep(INTERVAL);
    made.history("TOK").set(id, "payed");
    const took = await postedWithin(made, channel, id, Date.now(), INTERVAL + 2000);
    expect(took).toBeLessThan(INTERVAL + 2000);
    for (const held of slow.held) held.release();
  });

  it("drains one register's backlog in shares while another workspace's payment goes first", async () => {
    const made = await started({ concurrency: 1, postsPerTurn: 10, maxPages: 2, pageSize: 50 });
    const busy = await subscribe(made, "TBUSY");
    const quiet = await subscribe(made, "TQUIET");
    const backlog = Array.from({ length: 300 }, () => made.history("TBUSY").add("payed"));
    const id = made.history("TQUIET").add();
    run(made);
    await expect.poll(() => made.posts(busy).length).toBeGreaterThan(0);
    made.history("TQUIET").set(id, "payed");
    expect(await postedWithin(made, quiet, id, Date.now(), INTERVAL + 2000)).toBeLessThan(INTERVAL + 2000);
    expect(made.posts(busy).length).toBeLessThan(backlog.length);
    await expect.poll(() => made.posts(busy).length, { timeout: 15_000 }).toBe(backlog.length);
    const told = new Set(made.posts(busy).map((call) => /inv\d+/.exec(String(call.body.text))?.[0]));
    expect(told.size).toBe(backlog.length);
  }, 20_000);
});

describe("a long history to read", () => {
  it("never starves posting: a turn past its share still posts what it owes", async () => {
    const made = await started({ turnMs: 50, pageSize: 10 });
    const channel = await subscribe(made, "TLONG");
    const history = made.history("TLONG");
    // Two thousand invoices from before the subscription (noted, never posted), read slowly.
    for (let i = 0; i < 2000; i += 1) history.add("payed", `old${i}`, 3600);
    history.delayMs = 30;
    run(made);
    await expect.poll(() => history.reads).toBeGreaterThan(0);
    const id = history.add("payed");
    expect(await postedWithin(made, channel, id, Date.now(), 2000)).toBeLessThan(2000);
    expect(made.posts(channel).length).toBe(1);
  });
});

describe("one invoice the service cannot look up", () => {
  it("waits on its own while later payments are posted, and is given up after a day with one note", async () => {
    let offsetMs = 0;
    const made = await started({}, () => new Date(Date.now() + offsetMs));
    const channel = await subscribe(made, "TPOISON");
    const history = made.history("TPOISON");
    const bad = history.add("payed");
    made.unreadable.add(bad);
    const runner = run(made);
    await expect.poll(() => made.lines.some((line) => line.outcome === "feed_read_failed")).toBe(true);
    const good = history.add("payed");
    await postedWithin(made, channel, good, Date.now(), INTERVAL + 2000);
    expect(made.posts(channel, bad)).toHaveLength(0);
    const notes = () => made.posts("U0ADMIN");
    expect(notes()).toHaveLength(0);
    offsetMs = 25 * 3600 * 1000;
    await expect.poll(notes, { timeout: 3000 }).toHaveLength(1);
    expect(String(notes()[0]?.body.text)).toContain(`gave up posting invoice ${bad}`);
    await runner.passNow();
    await runner.passNow();
    expect(notes()).toHaveLength(1);
    expect(made.posts(channel, bad)).toHaveLength(0);
  });
});

describe("a payment service that flaps", () => {
  it("says paused once, and running again once, after the history reads well a few times in a row", async () => {
    const made = await started();
    await subscribe(made, "TFLAP");
    const history = made.history("TFLAP");
    const notes = () => made.posts("U0ADMIN").map((call) => String(call.body.text));
    history.flapping = true;
    const runner = run(made);
    await expect.poll(() => history.reads, { timeout: 5000 }).toBeGreaterThan(12);
    history.flapping = false;
    expect(notes().filter((text) => text.includes("is paused"))).toHaveLength(1);
    expect(notes().filter((text) => text.includes("running again"))).toHaveLength(0);
    history.fault = null;
    await expect.poll(() => notes().filter((text) => text.includes("running again")).length).toBe(1);
    // Flapping again within the hour: quiet (it already said so), and quiet when it comes back.
    history.fault = new Error("HTTP 502");
    for (let pass = 0; pass < 3; pass += 1) await runner.passNow();
    history.fault = null;
    for (let pass = 0; pass < 6; pass += 1) await runner.passNow();
    expect(notes()).toHaveLength(2);
  });
});

describe("an invoice deep in the history", () => {
  it("is posted when paid with nothing newer above it, its window read a share per interval behind people's calls, one page once nothing is open", async () => {
    const made = await started({ pageSize: 10, maxPages: 3 });
    const channel = await subscribe(made, "TDEEP");
    const history = made.history("TDEEP");
    // An unpaid invoice made 30 minutes ago (its page open another 30), under 120 paid since: page 13.
    const deep = history.add("notpayed", "deep", 1800);
    for (let i = 0; i < 120; i += 1) history.add("payed", `paid${i}`, 1700 - i);
    run(made);
    // The first reads note the whole history (nothing of it is news: all from before subscribing).
    await expect.poll(() => history.reads, { timeout: 5000 }).toBeGreaterThan(13);
    await sleep(3 * INTERVAL);
    expect(made.posts(channel)).toHaveLength(0);
    // While it is open, the turns read on towards it, at most a share each interval, not without pause.
    const openFrom = history.reads;
    await sleep(10 * INTERVAL);
    expect(history.reads - openFrom).toBeLessThanOrEqual(11 * 4);
    // Those pages are nobody's question: they yield to people's calls; the newest page does not.
    const sweep = history.log.slice(openFrom);
    expect(sweep.filter((read) => read.page === 1).every((read) => read.priority === "command")).toBe(true);
    expect(sweep.some((read) => read.page > 1 && read.priority === "background")).toBe(true);
    history.set(deep, "payed");
    await postedWithin(made, channel, deep, Date.now(), 30 * INTERVAL);
    expect(made.posts(channel)).toHaveLength(1);
    // Nothing may change any more: a turn reads the newest page only.
    await sleep(3 * INTERVAL);
    const settledFrom = history.reads;
    await sleep(10 * INTERVAL);
    expect(history.reads - settledFrom).toBeLessThanOrEqual(12);
    expect(made.posts(channel)).toHaveLength(1);
  });
});

describe("a channel unsubscribed while a turn reads", () => {
  it("gets nothing more from that turn: it stops before posting there", async () => {
    const made = await started();
    const channel = await subscribe(made, "TGONE");
    const history = made.history("TGONE");
    const id = history.add();
    const runner = run(made);
    await expect.poll(() => history.reads).toBeGreaterThan(1);
    // The next read is slow; the payment is in it, and the channel is unsubscribed meanwhile.
    history.delayMs = 400;
    history.set(id, "payed");
    const reads = history.reads;
    await expect.poll(() => history.reads, { interval: 5 }).toBeGreaterThan(reads);
    expect(await made.feeds.unsubscribe("TGONE", channel)).toBe(true);
    // The slow turn under way ends within this pass (which waits for it), and one more after it.
    await runner.passNow();
    expect(made.posts(channel)).toHaveLength(0);
    expect(made.lines.some((line) => line.outcome === "feed_unsubscribed")).toBe(true);
  });
});
