/**
 * Payout requests (src/payouts/requests.ts) against the sandbox over HTTP, in memory and on SQLite
 * (the family's engines, test/support/engines.ts): the policy checked at the moment, the quote, the
 * request stored; refusals store nothing.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DAY_ENTRIES_MAX, DAY_FAMILY, dayKey, ENTRIES_FIELD } from "../../src/payouts/day-totals.js";
import { payoutTimingFor } from "../../src/payouts/request-deps.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { type PayoutAsk, requestPayout } from "../../src/payouts/requests.js";
import { cancel, reject } from "../../src/payouts/votes.js";
import {
  ALICE,
  BOB,
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

describe.each(ENGINES)("payout requests on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine);
  });
  afterEach(async () => {
    await world.close();
  });

  const ask = (fields: Partial<PayoutAsk> = {}): PayoutAsk => ({
    registerKey: world.registerKey,
    requester: REQUESTER,
    amount: "1500.10",
    method: "CARDRUBP2P",
    wallet: WALLET,
    subtractFrom: "balance",
    reason: "Supplier invoice 42",
    reference: "INV-42",
    ...fields,
  });

  it("stores a request: the quote's exact figures, one approval below the threshold, waiting", async () => {
    const result = await requestPayout(world.deps, ask(), NOW);
    expect(result.kind).toBe("requested");
    if (result.kind !== "requested") return;
    const { request } = result;
    expect(request).toMatchObject({
      registerKey: world.registerKey,
      requester: REQUESTER,
      amount: "1500.1",
      fee: "15",
      receives: "1500.1",
      leavesBalance: "1515.1",
      currency: "RUB",
      rubAmount: "1500.1",
      method: "CARDRUBP2P",
      wallet: WALLET,
      subtractFrom: "balance",
      reason: "Supplier invoice 42",
      reference: "INV-42",
      createdAt: NOW.toISOString(),
      expiresAt: "2026-11-26T11:00:00.000Z",
      needed: 1,
      votes: [],
      status: "waiting",
    });
    expect(world.fake.payoffs.all.get(request.id)?.state).toBe("created");
    expect((await readRequest(world.deps.board, request.id))?.request).toEqual(request);
    expect(result.totals).toEqual({ requester: "1500.1", register: "1500.1" });
    expect(world.audit).toMatchObject([
      { action: "payout.requested", actor: REQUESTER, object: `payout ${request.id}`, outcome: "done" },
    ]);
  });

  it("needs two approvals from the threshold in RUB, and for a foreign method by its RUB amount", async () => {
    await world.setPolicy({ requesterDaily: "20000", registerDaily: "20000" });
    const big = await requestPayout(world.deps, ask({ amount: "5000" }), NOW);
    expect(big.kind === "requested" && big.request.needed).toBe(2);
    // 60 USDT at 95.2328 RUB is 5713.97 RUB: above 5000.
    const usdt = await requestPayout(
      world.deps,
      ask({ amount: "60", method: "USDTTRC", wallet: "TXYZ1" }),
      NOW,
    );
    expect(usdt).toMatchObject({ kind: "requested" });
    expect(usdt.kind === "requested" && usdt.request).toMatchObject({
      currency: "USDT",
      rubAmount: "5713.97",
      needed: 2,
    });
  });

  it("refuses as the policy says: off, not a requester, a method not allowed, nothing stored", async () => {
    expect(await requestPayout(world.deps, ask({ requester: BOB }), NOW)).toEqual({
      kind: "refused",
      refusal: { kind: "not_a_requester", requesters: [REQUESTER, ALICE] },
    });
    await world.setPolicy({ methods: ["BITCOIN"] });
    expect(await requestPayout(world.deps, ask(), NOW)).toMatchObject({
      refusal: { kind: "method_not_allowed", methods: ["BITCOIN"] },
    });
    await world.setPolicy({ requesters: [] });
    expect(await requestPayout(world.deps, ask(), NOW)).toMatchObject({
      refusal: { kind: "not_a_requester" },
    });
    await world.setPolicy({ enabled: false });
    expect(await requestPayout(world.deps, ask(), NOW)).toMatchObject({ refusal: { kind: "payouts_off" } });
    expect(world.fake.payoffs.all.size).toBe(0);
    expect(world.audit).toEqual([]);
  });

  it("an admin may request when the policy names no requesters", async () => {
    await world.setPolicy({ requesters: [] });
    world.deps.isAdmin = async (team, user) => team === world.registerKey && user === BOB;
    expect((await requestPayout(world.deps, ask({ requester: BOB }), NOW)).kind).toBe("requested");
  });

  it("a service refusal comes back in the service's words; nothing is stored", async () => {
    const result = await requestPayout(world.deps, ask({ amount: "99" }), NOW);
    expect(result).toEqual({
      kind: "refused",
      refusal: {
        kind: "service_refused",
        reason: "limits",
        messages: ["Amount is less than the minimum payout of 100 RUB for this method"],
      },
    });
    expect(world.audit).toEqual([]);
  });

  it("counts waiting requests against the caps: the requester's, then the register's", async () => {
    world.fund("CARDRUBP2P", "100000");
    expect((await requestPayout(world.deps, ask({ amount: "6000" }), NOW)).kind).toBe("requested");
    const over = await requestPayout(world.deps, ask({ amount: "4000.01" }), NOW);
    expect(over).toEqual({
      kind: "refused",
      refusal: { kind: "cap_reached", cap: "requester", limit: "10000", total: "6000" },
    });
    // The quote made for it is cancelled at the service.
    const quotes = [...world.fake.payoffs.all.values()];
    expect(quotes.map((quote) => quote.state).sort()).toEqual(["canceled", "created"]);
    // Known to be roubles (the method's balance says so): refused before any quote is asked for.
    expect(await requestPayout(world.deps, ask({ amount: "4000.01", currency: "RUB" }), NOW)).toEqual(over);
    expect(world.fake.payoffs.all.size).toBe(2);
    expect(await requestPayout(world.deps, ask({ amount: "4000" }), NOW)).toMatchObject({
      kind: "requested",
      totals: { requester: "10000", register: "10000" },
    });
    // The requester is at the cap: refused before any quote is asked for.
    const made = world.fake.payoffs.all.size;
    expect(await requestPayout(world.deps, ask({ amount: "100" }), NOW)).toMatchObject({
      refusal: { kind: "cap_reached", cap: "requester" },
    });
    expect(world.fake.payoffs.all.size).toBe(made);
    const register = await requestPayout(world.deps, ask({ requester: ALICE, amount: "5000.5" }), NOW);
    expect(register).toMatchObject({ refusal: { kind: "cap_reached", cap: "register", total: "10000" } });
    // Another day starts from nothing.
    const tomorrow = new Date("2026-11-27T00:00:00.000Z");
    expect((await requestPayout(world.deps, ask({ amount: "100" }), tomorrow)).kind).toBe("requested");
  });

  it("rejected and cancelled requests leave the day's 500: a day full of them still takes one", async () => {
    const made = async () => {
      const result = await requestPayout(world.deps, ask({ amount: "100" }), NOW);
      if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
      return result.request.id;
    };
    const [rejected, cancelled] = [await made(), await made()];
    expect((await reject(world.deps, rejected, ALICE, "Wrong supplier", NOW)).kind).toBe("rejected");
    expect((await cancel(world.deps, cancelled, REQUESTER, NOW)).kind).toBe("cancelled");
    const key = dayKey(world.registerKey, NOW);
    const fill = async (ids: string[]) => {
      const raw = await world.deps.board.readState(DAY_FAMILY, key, ENTRIES_FIELD);
      const at = NOW.toISOString();
      const entries = Array.from({ length: DAY_ENTRIES_MAX }, (_, n) => ({
        id: ids[n % ids.length],
        requester: REQUESTER,
        rub: "1",
        at,
      }));
      expect(await world.deps.board.swapState(DAY_FAMILY, key, ENTRIES_FIELD, raw, entries)).toBe(true);
    };
    await fill([rejected, cancelled]);
    const waiting = await made();
    // The list keeps only what still counts: the new request.
    expect(await world.deps.board.readState(DAY_FAMILY, key, ENTRIES_FIELD)).toMatchObject([{ id: waiting }]);
    // 500 requests that still count make a full day.
    await fill([waiting]);
    expect(await requestPayout(world.deps, ask({ amount: "100" }), NOW)).toMatchObject({
      refusal: { kind: "too_many_today" },
    });
  });

  it("two requests at once cannot both pass the cap", async () => {
    world.fund("CARDRUBP2P", "100000");
    const results = await Promise.all([
      requestPayout(world.deps, ask({ amount: "6000" }), NOW),
      requestPayout(world.other, ask({ amount: "6000" }), NOW),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(["refused", "requested"]);
  });
});

describe("payout timing", () => {
  it("keeps a claim longer than a send, and the grace longer than the claim and a send", () => {
    expect(payoutTimingFor(8000)).toEqual({ leaseMs: 60_000, graceMs: 120_000 });
    // A submit may make three attempts (a refused connection is never sent): four deadlines.
    expect(payoutTimingFor(40_000)).toEqual({ leaseMs: 160_000, graceMs: 240_000 });
  });
});
