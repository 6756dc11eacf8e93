/**
 * A batch's card and its end told under the follower's claim (src/payout-batches/show.ts and
 * result.ts), against the Slack stand-in, in memory and on SQLite: a follower whose claim ran out
 * posts neither the card nor a result file; the holder posts each once, and a place Slack refused
 * for good (the requester deactivated) is written down and never asked again, the other told.
 */
import { webApi } from "@slack/bolt";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import { BATCH_FIELD, BATCHES, readBatchCard } from "../../src/payout-batches/model.js";
import { tellResult } from "../../src/payout-batches/result.js";
import { type BatchShowDeps, showBatch } from "../../src/payout-batches/show.js";
import type { NoteHolder } from "../../src/payouts/end-notes.js";
import {
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
  TIMING,
} from "../payouts/payout-world.js";
import { quotedBatch } from "./quoted-batch.js";

afterAll(removeSqliteDir);

const holding = (holds: boolean): NoteHolder => ({
  token: "t",
  holds: async () => holds,
  now: () => NOW.getTime(),
});

describe.each(ENGINES)("a batch told under its claim, $name", (engine) => {
  let world: PayoutWorld;
  let slack: SlackStandIn;
  let deps: BatchShowDeps;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
    slack = await startSlackStandIn();
    const client = new webApi.WebClient("xoxb-batch-tests", {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    deps = { board: world.deps.board, logger: world.deps.logger, slack: async () => client };
  });
  afterEach(async () => {
    await world.close();
    await slack.close();
  });

  /** A batch of two rows quoted and waiting for approval: its id. */
  const waiting = async () => (await quotedBatch(world, 2)).id;

  /** The batch marked ended (as the follower ends it once every row is). */
  async function ended(id: string): Promise<void> {
    await BATCHES.update(world.deps.board, id, BATCH_FIELD, (stored) =>
      stored.value
        ? { next: { ...stored.value, status: "ended", endedAt: NOW.toISOString() }, result: undefined }
        : { result: undefined },
    );
  }

  const posts = () => slack.callsOf("chat.postMessage").length;

  it("posts neither the card nor a result file once its claim ran out; the holder posts each once", async () => {
    const id = await waiting();
    expect(await showBatch(deps, id, true, NOW, holding(false))).toEqual({ owed: true });
    expect(posts()).toBe(0);
    expect(await showBatch(deps, id, true, NOW, holding(true))).toEqual({ owed: false });
    expect(posts()).toBe(1);
    await ended(id);
    expect(await tellResult(deps, id, NOW, holding(false))).toEqual({ told: false });
    expect(slack.files.shared()).toHaveLength(0);
    expect(await tellResult(deps, id, NOW, holding(true))).toEqual({ told: true });
    expect(await tellResult(deps, id, NOW, holding(true))).toEqual({ told: true });
    const shared = slack.files.shared();
    expect(shared.map((file) => file.channel).sort()).toEqual(["C0PAY1", `D${REQUESTER.slice(1)}`]);
    expect((await readBatchCard(world.deps.board, id))?.told.sort()).toEqual(["requester", "thread"]);
  });

  it("a requester Slack refuses for good is written down and not asked again; the thread is told", async () => {
    const id = await waiting();
    await showBatch(deps, id, true, NOW, holding(true));
    await ended(id);
    slack.failApi("conversations.open", "user_disabled");
    expect(await tellResult(deps, id, NOW, holding(true))).toEqual({ told: true });
    const opens = slack.callsOf("conversations.open").length;
    expect(await tellResult(deps, id, NOW, holding(true))).toEqual({ told: true });
    expect(slack.callsOf("conversations.open")).toHaveLength(opens);
    expect(slack.files.shared().map((file) => file.channel)).toEqual(["C0PAY1"]);
    const card = await readBatchCard(world.deps.board, id);
    expect(card?.told).toEqual(["thread"]);
    expect(card?.unsent).toEqual([{ to: "requester", code: "user_disabled", at: NOW.toISOString() }]);
  });
});
