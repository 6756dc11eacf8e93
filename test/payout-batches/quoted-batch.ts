import { quoteBatch, startBatch } from "../../src/payout-batches/create.js";
import type { Batch } from "../../src/payout-batches/model.js";
import { NOW, type PayoutWorld, REQUESTER } from "../payouts/payout-world.js";

/**
 * A batch of `rows` rows (new card wallets, 100, 200… RUB, fee from the balance) made by REQUESTER
 * in `world` and quoted: waiting for approval.
 */
export async function quotedBatch(world: PayoutWorld, rows: number): Promise<Batch> {
  const ask = {
    registerKey: world.registerKey,
    requester: REQUESTER,
    reason: "Suppliers",
    rows: Array.from({ length: rows }, (_, at) => at + 1).map((index) => ({
      line: index,
      to: { method: "CARDRUBP2P", wallet: `220070001234000${index}` },
      amount: `${index}00`,
      feeFrom: "balance" as const,
      reference: `R${index}`,
    })),
    balances: [],
    card: { register: "main", several: false, lang: "en" as const },
  };
  const started = await startBatch(world.deps, ask, NOW);
  if (started.kind !== "started") throw new Error(JSON.stringify(started));
  const waiting = await quoteBatch(world.deps, started.batch, ask, () => NOW);
  if (!waiting) throw new Error("not quoted");
  return waiting;
}
