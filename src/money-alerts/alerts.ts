import { z } from "zod";
import { boardOnFirstUse, defineFamily } from "../store/claims/family.js";
import { type ClaimBoard, openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";

// Each register's balance alerts: one item of family `balance-alert` on the claim board (key: the
// register's key), its state `alerts` changed only by compare-and-set (a command and the check may
// change it at once; one wins, the other reads again). The item's schedule is the register's next
// check: a command that adds an alert nudges it, the check releases it with the next due time.

export const ALERT_FAMILY = "balance-alert";
/** The payout watch's family (payout-watch.ts): each register's payouts already seen. */
export const PAYOUT_WATCH_FAMILY = "payout-watch";
const ALERTS_FIELD = "alerts";
/** A register keeps at most this many alerts (all channels together). */
export const MAX_ALERTS = 50;

const alertSchema = z.object({
  channel: z.string().min(1),
  method: z.string().min(1),
  /** The threshold, an exact decimal string in `currency`. */
  below: z.string().min(1),
  currency: z.string().min(1),
  by: z.string(),
  at: z.string(),
  /** What the channel last heard: "above" until a "below" message went out, then "below". */
  told: z.enum(["above", "below"]),
  /** When the last "below" message went out (epoch ms): one pair per hour at most. */
  belowToldAt: z.number().optional(),
  /** What the last check saw, for `/balance alerts`; absent before the first check. */
  seen: z.enum(["above", "below"]).optional(),
});
export type BalanceAlert = z.infer<typeof alertSchema>;

const registerAlertsSchema = z.object({
  v: z.literal(1),
  alerts: z.array(alertSchema).max(MAX_ALERTS),
  /** Since when the checks have failed (epoch ms); absent while they work. */
  failingSince: z.number().optional(),
  /** The one note about failing checks went out. */
  failingNoted: z.boolean().optional(),
});
export type RegisterAlerts = z.infer<typeof registerAlertsSchema>;

export const NO_ALERTS: RegisterAlerts = { v: 1, alerts: [] };

/** Two alerts are the same one when they watch the same method in the same channel. */
export const sameAlert = (
  a: Pick<BalanceAlert, "channel" | "method">,
  b: Pick<BalanceAlert, "channel" | "method">,
) => a.channel === b.channel && a.method === b.method;

/** The family: one item per register (key: the register's key), its state `alerts`. */
export const BALANCE_ALERTS = defineFamily({
  name: ALERT_FAMILY,
  fields: { [ALERTS_FIELD]: registerAlertsSchema },
  kept: "until its register is disconnected",
});

/** The register's alerts (none when nothing, or nothing readable, is stored). */
export async function readAlerts(board: ClaimBoard, registerKey: string): Promise<RegisterAlerts> {
  return (await BALANCE_ALERTS.read(board, registerKey, ALERTS_FIELD)).value ?? NO_ALERTS;
}

/**
 * A read-modify-write of the register's alerts by compare-and-set (BALANCE_ALERTS.update).
 * `change` returns the new state and a result, or only a result to change nothing.
 */
export function changeAlerts<T>(
  board: ClaimBoard,
  registerKey: string,
  change: (current: RegisterAlerts) => { next: RegisterAlerts; result: T } | { result: T },
): Promise<T> {
  return BALANCE_ALERTS.update(
    board,
    registerKey,
    ALERTS_FIELD,
    (stored) => change(stored.value ?? NO_ALERTS),
    10,
  );
}

export type SetAlert = Pick<BalanceAlert, "channel" | "method" | "below" | "currency" | "by" | "at">;

/**
 * Adds an alert, or changes the threshold of the channel's alert on that method (told afresh: a new
 * threshold is a new alert). Its register's check is due at once.
 */
export async function setAlert(
  board: ClaimBoard,
  registerKey: string,
  alert: SetAlert,
  now: number,
): Promise<"added" | "changed" | "too_many"> {
  const result = await changeAlerts(board, registerKey, (current) => {
    const existing = current.alerts.some((one) => sameAlert(one, alert));
    if (!existing && current.alerts.length >= MAX_ALERTS) return { result: "too_many" as const };
    const others = current.alerts.filter((one) => !sameAlert(one, alert));
    return {
      next: { ...current, alerts: [...others, { ...alert, told: "above" as const }] },
      result: existing ? ("changed" as const) : ("added" as const),
    };
  });
  if (result !== "too_many") {
    await board.enlist(ALERT_FAMILY, registerKey, now);
    await board.nudge(ALERT_FAMILY, registerKey, now);
  }
  return result;
}

/** Removes the channel's alert on `method`; false when there was none. */
export function removeAlert(
  board: ClaimBoard,
  registerKey: string,
  channel: string,
  method: string,
): Promise<boolean> {
  return changeAlerts(board, registerKey, (current) => {
    const kept = current.alerts.filter((one) => !sameAlert(one, { channel, method }));
    if (kept.length === current.alerts.length) return { result: false };
    return { next: { ...current, alerts: kept }, result: true };
  });
}

/** The balance alerts as commands use them, on the claim board opened on first use. */
export class BalanceAlerts {
  private readonly board: () => Promise<ClaimBoard>;

  constructor(open: () => Promise<ClaimBoard>) {
    this.board = boardOnFirstUse(open);
  }

  async list(registerKey: string): Promise<BalanceAlert[]> {
    return (await readAlerts(await this.board(), registerKey)).alerts;
  }

  async set(registerKey: string, alert: SetAlert, now: number): Promise<"added" | "changed" | "too_many"> {
    return setAlert(await this.board(), registerKey, alert, now);
  }

  async remove(registerKey: string, channel: string, method: string): Promise<boolean> {
    return removeAlert(await this.board(), registerKey, channel, method);
  }

  /**
   * A register disconnected or uninstalled: its alerts and the payouts its watch has seen are
   * forgotten (connected again, maybe to another account, its watch starts by noting what is there).
   */
  async forget(registerKey: string): Promise<void> {
    const board = await this.board();
    await board.drop(ALERT_FAMILY, registerKey);
    await board.drop(PAYOUT_WATCH_FAMILY, registerKey);
  }
}

/** The balance alerts on the store's claim board. */
export function balanceAlertsFor(store: Pick<KeyvStore, "native">, timeoutMs: number): BalanceAlerts {
  return new BalanceAlerts(() => openClaimBoard(store, DEFAULT_PREFIX, timeoutMs));
}
