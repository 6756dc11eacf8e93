import { Big } from "../payments/decimal.js";
import type { BalanceAlert, RegisterAlerts } from "./alerts.js";

// What one balance check means for each alert, pure (tested as a table): a crossing below is told
// once (and at most once an hour, so a flapping balance gives one pair an hour), a return above once
// after a told "below"; staying on one side says nothing. A failing check says nothing until it has
// failed for an hour, then one note.

export const HOUR_MS = 3_600_000;

/** A balance as the check read it: the method's code, its exact amount and currency. */
export type SeenBalance = { code: string; value: string; currency: string };

/** One message to send: to `alert`'s channel, about the balance seen. */
export type AlertMessage = { kind: "below" | "above"; alert: BalanceAlert; balance: SeenBalance };

/** One alert after a check, and what to tell its channel (nothing when undefined). */
export function decideAlert(
  alert: BalanceAlert,
  balance: SeenBalance | undefined,
  now: number,
): { next: BalanceAlert; say?: AlertMessage } {
  // A method gone from the balances, or in another currency than the threshold: nothing to compare.
  if (!balance || balance.currency !== alert.currency) return { next: alert };
  const below = new Big(balance.value).lt(new Big(alert.below));
  const seen = below ? ("below" as const) : ("above" as const);
  if (below && alert.told === "above") {
    const quiet = alert.belowToldAt !== undefined && now - alert.belowToldAt < HOUR_MS;
    if (quiet) return { next: { ...alert, seen } };
    const next = { ...alert, seen, told: "below" as const, belowToldAt: now };
    return { next, say: { kind: "below", alert: next, balance } };
  }
  if (!below && alert.told === "below") {
    const next = { ...alert, seen, told: "above" as const };
    return { next, say: { kind: "above", alert: next, balance } };
  }
  return { next: { ...alert, seen } };
}

/** Every alert of the register after a successful check; the failing mark cleared. */
export function decideAll(
  current: RegisterAlerts,
  balances: readonly SeenBalance[],
  now: number,
): { next: RegisterAlerts; messages: AlertMessage[] } {
  const messages: AlertMessage[] = [];
  const alerts = current.alerts.map((alert) => {
    const decided = decideAlert(
      alert,
      balances.find((one) => one.code === alert.method),
      now,
    );
    if (decided.say) messages.push(decided.say);
    return decided.next;
  });
  return { next: { v: 1, alerts }, messages };
}

/**
 * A failed check at `now`: marked failing from the first failure; after an hour of failures, one
 * note (`note`: the channels to tell), then nothing more until a check works again.
 */
export function decideFailure(
  current: RegisterAlerts,
  now: number,
): { next: RegisterAlerts; note: string[] } {
  const since = current.failingSince ?? now;
  if (current.failingNoted || now - since < HOUR_MS)
    return { next: { ...current, failingSince: since }, note: [] };
  const channels = [...new Set(current.alerts.map((alert) => alert.channel))];
  return { next: { ...current, failingSince: since, failingNoted: true }, note: channels };
}
