import type { ListenerDeps } from "../deps.js";

export type RegisterWorkDeps = Pick<
  ListenerDeps,
  | "payments"
  | "watches"
  | "feeds"
  | "history"
  | "digests"
  | "payoutPolicies"
  | "balanceAlerts"
  | "methodWatches"
  | "methodSwitches"
>;

/**
 * What a workspace's cash register leaves outside its credentials and settings: cached answers,
 * live cards, feeds, the kept history, digests, the balance alerts, the payout watch's notes, the
 * methods watch and the methods' switch records, and the payout policy (with its history: a register
 * connected again, maybe with another account, starts with payouts off). Disconnecting and
 * uninstalling both forget it.
 */
export function forgetRegisterWork(deps: RegisterWorkDeps): (teamId: string) => Promise<void> {
  return async (teamId) => {
    await deps.payments.forgetCached(teamId);
    await deps.watches.forgetTeam(teamId);
    // A feed of a register no longer connected would only pause; a reconnect subscribes afresh.
    await deps.feeds.removeTeam(teamId);
    await deps.history.forget(teamId);
    await deps.digests.removeTeam(teamId);
    await deps.payoutPolicies.remove(teamId);
    await deps.balanceAlerts.forget(teamId);
    await deps.methodWatches.forget(teamId);
    await deps.methodSwitches.forget(teamId);
  };
}
