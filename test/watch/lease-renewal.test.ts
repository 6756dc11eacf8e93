import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/util/logger.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import { LeaseRenewal } from "../../src/watch/lease-renewal.js";
import type { WatchCard } from "../../src/watch/model.js";
import { ManualClock } from "../support/manual-clock.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { unpaidInvoice as invoice } from "../support/watch-fixtures.js";

const card: WatchCard = {
  kind: "channel",
  channel: "C1",
  ts: "1.000100",
  user: "U0ASKER",
  postedState: "notpayed",
};

async function claimedWatch(clock: ManualClock) {
  const queue = new BoardWatchQueue(memoryClaimBoard());
  const seed = {
    team: "T1",
    invoiceId: "inv1",
    register: "r",
    state: "notpayed",
    amounts: "a0",
    invoice: invoice("inv1"),
  };
  await queue.addCard(seed, card, { maxPerWorkspace: 10, firstDueInMs: 0, now: clock.now() - 1000 });
  const [watch] = await queue.claimDue(clock.now(), 10, 300);
  if (!watch) throw new Error("nothing claimed");
  return { queue, watch };
}

const lines: string[] = [];
const logger = createLogger("info", { write: (line: string) => void lines.push(line) });

describe("LeaseRenewal", () => {
  it("keeps a claimed watch from being claimed again while it is worked on, however long", async () => {
    const clock = new ManualClock();
    const { queue, watch } = await claimedWatch(clock);
    const leases = new LeaseRenewal(queue, [watch], { leaseMs: 300, clock, logger });
    await clock.advance(900);
    expect(await queue.claimDue(clock.now(), 10, 300)).toHaveLength(0);
    leases.done(watch);
    await clock.advance(400);
    leases.stop();
    expect(clock.waiting).toBe(0);
    // Done: no longer renewed, so it is due again once its lease has run out.
    expect(await queue.claimDue(clock.now(), 10, 300)).toHaveLength(1);
  });

  it("notices when another claim took the watch after a stall, and says so once", async () => {
    const clock = new ManualClock();
    const { queue, watch } = await claimedWatch(clock);
    await clock.advance(350);
    // The lease ran out before renewal started (a stalled process): another claim takes it.
    const [taken] = await queue.claimDue(clock.now(), 10, 300);
    expect(taken?.lease).not.toBe(watch.lease);
    const leases = new LeaseRenewal(queue, [watch], { leaseMs: 300, clock, logger });
    await clock.advance(100);
    expect(leases.isLost(watch)).toBe(true);
    await clock.advance(300);
    leases.stop();
    expect(lines.filter((line) => line.includes('"outcome":"watch_lease_lost"'))).toHaveLength(1);
    // The stalled claim's late steps are refused.
    expect(
      await queue.reschedule("T1", "inv1", clock.now(), { intervalMs: 1000, lastCheckedAt: 0 }, watch.lease),
    ).toBe(false);
  });
});
