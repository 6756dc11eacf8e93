import { appendOwed, owedEntryOnce } from "../audit/owed.js";
import type { PayoffHistoryEntry } from "../payments/payoff-model.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import type { MoneyAlertDeps } from "./deps.js";

// News of a payout made outside Kassa: where it is posted, and its audit entry.

/** Where news of a payout made outside goes: the payout approval channel, else the audit channel. */
export async function newsChannel(
  deps: MoneyAlertDeps,
  registerKey: string,
  team: string,
): Promise<string | undefined> {
  return (await deps.policies.get(registerKey))?.channel ?? (await deps.auditChannelOf(team));
}

/**
 * Written down as owed (the same entry however often: a check that dies before noting it audited
 * owes it again), then appended. Throws when the store takes nothing: the check tries again.
 */
export async function recordOutside(
  deps: MoneyAlertDeps,
  registerKey: string,
  entry: PayoffHistoryEntry,
  now: number,
): Promise<void> {
  const { team, name } = registerOfKey(registerKey);
  deps.logger.warn(
    { team, register: registerKey, payout: entry.id, outcome: "payout_outside" },
    "a payout made outside Kassa",
  );
  // The act is the payout made outside: its time is the payout's own (when the service says it was
  // made), which every check that may owe it again gives the same; when Kassa saw it is in `after`.
  const input = {
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: "kassa",
    action: "payout.outside" as const,
    object: `payout ${entry.id}`,
    after: {
      amount: entry.amount?.value ?? null,
      currency: entry.amount?.currency ?? null,
      method: entry.method,
      wallet: entry.wallet,
      serviceState: entry.state,
      createdAt: entry.createdAt?.text ?? null,
      seenAt: new Date(now).toISOString(),
    },
    outcome: "done" as const,
  };
  const at = entry.createdAt ? entry.createdAt.epochSeconds * 1000 : now;
  await deps.board.enlistWith(owedEntryOnce(input, { at, id: `payout.outside ${registerKey} ${entry.id}` }));
  await appendOwed(deps, now);
}
