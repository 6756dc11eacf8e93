/**
 * The re-read before the submit compares what the approvers saw: the fee, what arrives and what
 * leaves the balance as well as the amount, method and wallet (issue 49, item 5). A difference ends
 * the request as changed, naming the terms; a figure the service's answer leaves out is not compared.
 * Against the sandbox over HTTP, in memory and on SQLite, both API versions.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { payoutCardMessage } from "../../src/blocks/payout-card.js";
import type { PayoutNotice } from "../../src/payouts/notice-model.js";
import { type PayoutRequest, readRequest } from "../../src/payouts/request-model.js";
import { type PayoutAsk, requestPayout } from "../../src/payouts/requests.js";
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
  TIMING,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const NOTICE: PayoutNotice = {
  v: 1,
  channel: "C0PAY1",
  requester: REQUESTER,
  register: "main",
  several: false,
  lang: "en",
  balance: null,
  today: { total: "0", cap: "10000" },
  told: [],
};

const cases = ENGINES.flatMap((engine) =>
  (["v2", "v3"] as const).map((version) => ({ engine, version, name: `${engine.name} ${version}` })),
);

describe.each(cases)("the terms compared before a submit on $name", ({ engine, version }) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING, version);
  });
  afterEach(async () => {
    await world.close();
  });

  async function approved(subtractFrom: "balance" | "amount"): Promise<PayoutRequest> {
    const ask: PayoutAsk = {
      registerKey: world.registerKey,
      requester: REQUESTER,
      amount: "1500",
      method: "CARDRUBP2P",
      wallet: WALLET,
      subtractFrom,
      reason: "Supplier invoice 42",
      reference: "",
    };
    const result = await requestPayout(world.deps, ask, NOW);
    if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
    expect(await approve(world.deps, result.request.id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    return result.request;
  }

  it("does not send a payout whose fee was raised at the service: changed, naming the fee and what arrives", async () => {
    const { id } = await approved("amount");
    world.fake.payoffs.alter(id, { commission: "99.99" });
    expect(await runDuePayouts(world.deps, later(1000))).toEqual([{ id, status: "changed" }]);
    const request = (await readRequest(world.deps.board, id))?.request;
    expect(request).toMatchObject({ changed: ["fee", "receives"], serviceCancel: "done" });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(world.fake.payoffs.all.get(id)?.state).toBe("canceled");
    const ended = world.audit.filter((entry) => entry.action === "payout.ended");
    expect(ended).toMatchObject([{ outcome: "failed", reason: "changed at the service: fee, receives" }]);
    const card = JSON.stringify(
      payoutCardMessage(request as PayoutRequest, NOTICE, "approvers", "en").blocks,
    );
    expect(card).toContain("the fee, what the recipient gets");
  });

  it("does not send one whose fee on top was raised: changed, naming the fee and what leaves the balance", async () => {
    const { id } = await approved("balance");
    world.fake.payoffs.alter(id, { commission: "99.99" });
    await runDuePayouts(world.deps, later(1000));
    expect((await readRequest(world.deps.board, id))?.request.changed).toEqual(["fee", "leavesBalance"]);
    expect(world.fake.payoffs.submits).toEqual([]);
  });

  it("sends one whose info answer leaves the fee figures out: compared on what it gives, never refused for them", async () => {
    const { id } = await approved("balance");
    world.fake.payoffs.infoLeavesOut =
      version === "v3"
        ? ["commission_amount", "receive_amount", "deduction_amount"]
        : ["commission", "receive_amount", "deduction_amount"];
    expect(await runDuePayouts(world.deps, later(1000))).toEqual([{ id, status: "submitted" }]);
    expect(world.fake.payoffs.submits).toEqual([id]);
  });
});
