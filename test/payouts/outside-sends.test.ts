/**
 * A request's status moves (src/payouts/request-model.ts STATUS_MOVES), held where the status is
 * written, as a table; and a Kassa quote sent at the service by someone else (src/payouts/outside.ts):
 * found by the worker before its send, or by the cancel of a request that ended unsent. Against the
 * sandbox over HTTP, in memory and on SQLite.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { stoppedWords } from "../../src/blocks/payout-card.js";
import { todayTotals } from "../../src/payouts/day-totals.js";
import {
  type PayoutRequest,
  REQUEST_STATUSES,
  type RequestStatus,
  readRequest,
  STATUS_MOVES,
  swapRequest,
} from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import {
  ALICE,
  ASK,
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

/** The moves, written out: from each status (row), the statuses it may become. */
const MOVES: Record<RequestStatus, string> = {
  waiting: "waiting approved rejected cancelled expired outside",
  approved: "approved submitting waiting stopped rejected cancelled outside",
  submitting: "submitting approved waiting submitted changed refused stopped outside",
  submitted: "submitted ended",
  ended: "ended",
  rejected: "rejected outside",
  cancelled: "cancelled outside",
  expired: "expired outside",
  changed: "changed outside",
  refused: "refused outside",
  stopped: "stopped outside",
  outside: "outside",
};

const BASE: PayoutRequest = {
  v: 1,
  id: "810000001_abc",
  registerKey: "T0TEAM",
  team: "T0TEAM",
  requester: "U0REQ1",
  amount: "100",
  fee: "1",
  receives: "100",
  leavesBalance: "101",
  currency: "RUB",
  rubAmount: "100",
  method: "CARDRUBP2P",
  wallet: WALLET,
  subtractFrom: "balance",
  reason: "",
  reference: "",
  createdAt: "2026-11-26T10:00:00.000Z",
  expiresAt: "2026-11-26T11:00:00.000Z",
  needed: 1,
  votes: [],
  status: "waiting",
};

describe("a payout request's status moves", () => {
  it("are the table, and every other move is refused where the status is written", async () => {
    expect(Object.fromEntries(REQUEST_STATUSES.map((from) => [from, STATUS_MOVES[from].join(" ")]))).toEqual(
      MOVES,
    );
    const board = memoryClaimBoard();
    for (const from of REQUEST_STATUSES)
      for (const to of REQUEST_STATUSES) {
        const id = `810000001_${from}_${to}`;
        const stored = { ...BASE, id, status: from };
        await board.swapState("payout", id, "request", undefined, stored);
        const move = swapRequest(board, { request: stored, raw: stored }, { ...stored, status: to });
        if (MOVES[from].split(" ").includes(to)) await expect(move, `${from} → ${to}`).resolves.toBeDefined();
        else await expect(move, `${from} → ${to}`).rejects.toThrow(`no move from ${from} to ${to}`);
      }
  });
});

describe.each(ENGINES)("a Kassa quote sent at the service by someone else, on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
  });
  afterEach(async () => {
    await world.close();
  });

  async function requested(): Promise<string> {
    const result = await requestPayout(world.deps, { ...ASK, registerKey: world.registerKey }, NOW);
    if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
    return result.request.id;
  }
  /** Someone holding Secret 2 submits the quote at the service. */
  async function submitElsewhere(id: string): Promise<void> {
    const account = await world.deps.account(world.registerKey);
    if (!account) throw new Error("no account");
    await world.deps.payments.submitPayoff(account, id);
  }
  const read = async (id: string) => (await readRequest(world.deps.board, id))?.request;
  const acts = (action: string) => world.audit.filter((entry) => entry.action === action);

  it("approved, then submitted elsewhere before the worker's send: outside, never sent by Kassa nor called sent", async () => {
    const id = await requested();
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    await submitElsewhere(id);
    await runDuePayouts(world.deps, later(1000));
    const request = await read(id);
    expect(request?.status).toBe("outside");
    expect(request?.outside).toMatchObject({ state: "processing", was: "submitting" });
    expect(world.fake.payoffs.submits).toEqual([id]);
    expect(acts("payout.submitted")).toHaveLength(0);
    expect(acts("payout.outside")).toHaveLength(1);
    await runDuePayouts(world.deps, later(2000));
    expect((await read(id))?.status).toBe("outside");
    expect(acts("payout.outside")).toHaveLength(1);
  });

  it("waiting, submitted elsewhere, then expired: outside (not expired), audited once", async () => {
    const id = await requested();
    await submitElsewhere(id);
    await runDuePayouts(world.deps, later(61 * 60_000));
    const request = await read(id);
    expect(request?.status).toBe("outside");
    expect(request?.outside?.was).toBe("expired");
    expect(request?.serviceCancel).toBeUndefined();
    expect(acts("payout.outside")).toHaveLength(1);
  });
});

describe.each(ENGINES)("the daily caps count a payout on the day it leaves, on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
  });
  afterEach(async () => {
    await world.close();
  });
  const LATE = new Date("2026-11-26T23:40:00.000Z");
  const NEXT_DAY = new Date("2026-11-27T00:10:00.000Z");
  const at = (date: Date, ms: number) => new Date(date.getTime() + ms);

  async function requestedAt(now: Date, amount: string, requester: string = REQUESTER): Promise<string> {
    const result = await requestPayout(
      world.deps,
      { ...ASK, amount, requester, registerKey: world.registerKey },
      now,
    );
    if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
    return result.request.id;
  }
  const totals = (now: Date) => todayTotals(world.deps.board, world.registerKey, REQUESTER, now);

  it("made late one day, sent the next within that day's caps: counted on the day it left, not the day before", async () => {
    const id = await requestedAt(LATE, "1500");
    expect(await totals(LATE)).toMatchObject({ requester: "1500" });
    expect(await approve(world.deps, id, ALICE, NEXT_DAY)).toMatchObject({ kind: "approved" });
    await runDuePayouts(world.deps, at(NEXT_DAY, 1000));
    const request = (await readRequest(world.deps.board, id))?.request;
    expect(request?.status).toBe("submitted");
    expect(request?.countsOn).toBe("2026-11-27");
    expect(await totals(at(NEXT_DAY, 2000))).toMatchObject({ requester: "1500" });
    expect(await totals(LATE)).toMatchObject({ requester: "0" });
  });

  it("made within the caps one day, but sending it the next would pass that day's: stopped, never sent, the card says which cap", async () => {
    const id = await requestedAt(LATE, "1500");
    // The next day the requester has asked for 9,000 RUB already (cap 10,000): 1,500 more would pass it.
    await requestedAt(at(NEXT_DAY, -5 * 60_000), "4500");
    await requestedAt(at(NEXT_DAY, -4 * 60_000), "4500");
    expect(await approve(world.deps, id, ALICE, NEXT_DAY)).toMatchObject({ kind: "approved" });
    await runDuePayouts(world.deps, at(NEXT_DAY, 1000));
    const request = (await readRequest(world.deps.board, id))?.request;
    expect(request?.status).toBe("stopped");
    expect(request?.stop).toMatchObject({
      why: "day_cap",
      cap: { which: "requester", limit: "10000", total: "9000" },
    });
    expect(world.fake.payoffs.submits).not.toContain(id);
    expect(world.fake.payoffs.all.get(id)?.state).toBe("canceled");
    if (!request) throw new Error("no request");
    const words = stoppedWords(request, "en");
    expect(words).toContain("the requester's daily cap of 10,000.00 RUB");
    expect(words).toContain("9,000.00 RUB already counted today");
    expect(stoppedWords(request, "ru")).toContain("дневной лимит запросившего");
  });
});
