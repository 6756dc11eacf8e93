/**
 * A payout's claim and its register's queue (issue 49, item 5): a submit waiting for its turn in the
 * register's queue past its worker's lease is never sent once another replica holds the request (the
 * claim is checked again when the turn comes), so the service gets one submit call. The lease is
 * sized to cover the longest queue wait and the call's deadlines. Against the sandbox over HTTP, each
 * replica with its own client and queue (one call at a time per register), in memory and on SQLite.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { payoutTimingFor } from "../../src/payouts/request-deps.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import {
  ALICE,
  ENGINES,
  later,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const TIMING = { leaseMs: 5_000, graceMs: 6_000, followMs: 5_000, retryMs: 1_000, keepMs: 86_400_000 };
/** How long the call ahead of the submit in the register's queue takes (the sandbox's `slow`). */
const AHEAD_MS = 600;

describe.each(ENGINES)("a payout's submit waiting in its register's queue on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING, "v3", {
      queue: { concurrency: 1, ratePerSecond: 0, maxWaitMs: 30_000 },
      slowMs: AHEAD_MS,
    });
  });
  afterEach(async () => {
    await world.close();
  });

  const submitCalls = () => world.fake.requests.filter((call) => call.path.endsWith("/payoff/submit/"));

  it("is not sent once its lease ran out and another replica sent it: one submit call", async () => {
    const ask = {
      registerKey: world.registerKey,
      requester: REQUESTER,
      amount: "1500",
      method: "CARDRUBP2P",
      wallet: WALLET,
      subtractFrom: "balance" as const,
      reason: "Supplier invoice 42",
      reference: "",
    };
    const made = await requestPayout(world.deps, ask, NOW);
    if (made.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(made)}`);
    const { id } = made.request;
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    const account = await world.deps.account(world.registerKey);
    if (!account) throw new Error("no account");
    // Replica one's payoff/info is answered; a slow call of its own takes the register's one place
    // first, so its submit waits in the queue behind it.
    let ahead: Promise<unknown> | undefined;
    world.fake.payoffs.afterCall = (call) => {
      if (call !== "info" || ahead) return;
      world.fake.payoffs.faults.create = "slow";
      ahead = world.deps.payments.createPayoff(account, { ...ask, amount: "10" }).catch(() => undefined);
    };
    const first = runDuePayouts(world.deps, later(1_000));
    const creates = () => world.fake.requests.filter((call) => call.path.endsWith("/payoff/create/"));
    await expect.poll(() => creates().length).toBe(2);
    world.fake.payoffs.afterCall = null;
    // Meanwhile replica one's lease runs out; replica two claims the request, finds it submitting, the
    // payout still created past the grace, and sends it itself.
    expect(await runDuePayouts(world.other, later(1_000 + 60_000))).toEqual([{ id, status: "submitted" }]);
    expect(submitCalls()).toHaveLength(1);
    // Replica one's turn comes: its claim is gone, so its submit is withdrawn, never sent.
    await first;
    await ahead;
    expect(submitCalls()).toHaveLength(1);
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect((await readRequest(world.deps.board, id))?.request.status).toBe("submitted");
    expect(
      world.logs.some((line) => String(line.msg).includes("claim ran out while its submit waited")),
    ).toBe(true);
  });
});

describe("payout timing", () => {
  it("keeps a claim past the longest wait in the register's queue and the submit's deadlines", () => {
    expect(payoutTimingFor(8000, 10_000)).toEqual({ leaseMs: 60_000, graceMs: 120_000 });
    expect(payoutTimingFor(8000, 120_000)).toEqual({ leaseMs: 152_000, graceMs: 168_000 });
    expect(payoutTimingFor(40_000, 0)).toEqual({ leaseMs: 160_000, graceMs: 240_000 });
  });
});
