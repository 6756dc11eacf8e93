/**
 * Trusted recipients (src/payout-recipients) on the payout tests' world: in memory and on SQLite, two
 * boards on one store being two replicas. Confirmations at once on two replicas, the refusals that
 * count nothing, and a payout to a recipient removed while it was approved under the one-approver rule.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { recipientHooks, recipientOf, trustedByWallet } from "../../src/payout-recipients/lookup.js";
import { addRecipient, confirmRecipient, removeRecipient } from "../../src/payout-recipients/recipients.js";
import { PAYOUT_FAMILY, readRequest, swapRequest } from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
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
} from "../payouts/payout-world.js";

afterAll(removeSqliteDir);

describe.each(ENGINES)("trusted payout recipients on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
    world.deps.recipients = recipientHooks(world.deps.board);
    world.other.recipients = recipientHooks(world.other.board);
  });
  afterEach(async () => {
    await world.close();
  });

  const add = async (label = "Acme Ltd", wallet = WALLET) => {
    const ask = {
      registerKey: world.registerKey,
      by: REQUESTER,
      label,
      method: ASK.method,
      wallet,
      note: "",
    };
    return addRecipient(world.deps, ask, NOW);
  };
  const added = async () => {
    const result = await add();
    if (result.kind !== "added") throw new Error(JSON.stringify(result));
    return result.recipient;
  };
  const at = (id: string) => ({ registerKey: world.registerKey, id });
  const acts = (action: string) => world.audit.filter((entry) => entry.action === action);

  it("two approvers confirming at once on two replicas both count: trusted once", async () => {
    const { id } = await added();
    const results = await Promise.all([
      confirmRecipient(world.deps, at(id), ALICE, "5678", NOW),
      confirmRecipient(world.other, at(id), BOB, "5678", NOW),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(["confirmed", "trusted"]);
    const stored = await recipientOf(world.deps, world.registerKey, id);
    expect(stored?.status).toBe("trusted");
    expect(stored?.confirmations.map((one) => one.by).sort()).toEqual([ALICE, BOB].sort());
    expect(acts("recipient.trusted")).toHaveLength(1);
    expect(acts("recipient.confirmed").map((entry) => entry.outcome)).toEqual(["done", "done"]);
    expect((await trustedByWallet(world.deps, world.registerKey, ASK.method.toLowerCase(), WALLET))?.id).toBe(
      id,
    );
  });

  it("counts nothing for a wrong last four, the adder, a second click, or a label taken (case aside)", async () => {
    const { id } = await added();
    expect(await add("ACME ltd", "1111")).toMatchObject({
      kind: "refused",
      refusal: { kind: "label_taken" },
    });
    expect(await add("Other", WALLET)).toMatchObject({ kind: "refused", refusal: { kind: "wallet_known" } });
    expect(await add("12345")).toMatchObject({ refusal: { kind: "invalid", field: "label" } });
    expect(await confirmRecipient(world.deps, at(id), ALICE, "1234", NOW)).toMatchObject({
      refusal: { kind: "wrong_last_four" },
    });
    expect(await confirmRecipient(world.deps, at(id), REQUESTER, "5678", NOW)).toMatchObject({
      refusal: { kind: "own_recipient" },
    });
    expect(await confirmRecipient(world.deps, at(id), CAROL, "5678", NOW)).toMatchObject({
      kind: "confirmed",
    });
    expect(await confirmRecipient(world.deps, at(id), CAROL, "5678", NOW)).toMatchObject({
      refusal: { kind: "already_confirmed" },
    });
    expect((await recipientOf(world.deps, world.registerKey, id))?.confirmations).toHaveLength(1);
    expect(acts("recipient.confirmed").filter((entry) => entry.outcome === "refused")).toHaveLength(3);
  });

  it("a payout under the one-approver rule to a recipient removed before the send needs the second approval", async () => {
    await world.setPolicy({ twoApproversFrom: "1000" });
    const recipient = await added();
    await confirmRecipient(world.deps, at(recipient.id), ALICE, "5678", NOW);
    await confirmRecipient(world.deps, at(recipient.id), BOB, "5678", NOW);
    const asked = await requestPayout(
      world.deps,
      { ...ASK, registerKey: world.registerKey, recipient: { id: recipient.id, label: recipient.label } },
      NOW,
    );
    if (asked.kind !== "requested") throw new Error(JSON.stringify(asked));
    const { id } = asked.request;
    expect(asked.request.recipient).toEqual({ id: recipient.id, label: "Acme Ltd" });
    // Approved by one approver under the rule another part of issue 52 sets (one approver sufficed
    // because it pays a trusted recipient), as that rule leaves it; then the recipient is removed.
    const read = await readRequest(world.deps.board, id);
    if (!read) throw new Error("no request");
    const vote = { by: ALICE, at: NOW.toISOString() };
    const approved = { ...read.request, needed: 1, rule: "trusted_one" as const, votes: [vote] };
    await swapRequest(world.deps.board, read, { ...approved, status: "approved", approvedAt: vote.at });
    expect(await removeRecipient(world.deps, world.registerKey, recipient.id, "U0ADMIN1", NOW)).toMatchObject(
      {
        kind: "removed",
      },
    );
    await world.deps.board.nudge(PAYOUT_FAMILY, id, NOW.getTime());
    await runDuePayouts(world.deps, later(1));
    expect((await readRequest(world.deps.board, id))?.request).toMatchObject({
      status: "waiting",
      needed: 2,
    });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(await approve(world.deps, id, BOB, later(2))).toMatchObject({ kind: "approved" });
    await runDuePayouts(world.deps, later(3));
    expect(world.fake.payoffs.submits).toEqual([id]);
  });
});
