/**
 * A signed payout callback on a register's address (src/edge/open-records.ts payoutNudge): the
 * worker reads the payout now only when it is that register's; another register's is left alone.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { payoutNudge } from "../../src/edge/open-records.js";
import { PAYOUT_FAMILY } from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { createLogger } from "../../src/util/logger.js";
import {
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
  WALLET,
} from "./payout-world.js";

afterAll(removeSqliteDir);

/** Before its first look (a minute after it is made) and its expiry (an hour). */
const SOON_AFTER = new Date(NOW.getTime() + 30_000);

describe.each(ENGINES)("a payout callback's nudge on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine);
  });
  afterEach(async () => {
    await world.close();
  });

  it("reads the payout now on its own register's address, and never on another's", async () => {
    const asked = await requestPayout(
      world.deps,
      {
        registerKey: world.registerKey,
        requester: REQUESTER,
        amount: "1500",
        method: "CARDRUBP2P",
        wallet: WALLET,
        subtractFrom: "balance",
        reason: "Supplier invoice 42",
        reference: "INV-42",
      },
      NOW,
    );
    if (asked.kind !== "requested") throw new Error(`not requested: ${asked.kind}`);
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
    const nudge = payoutNudge(world.deps, logger, () => SOON_AFTER);
    const due = () => world.deps.board.claimDue(PAYOUT_FAMILY, SOON_AFTER.getTime(), 1000, 10);

    // Waiting: not due before its first look.
    await nudge(`${world.registerKey}~shop2`, asked.request.id);
    expect(await due()).toEqual([]);
    expect(lines).toMatchObject([{ outcome: "payout_callback_elsewhere", payout: asked.request.id }]);

    await nudge(world.registerKey, asked.request.id);
    expect((await due()).map((claim) => claim.key)).toEqual([asked.request.id]);
  });
});
