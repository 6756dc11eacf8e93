/**
 * The feed's turns between replicas and callbacks, on a real SQLite store and the Slack stand-in: a
 * change told during a read, two replicas on one store repeating nothing, a stalled turn's claim
 * taken over.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { INTERVAL, run, started, stopAfterEach, subscribe } from "../support/feed-runs.js";

stopAfterEach();

describe("a change told while the history is being read", () => {
  it("reads once more after the read under way, never two at once", async () => {
    const made = await started({ intervalMs: 60_000 });
    await subscribe(made, "TSOON");
    const history = made.history("TSOON");
    const runner = run(made);
    await expect.poll(() => history.reads).toBe(1);
    history.hold = true;
    runner.checkSoon("TSOON");
    await expect.poll(() => history.held.length).toBe(1);
    runner.checkSoon("TSOON");
    runner.checkSoon("TSOON");
    await sleep(100);
    expect(history.reads).toBe(2);
    history.hold = false;
    history.held[0]?.release();
    await expect.poll(() => history.reads).toBe(3);
    // Nothing more is owed: no fourth read comes by itself (the interval is a minute).
    await sleep(100);
    expect(history.reads).toBe(3);
  });
});

describe("two replicas on one store", () => {
  it("post each payment once, taking workspaces in turns", async () => {
    const made = await started({ turnMs: 200 });
    const teams = Array.from({ length: 10 }, (_, i) => `TREP${i}`);
    for (const team of teams) await subscribe(made, team);
    const replicas = [run(made), run(made)];
    for (const replica of replicas) await replica.passNow();
    const paid: Array<{ team: string; id: string }> = [];
    for (let round = 0; round < 5; round += 1) {
      for (const team of teams) paid.push({ team, id: made.history(team).add("payed") });
      await sleep(INTERVAL / 2);
    }
    for (const { team, id } of paid)
      await expect.poll(() => made.posts(`C${team}`, id).length, { timeout: 5000 }).toBe(1);
    for (const replica of [...replicas, ...replicas]) await replica.passNow();
    for (const { team, id } of paid) expect(made.posts(`C${team}`, id)).toHaveLength(1);
  }, 20_000);

  it("a turn whose claim another replica took stops at its next write, and nothing is posted twice", async () => {
    const made = await started({ leaseMs: 1000 });
    const channel = await subscribe(made, "TSTALL");
    const history = made.history("TSTALL");
    // The first replica's read stalls; the second replica's clock runs past the claim's lease.
    history.hold = true;
    run(made);
    await expect.poll(() => history.held.length).toBe(1);
    const ids = [history.add("payed"), history.add("payed")];
    history.hold = false;
    const ahead = run(made, {}, () => new Date(Date.now() + 5000));
    await expect.poll(() => made.posts(channel).length).toBe(2);
    history.held[0]?.release();
    await expect.poll(() => made.lines.some((line) => line.outcome === "feed_claim_lost")).toBe(true);
    await ahead.passNow();
    await ahead.passNow();
    for (const id of ids) expect(made.posts(channel, id)).toHaveLength(1);
  });
});
