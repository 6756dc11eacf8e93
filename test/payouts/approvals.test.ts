/**
 * Votes and the one submit (src/payouts/votes.ts, submit.ts, worker.ts) against the sandbox over
 * HTTP, in memory and on SQLite (the family's engines, test/support/engines.ts); two boards on two
 * connections to one store are two replicas.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PayoutRequest, readRequest, swapRequest } from "../../src/payouts/request-model.js";
import { type PayoutAsk, requestPayout } from "../../src/payouts/requests.js";
import { submitApproved } from "../../src/payouts/submit.js";
import { approve, cancel, reject } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import {
  ALICE,
  ASK,
  BOB,
  CAROL,
  ENGINES,
  later,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
  TIMING,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

describe.each(ENGINES)("payout approvals on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
  });
  afterEach(async () => {
    await world.close();
  });

  async function requested(fields: Partial<PayoutAsk> = {}): Promise<PayoutRequest> {
    const result = await requestPayout(
      world.deps,
      { ...ASK, registerKey: world.registerKey, ...fields },
      NOW,
    );
    if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
    return result.request;
  }
  const statusOf = async (id: string) => (await readRequest(world.deps.board, id))?.request.status;
  const serviceState = (id: string) => world.fake.payoffs.all.get(id)?.state;
  const acts = (action: string) => world.audit.filter((entry) => entry.action === action);

  it("asks the approvals the policy asks for now: a threshold lowered below a waiting request's amount needs a second", async () => {
    const { id, needed } = await requested();
    expect(needed).toBe(1);
    await world.setPolicy({ twoApproversFrom: "1000" });
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({
      kind: "approval_noted",
      votes: 1,
      needed: 2,
    });
    expect(await statusOf(id)).toBe("waiting");
    expect(await approve(world.deps, id, BOB, NOW)).toMatchObject({ kind: "approved" });
  });

  it("sends no approved request that the lowered threshold now asks a second approval of: back to waiting, then sent once", async () => {
    const { id } = await requested();
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    await world.setPolicy({ twoApproversFrom: "1000" });
    await runDuePayouts(world.deps, later(1000));
    const read = await readRequest(world.deps.board, id);
    expect(read?.request).toMatchObject({ status: "waiting", needed: 2, votes: [{ by: ALICE }] });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(serviceState(id)).toBe("created");
    expect(acts("payout.reopened")).toMatchObject([
      { actor: "kassa", outcome: "done", after: { needed: 2 } },
    ]);
    expect(await approve(world.deps, id, BOB, later(2000))).toMatchObject({ kind: "approved" });
    await runDuePayouts(world.deps, later(3000));
    await runDuePayouts(world.deps, later(4000));
    expect(world.fake.payoffs.submits).toEqual([id]);
  });

  it("refuses a self-approval, a non-approver and a person removed from the policy, each saying why", async () => {
    const own = await requested({ requester: ALICE });
    expect(await approve(world.deps, own.id, ALICE, NOW)).toMatchObject({ refusal: { kind: "own_request" } });
    const { id } = await requested();
    expect(await approve(world.deps, id, "U0ZZZ9", NOW)).toMatchObject({
      refusal: { kind: "not_an_approver", approvers: [ALICE, BOB, CAROL] },
    });
    await world.setPolicy({ approvers: [ALICE, CAROL] });
    expect(await approve(world.deps, id, BOB, NOW)).toMatchObject({ refusal: { kind: "not_an_approver" } });
    expect(await approve(world.deps, "810000999_tampered", ALICE, NOW)).toEqual({
      kind: "refused",
      refusal: { kind: "not_found" },
    });
    expect(await statusOf(id)).toBe("waiting");
    expect(acts("payout.approved").map((entry) => [entry.outcome, entry.reason])).toEqual([
      ["refused", "own_request"],
      ["refused", "not_an_approver"],
      ["refused", "not_an_approver"],
    ]);
    await runDuePayouts(world.deps, later(1000));
    expect(world.fake.payoffs.submits).toEqual([]);
  });

  it("needs two different approvers above the threshold, then submits once", async () => {
    const { id, needed } = await requested({ amount: "6000" });
    expect(needed).toBe(2);
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({
      kind: "approval_noted",
      votes: 1,
      needed: 2,
    });
    expect(await approve(world.deps, id, ALICE, later(1))).toMatchObject({
      refusal: { kind: "already_voted", at: NOW.toISOString() },
    });
    expect(await runDuePayouts(world.deps, later(2))).toEqual([]);
    expect(await approve(world.deps, id, BOB, later(3))).toMatchObject({ kind: "approved" });
    expect(await runDuePayouts(world.deps, later(4))).toEqual([{ id, status: "submitted" }]);
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect(serviceState(id)).toBe("processing");
    expect(await approve(world.deps, id, CAROL, later(5))).toMatchObject({
      refusal: { kind: "closed", status: "submitted", by: BOB, at: later(3).toISOString() },
    });
  });

  it("two approvers clicking at the same moment on two replicas: one outcome, one submit", async () => {
    const { id } = await requested();
    const votes = await Promise.all([
      approve(world.deps, id, ALICE, NOW),
      approve(world.other, id, BOB, NOW),
    ]);
    expect(votes.map((vote) => vote.kind).sort()).toEqual(["approved", "refused"]);
    const refused = votes.find((vote) => vote.kind === "refused");
    expect(refused).toMatchObject({ refusal: { kind: "closed", status: "approved" } });
    const runs = await Promise.all([
      runDuePayouts(world.deps, later(1)),
      runDuePayouts(world.other, later(1)),
    ]);
    expect(runs.flat()).toEqual([{ id, status: "submitted" }]);
    // Later runs on both replicas never send it again.
    await Promise.all([runDuePayouts(world.deps, later(60_000)), runDuePayouts(world.other, later(60_000))]);
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect(acts("payout.submitted")).toHaveLength(1);
  });

  it("two votes of a two-approver request at once both count", async () => {
    const { id } = await requested({ amount: "6000" });
    await Promise.all([approve(world.deps, id, ALICE, NOW), approve(world.other, id, BOB, NOW)]);
    expect((await readRequest(world.deps.board, id))?.request).toMatchObject({ status: "approved" });
  });

  it("counts a vote only while its giver is still an approver", async () => {
    const { id } = await requested({ amount: "6000" });
    await approve(world.deps, id, ALICE, NOW);
    await world.setPolicy({ approvers: [BOB, CAROL] });
    expect(await approve(world.deps, id, BOB, later(1))).toMatchObject({ kind: "approval_noted", votes: 1 });
    expect(await approve(world.deps, id, CAROL, later(2))).toMatchObject({
      kind: "approved",
      request: { votes: [{ by: BOB }, { by: CAROL }] },
    });
  });

  it("a submit the service refuses ends refused, in the service's words, never sent again", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    world.fund("CARDRUBP2P", "10");
    expect(await runDuePayouts(world.deps, later(1))).toEqual([{ id, status: "refused" }]);
    expect((await readRequest(world.deps.board, id))?.request).toMatchObject({
      refusal: ["Insufficient funds on the balance"],
      serviceCancel: "done",
    });
    world.fund("CARDRUBP2P", "100000");
    await runDuePayouts(world.deps, later(TIMING.graceMs * 2));
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(acts("payout.submitted")).toMatchObject([
      { outcome: "failed", reason: "Insufficient funds on the balance" },
    ]);
  });

  it("payouts switched off after the approval: nothing is sent, the request is stopped at once", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    await world.setPolicy({ enabled: false });
    expect(await runDuePayouts(world.deps, later(1))).toEqual([{ id, status: "stopped" }]);
    expect((await readRequest(world.deps.board, id))?.request.stop).toMatchObject({ why: "payouts_off" });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(serviceState(id)).toBe("canceled");
  });

  it("a cancel landing between the worker's claim and its mark wins: nothing is sent", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    const [claim] = await world.deps.board.claimDue("payout", later(1).getTime(), TIMING.leaseMs, 10);
    const read = await readRequest(world.deps.board, id);
    const account = await world.deps.account(world.registerKey);
    if (!claim || !read || !account) throw new Error("nothing to claim");
    expect(await cancel(world.other, id, REQUESTER, later(2))).toMatchObject({ kind: "cancelled" });
    const clock = () => later(3).getTime();
    expect(await submitApproved(world.deps, claim, read, account, clock)).toEqual({
      dueAt: later(3).getTime(),
    });
    expect(await statusOf(id)).toBe("cancelled");
    expect(world.fake.payoffs.submits).toEqual([]);
  });

  it("works the same on an API v2 register (whose quote names no wallet)", async () => {
    const v2 = await openPayoutWorld(engine, TIMING, "v2");
    try {
      const asked = await requestPayout(v2.deps, { ...ASK, registerKey: v2.registerKey }, NOW);
      if (asked.kind !== "requested") throw new Error("not requested");
      const { id } = asked.request;
      expect(asked.request).toMatchObject({
        wallet: WALLET,
        amount: "1500",
        fee: "15",
        leavesBalance: "1515",
      });
      await approve(v2.deps, id, BOB, NOW);
      expect(await runDuePayouts(v2.deps, later(1))).toEqual([{ id, status: "submitted" }]);
      expect(v2.fake.payoffs.submits).toEqual([id]);
    } finally {
      await v2.close();
    }
  });

  /** A worker that marked the request "submitting" with its claim's token, then died (its claim lapses). */
  async function diedWhileSubmitting(id: string): Promise<void> {
    const [claim] = await world.deps.board.claimDue("payout", later(1).getTime(), TIMING.leaseMs, 10);
    const read = await readRequest(world.deps.board, id);
    if (!claim || !read) throw new Error("nothing to claim");
    const attempt = { token: claim.token, at: later(1).toISOString() };
    expect(
      await swapRequest(world.deps.board, read, { ...read.request, status: "submitting", attempt }),
    ).toBeTruthy();
  }

  it("a worker killed after its send, before recording it: the next one reads the service, never sends again", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    await diedWhileSubmitting(id);
    const account = await world.deps.account(world.registerKey);
    if (!account) throw new Error("no account");
    await world.deps.payments.submitPayoff(account, id);
    expect(await runDuePayouts(world.other, later(2))).toEqual([]); // its lease still holds
    expect(await runDuePayouts(world.other, later(TIMING.leaseMs + 2))).toEqual([
      { id, status: "submitted" },
    ]);
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect(acts("payout.submitted")).toMatchObject([{ after: { how: "read back" } }]);
  });

  it("a worker killed before its send: sent once by the next, only after the grace", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    await diedWhileSubmitting(id);
    expect(await runDuePayouts(world.other, later(TIMING.leaseMs + 2))).toEqual([
      { id, status: "submitting" },
    ]);
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(await runDuePayouts(world.other, later(TIMING.graceMs + 1))).toEqual([
      { id, status: "submitted" },
    ]);
    expect(await runDuePayouts(world.deps, later(TIMING.graceMs + TIMING.leaseMs + 10))).toEqual([
      { id, status: "submitted" },
    ]);
    expect(world.fake.payoffs.submits).toEqual([id]);
  });

  it("the submit's answer lost: not sent again, the outcome read from payoff/info", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    world.fake.payoffs.faults.submit = "lostAnswer";
    expect(await runDuePayouts(world.deps, later(1))).toEqual([{ id, status: "submitted" }]);
    await runDuePayouts(world.other, later(TIMING.graceMs * 3));
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect(world.fake.requests.filter((request) => request.path.endsWith("/payoff/submit/"))).toHaveLength(1);
  });

  it("a rejection needs a reason, cancels at the service and answers later clicks", async () => {
    const { id } = await requested();
    expect(await reject(world.deps, id, BOB, "  ", NOW)).toMatchObject({
      refusal: { kind: "reason_required" },
    });
    expect(await reject(world.deps, id, BOB, "Wrong supplier", NOW)).toMatchObject({
      kind: "rejected",
      request: {
        status: "rejected",
        rejection: { by: BOB, reason: "Wrong supplier" },
        serviceCancel: "done",
      },
    });
    expect(serviceState(id)).toBe("canceled");
    expect(await approve(world.deps, id, ALICE, later(1))).toMatchObject({
      refusal: { kind: "closed", status: "rejected", by: BOB, at: NOW.toISOString() },
    });
    await runDuePayouts(world.deps, later(60_000));
    expect(world.fake.payoffs.submits).toEqual([]);
  });

  it("the requester cancels, even once approved before the worker; no one else may", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    expect(await cancel(world.deps, id, BOB, NOW)).toMatchObject({
      refusal: { kind: "not_the_requester", requester: REQUESTER },
    });
    expect(await cancel(world.deps, id, REQUESTER, NOW)).toMatchObject({ kind: "cancelled" });
    expect(serviceState(id)).toBe("canceled");
    expect(await runDuePayouts(world.deps, later(1))).toEqual([{ id, status: "cancelled" }]);
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(acts("payout.cancelled")).toMatchObject([
      { actor: BOB, outcome: "refused", reason: "not_the_requester" },
      { actor: REQUESTER, outcome: "done" },
    ]);
  });

  it("a request not approved in time expires and is cancelled at the service", async () => {
    const { id, expiresAt } = await requested();
    expect(await runDuePayouts(world.deps, later(1000))).toEqual([]);
    const expiry = new Date(expiresAt);
    expect(await approve(world.deps, id, ALICE, expiry)).toMatchObject({ refusal: { kind: "expired" } });
    expect(await runDuePayouts(world.deps, expiry)).toEqual([{ id, status: "expired" }]);
    expect(serviceState(id)).toBe("canceled");
    expect(acts("payout.cancelled")).toMatchObject([{ actor: "kassa", reason: "expired" }]);
    expect(await cancel(world.deps, id, REQUESTER, expiry)).toMatchObject({
      refusal: { kind: "closed", status: "expired", by: "kassa" },
    });
  });

  it("a payout changed at the service is not submitted, and says what changed", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    world.fake.payoffs.alter(id, { amount: "2000" });
    expect(await runDuePayouts(world.deps, later(1))).toEqual([{ id, status: "changed" }]);
    // The fee (a percent of it), what arrives and what leaves the balance moved with the amount.
    expect((await readRequest(world.deps.board, id))?.request).toMatchObject({
      changed: ["amount", "fee", "receives", "leavesBalance"],
      serviceCancel: "done",
    });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(serviceState(id)).toBe("canceled");
    expect(acts("payout.ended")).toMatchObject([
      { outcome: "failed", reason: "changed at the service: amount, fee, receives, leavesBalance" },
    ]);
  });

  it("follows a submitted payout to its end, told once across replicas, then forgets it", async () => {
    const { id } = await requested();
    await approve(world.deps, id, ALICE, NOW);
    await runDuePayouts(world.deps, later(1));
    expect(await runDuePayouts(world.deps, later(TIMING.followMs + 1000))).toEqual([
      { id, status: "submitted" },
    ]);
    world.fake.payoffs.finish(id, "failed", "Card blocked");
    const at = later(3 * TIMING.followMs);
    const runs = await Promise.all([runDuePayouts(world.deps, at), runDuePayouts(world.other, at)]);
    expect(runs.flat()).toEqual([{ id, status: "ended" }]);
    await Promise.all([runDuePayouts(world.deps, later(60_000)), runDuePayouts(world.other, later(60_000))]);
    expect(acts("payout.ended")).toMatchObject([{ outcome: "failed", reason: "Card blocked" }]);
    expect((await readRequest(world.deps.board, id))?.request.service).toMatchObject({ state: "failed" });
    expect(await runDuePayouts(world.deps, new Date(at.getTime() + TIMING.keepMs + 5000))).toEqual([
      { id, status: "forgotten" },
    ]);
    expect(await approve(world.deps, id, BOB, later(1))).toMatchObject({ refusal: { kind: "not_found" } });
  });
});
