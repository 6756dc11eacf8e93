/**
 * A request is scheduled before it is stored (issue 49, item 5): a process that stops right after
 * storing a request leaves it known to the worker, which posts the card its requester's process did
 * not post at its first look (announceMs) and goes on with it; one that stops between the schedule
 * and the store leaves a schedule the worker forgets. Against the sandbox over HTTP and the Slack
 * stand-in, in memory and on SQLite.
 */
import { webApi } from "@slack/bolt";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import type { PayoutDeps } from "../../src/payouts/request-deps.js";
import { PAYOUT_FAMILY, REQUEST_FIELD, readRequest } from "../../src/payouts/request-model.js";
import { type PayoutAsk, requestPayout } from "../../src/payouts/requests.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import type { ClaimBoard } from "../../src/store/claims/index.js";
import {
  announce,
  ENGINES,
  later,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  POLICY,
  REQUESTER,
  removeSqliteDir,
  TIMING,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const ANNOUNCE_MS = 60_000;

/**
 * The board as a process sees it that stops at a given write: every call after it fails (nothing
 * more is written by that process).
 */
function stoppingBoard(board: ClaimBoard, stopsAfter: "store" | "schedule"): ClaimBoard {
  let stopped = false;
  const alive = <T>(run: () => Promise<T>): Promise<T> =>
    stopped ? Promise.reject(new Error("the process stopped")) : run();
  return {
    enlist: async (family, key, dueAt) => {
      await alive(() => board.enlist(family, key, dueAt));
      if (stopsAfter === "schedule" && family === PAYOUT_FAMILY) stopped = true;
    },
    claimDue: (...args) => alive(() => board.claimDue(...args)),
    claimKey: (...args) => alive(() => board.claimKey(...args)),
    renew: (...args) => alive(() => board.renew(...args)),
    release: (...args) => alive(() => board.release(...args)),
    nudge: (...args) => alive(() => board.nudge(...args)),
    readState: (...args) => alive(() => board.readState(...args)),
    writeState: (...args) => alive(() => board.writeState(...args)),
    deleteState: (...args) => alive(() => board.deleteState(...args)),
    swapState: async (family, key, field, expected, replacement, along) => {
      const done = await alive(() => board.swapState(family, key, field, expected, replacement, along));
      if (stopsAfter === "store" && field === REQUEST_FIELD && expected === undefined && done) stopped = true;
      return done;
    },
    sweep: (...args) => alive(() => board.sweep(...args)),
    drop: (...args) => alive(() => board.drop(...args)),
    enlistWith: (...args) => alive(() => board.enlistWith(...args)),
  };
}

describe.each(ENGINES)("a request stored by a process that stopped, on $name", (engine) => {
  let world: PayoutWorld;
  let slack: SlackStandIn;
  let deps: PayoutDeps;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, { ...TIMING, announceMs: ANNOUNCE_MS });
    slack = await startSlackStandIn();
    const client = new webApi.WebClient("xoxb-payout-tests", {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    deps = { ...world.deps, slack: async () => client };
  });
  afterEach(async () => {
    await world.close();
    await slack.close();
  });

  const ask = (): PayoutAsk => ({
    registerKey: world.registerKey,
    requester: REQUESTER,
    amount: "1500",
    method: "CARDRUBP2P",
    wallet: WALLET,
    subtractFrom: "balance",
    reason: "Supplier invoice 42",
    reference: "",
  });
  const cards = () => [...slack.messages.values()].filter((message) => message.channel === POLICY.channel);

  it("right after the store, before any card: the worker finds it at its first look and posts its card", async () => {
    const stopping = { ...deps, board: stoppingBoard(deps.board, "store") };
    await requestPayout(stopping, ask(), NOW, announce).catch(() => undefined);
    const [id] = [...world.fake.payoffs.all.keys()];
    expect((await readRequest(deps.board, id ?? ""))?.request.status).toBe("waiting");
    expect(await runDuePayouts(deps, later(ANNOUNCE_MS - 1000))).toEqual([]);
    expect(await runDuePayouts(deps, later(ANNOUNCE_MS + 1000))).toEqual([{ id, status: "waiting" }]);
    expect(cards()).toHaveLength(1);
    expect(JSON.stringify(cards()[0]?.blocks)).toContain("kassa_payout_approve");
    expect(slack.messages.size).toBe(2); // and the requester's copy
    // Then it waits for its approvals until its expiry, when it is cancelled at the service.
    expect(await runDuePayouts(deps, later(ANNOUNCE_MS + 5 * 60_000))).toEqual([]);
    expect(await runDuePayouts(deps, later(POLICY.expiryMinutes * 60_000 + 1000))).toEqual([
      { id, status: "expired" },
    ]);
    expect(world.fake.payoffs.all.get(id ?? "")?.state).toBe("canceled");
  });

  it("between the schedule and the store: nothing is stored, and the schedule is forgotten", async () => {
    const stopping = { ...deps, board: stoppingBoard(deps.board, "schedule") };
    await expect(requestPayout(stopping, ask(), NOW, announce)).rejects.toThrow("the process stopped");
    const [id] = [...world.fake.payoffs.all.keys()];
    expect(await readRequest(deps.board, id ?? "")).toBeUndefined();
    expect(await runDuePayouts(deps, later(ANNOUNCE_MS + 1000))).toEqual([{ id, status: "forgotten" }]);
    expect(cards()).toEqual([]);
  });
});
