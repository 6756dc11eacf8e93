/**
 * The end's notes (src/payouts/end-notes.ts): posted only while the worker's claim holds, marked
 * before Slack is called and told after; a mark left by a holder that stopped is posted again (and
 * logged); a note Slack refused for the rate is unmarked and due again at its Retry-After. Against
 * the Slack stand-in, in memory and on SQLite.
 */
import { webApi } from "@slack/bolt";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import { type NoteHolder, tellEnd } from "../../src/payouts/end-notes.js";
import type { PayoutNotice } from "../../src/payouts/notice-model.js";
import { patchNotice, readNotice } from "../../src/payouts/notice-store.js";
import { type PayoutRequest, readRequest } from "../../src/payouts/request-model.js";
import { type Announce, requestPayout } from "../../src/payouts/requests.js";
import {
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  POLICY,
  REQUESTER,
  removeSqliteDir,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const announce: Announce = (_request, totals, policy) => ({
  v: 1,
  channel: policy.channel,
  requester: REQUESTER,
  register: "main",
  several: false,
  lang: "en",
  balance: null,
  today: { total: totals.requester, cap: policy.requesterDaily },
  card: { channel: policy.channel, ts: "1795000000.000100" },
  told: [],
});

describe.each(ENGINES)("a payout's end notes on $name", (engine) => {
  let world: PayoutWorld;
  let slack: SlackStandIn;
  let client: webApi.WebClient;
  beforeEach(async () => {
    world = await openPayoutWorld(engine);
    slack = await startSlackStandIn();
    client = new webApi.WebClient("xoxb-payout-tests", {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      // As the app's clients (slack/client.ts): a rate refusal comes back at once.
      rejectRateLimitedCalls: true,
    });
  });
  afterEach(async () => {
    await world.close();
    await slack.close();
  });

  /** A request paid out, as the worker finds it at its end. */
  async function paid(): Promise<PayoutRequest> {
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
    const made = await requestPayout(world.deps, ask, NOW, announce);
    if (made.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(made)}`);
    const read = await readRequest(world.deps.board, made.request.id);
    if (!read) throw new Error("not stored");
    const at = NOW.toISOString();
    // Ended as the worker would leave it after the send (written as such: a test's shortcut past the
    // status moves, which allow waiting → ended only through approved, submitting and submitted).
    const ended: PayoutRequest = {
      ...read.request,
      status: "ended",
      service: { state: "payed", message: null, at },
      endedAt: at,
    };
    if (!(await world.deps.board.swapState("payout", ended.id, "request", read.raw, ended)))
      throw new Error("not ended");
    return ended;
  }
  const holder = (holds: boolean, token = "claim-1"): NoteHolder => ({
    token,
    holds: async () => holds,
    now: () => NOW.getTime(),
  });
  const notice = async (id: string): Promise<PayoutNotice> => {
    const read = await readNotice(world.deps.board, id);
    if (!read) throw new Error("no notice");
    return read.notice;
  };
  const deps = () => ({ board: world.deps.board, slack: async () => client, logger: world.deps.logger });
  const notes = () => [...slack.messages.values()];

  it("posts each note once while the claim holds, and none once it is lost", async () => {
    const request = await paid();
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(false))).toEqual({
      told: false,
    });
    expect(notes()).toEqual([]);
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(true))).toEqual({
      told: true,
    });
    expect(
      notes()
        .map((note) => note.channel)
        .sort(),
    ).toEqual([POLICY.channel, REQUESTER].sort());
    expect(await notice(request.id)).toMatchObject({ told: ["thread", "requester"] });
    expect((await notice(request.id)).noting).toBeUndefined();
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(true))).toEqual({
      told: true,
    });
    expect(notes()).toHaveLength(2);
  });

  it("posts again a note an earlier holder marked and never told, and says it may show twice", async () => {
    const request = await paid();
    await patchNotice(world.deps.board, request.id, (now) => ({
      ...now,
      noting: [{ to: "requester", token: "claim-0", at: NOW.toISOString() }],
    }));
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(true))).toEqual({
      told: true,
    });
    expect(notes()).toHaveLength(2);
    expect(world.logs.filter((line) => String(line.msg).includes("ended without word"))).toMatchObject([
      { note: "requester" },
    ]);
  });

  it("unmarks a note Slack refused for the rate, due again at its Retry-After", async () => {
    const request = await paid();
    slack.troubleChannel(REQUESTER, { mode: "ratelimited", methods: ["chat.postMessage"], times: 1 });
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(true))).toEqual({
      told: false,
      retryInMs: 1000,
    });
    expect(await notice(request.id)).toMatchObject({ told: ["thread"] });
    expect((await notice(request.id)).noting).toBeUndefined();
    expect(await tellEnd(deps(), client, request, await notice(request.id), holder(true))).toEqual({
      told: true,
    });
    expect(notes()).toHaveLength(2);
  });
});
