/**
 * A batch's decisions racing on two replicas (src/payout-batches/decide.ts), over the sandbox and on
 * the family's engines (memory, SQLite; two connections to one store are two replicas): two clicks
 * at once give one outcome, the second told what happened; a click after the end changes nothing;
 * each row is approved once, and the worker sends each once.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { approveBatch, cancelBatch, rejectBatch } from "../../src/payout-batches/decide.js";
import { keptRows } from "../../src/payout-batches/model.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import {
  ALICE,
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
} from "../payouts/payout-world.js";
import { quotedBatch } from "./quoted-batch.js";

afterAll(removeSqliteDir);

describe.each(ENGINES)("a batch's decisions on two replicas, $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
  });
  afterEach(async () => {
    await world.close();
  });

  const batch = () => quotedBatch(world, 3);
  const team = () => world.registerKey.split(":")[0] ?? world.registerKey;

  it("the same approver on two replicas at once: counted once; two approvers at once: approved once", async () => {
    const { id } = await batch();
    const [one, two] = await Promise.all([
      approveBatch(world.deps, id, team(), ALICE, "3/600", NOW),
      approveBatch(world.other, id, team(), ALICE, "3/600", NOW),
    ]);
    expect([one.kind, two.kind].sort()).toEqual(["approval_noted", "refused"]);
    const results = await Promise.all([
      approveBatch(world.deps, id, team(), BOB, "3/600", later(1)),
      approveBatch(world.other, id, team(), CAROL, "3/600", later(1)),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(["approved", "refused"]);
    const approved = results.find((result) => result.kind === "approved");
    if (approved?.kind !== "approved") throw new Error("not approved");
    for (const row of keptRows(approved.batch)) {
      const request = (await readRequest(world.deps.board, row.payout ?? ""))?.request;
      expect(request).toMatchObject({
        status: "approved",
        needed: 2,
        batch: { id, total: "600", trusted: false },
      });
    }
    await Promise.all([runDuePayouts(world.deps, later(10)), runDuePayouts(world.other, later(10))]);
    await runDuePayouts(world.other, later(20));
    expect([...world.fake.payoffs.submits].sort()).toEqual(
      keptRows(approved.batch)
        .map((row) => row.payout)
        .sort(),
    );
    expect(await rejectBatch(world.deps, id, team(), CAROL, "Too late", later(30))).toMatchObject({
      kind: "refused",
      refusal: { kind: "closed", status: "approved" },
    });
  });

  it("an approval and a rejection at once: the rejection lands either way (before it, or as Stop after it); nothing is sent", async () => {
    const { id, rows } = await batch();
    await approveBatch(world.deps, id, team(), ALICE, "3/600", NOW);
    const [approve, reject] = await Promise.all([
      approveBatch(world.deps, id, team(), BOB, "3/600", later(1)),
      rejectBatch(world.other, id, team(), CAROL, "Wrong list", later(1)),
    ]);
    expect(["approved", "refused"]).toContain(approve.kind);
    expect(["rejected", "stopped"]).toContain(reject.kind);
    await runDuePayouts(world.deps, later(100));
    await runDuePayouts(world.other, later(200));
    expect(world.fake.payoffs.submits).toEqual([]);
    for (const row of rows) expect(world.fake.payoffs.all.get(row.payout ?? "")?.state).toBe("canceled");
  });

  it("a batch of another workspace reads as none; its requester's cancel after the end changes nothing", async () => {
    const { id } = await batch();
    expect(await approveBatch(world.deps, id, "T0OTHER", ALICE, "3/600", NOW)).toMatchObject({
      refusal: { kind: "not_found" },
    });
    expect(await cancelBatch(world.deps, id, team(), ALICE, NOW)).toMatchObject({
      refusal: { kind: "not_the_requester" },
    });
    expect(await cancelBatch(world.deps, id, team(), REQUESTER, NOW)).toMatchObject({ kind: "cancelled" });
    expect(await cancelBatch(world.other, id, team(), REQUESTER, later(1))).toMatchObject({
      refusal: { kind: "closed", status: "cancelled", by: REQUESTER },
    });
  });
});
