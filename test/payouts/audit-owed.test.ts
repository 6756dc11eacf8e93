/**
 * A payout approval and its audit entry are one (issue 49 item 3): the store failing between the
 * approval's write and the entry's append, or the process dying there, still gives the trail the
 * approval's entry once, in order, after the background drain (src/audit/owed.ts), against the
 * sandbox over HTTP, in memory and on SQLite.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditInput } from "../../src/audit/index.js";
import { OwedAuditRunner } from "../../src/audit/owed.js";
import { AuditTrail } from "../../src/audit/trail.js";
import { PayoutPolicies } from "../../src/payouts/policy-store.js";
import type { PayoutDeps } from "../../src/payouts/request-deps.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import { ManualClock } from "../support/manual-clock.js";
import { memoryAuditEngine } from "../support/memory-audit-engine.js";
import {
  ALICE,
  ASK,
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  POLICY,
  removeSqliteDir,
  TIMING,
} from "./payout-world.js";

afterAll(removeSqliteDir);

describe.each(ENGINES)("a payout approval's audit entry on $name", (engine) => {
  let world: PayoutWorld;
  let trail: AuditTrail;
  /** Whether the trail's store "fails" now, and whether appends are skipped (the process "died"). */
  const store = { failing: false, appends: 0 };
  let deps: PayoutDeps;
  let runner: OwedAuditRunner;

  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
    trail = new AuditTrail(memoryAuditEngine(), { retentionDays: 30 });
    store.failing = false;
    store.appends = 0;
    const audit = {
      record: async (input: AuditInput) => {
        if (store.failing) throw new Error("the store did not answer");
        store.appends += 1;
        return trail.record(input);
      },
    };
    deps = { ...world.deps, audit };
    runner = new OwedAuditRunner(
      { board: deps.board, audit, logger: deps.logger },
      { intervalMs: 30_000, clock: new ManualClock(NOW) },
    );
  });
  afterEach(async () => {
    await runner.close();
    await world.close();
  });

  const trailOf = async (team: string) =>
    (await trail.list(team, { limit: 50 })).entries
      .map((listed) => `${listed.entry?.action} ${listed.entry?.outcome} ${listed.entry?.object}`)
      .reverse();

  it("is appended once, after the request's and before the submit's, though the store failed at the approval", async () => {
    const requested = await requestPayout(deps, { ...ASK, registerKey: world.registerKey }, NOW);
    if (requested.kind !== "requested") throw new Error(`not requested: ${requested.kind}`);
    const { id, team } = requested.request;
    store.failing = true;
    // The approval stands: the approver is told, the worker sends it.
    expect(await approve(deps, id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    expect((await readRequest(deps.board, id))?.request.status).toBe("approved");
    expect(await trailOf(team)).toEqual([`payout.requested done payout ${id}`]);
    expect(world.logs.at(-1)).toMatchObject({ level: "error", msg: expect.stringMatching(/stay owed/) });
    store.failing = false;
    await runner.passNow();
    await runner.passNow();
    await runDuePayouts(deps, new Date(NOW.getTime() + 1000));
    expect(await trailOf(team)).toEqual([
      `payout.requested done payout ${id}`,
      `payout.approved done payout ${id}`,
      `payout.submitted done payout ${id}`,
    ]);
    expect(await trail.verify(team)).toMatchObject({ ok: true, count: 3 });
  });

  it("is appended once by the drain when the process died between the approval and its append", async () => {
    const requested = await requestPayout(deps, { ...ASK, registerKey: world.registerKey }, NOW);
    if (requested.kind !== "requested") throw new Error(`not requested: ${requested.kind}`);
    const { id, team } = requested.request;
    // The approval's own write lands with its entry owed; the append after it never runs.
    const dying = { ...deps, audit: { record: () => new Promise<never>(() => undefined) } };
    const approval = approve(dying, id, ALICE, NOW);
    for (let n = 0; n < 50 && (await readRequest(deps.board, id))?.request.status !== "approved"; n++)
      await new Promise((resolve) => setImmediate(resolve));
    expect((await readRequest(deps.board, id))?.request.status).toBe("approved");
    void approval;
    // A new process (another board object: the dead one's drain is not this one's) drains at start.
    const restarted = new OwedAuditRunner(
      { board: { ...deps.board }, audit: deps.audit, logger: deps.logger },
      { intervalMs: 30_000, clock: new ManualClock(NOW.getTime() + 120_000) },
    );
    await restarted.passNow();
    await restarted.passNow();
    await restarted.close();
    expect(await trailOf(team)).toEqual([
      `payout.requested done payout ${id}`,
      `payout.approved done payout ${id}`,
    ]);
  });

  it("writes a policy change's entry with its save: once, after the store failed at its append", async () => {
    const policies = new PayoutPolicies(async () => deps.board);
    store.failing = true;
    const audit = { audit: deps.audit, logger: deps.logger };
    const saved = await policies.save(
      world.registerKey,
      { ...POLICY, twoApproversFrom: "3000" },
      {
        by: ALICE,
        now: NOW,
        audit,
      },
    );
    expect(saved).toMatchObject({ kind: "saved", policy: { twoApproversFrom: "3000" } });
    expect(await trailOf(world.registerKey)).toEqual([]);
    store.failing = false;
    await runner.passNow();
    await runner.passNow();
    const [entry] = (await trail.list(world.registerKey, {})).entries;
    expect(entry?.entry).toMatchObject({
      actor: ALICE,
      action: "payout.policy_changed",
      object: "payout policy main",
      before: { twoApproversFrom: "5000" },
      after: { twoApproversFrom: "3000" },
    });
    expect(await trailOf(world.registerKey)).toHaveLength(1);
  });
});
