import { crossingMessage, failingNote } from "../blocks/money-alerts.js";
import { registerOfKey } from "../store/registers.js";
import { ALERT_FAMILY, type BalanceAlert, changeAlerts, readAlerts, sameAlert } from "./alerts.js";
import { type AlertMessage, decideAll, decideFailure } from "./balance-decide.js";
import { checkClaimed, postAlertMessage } from "./claimed.js";
import type { MoneyAlertDeps } from "./deps.js";

// One register's balance check, under its claim on the `balance-alert` item (one replica at a time):
// the balances read once, each alert decided (balance-decide.ts), the decision written down by
// compare-and-set, and only then the messages posted. A post that fails is undone, so the next check
// tries it again: one message that arrives rather than none.

/** A register without alerts is looked at again this much later (a new alert nudges it sooner). */
const IDLE_MS = 24 * 3_600_000;

/** Checks one claimed register; returns when its item is next due. */
export async function checkBalances(deps: MoneyAlertDeps, registerKey: string, now: number): Promise<number> {
  const { team } = registerOfKey(registerKey);
  const due = now + deps.balanceCheckMs;
  const current = await readAlerts(deps.board, registerKey);
  if (current.alerts.length === 0) return now + IDLE_MS;
  let balances: { code: string; value: string; currency: string }[];
  try {
    const report = await deps.payments.balanceSheet(registerKey);
    balances = report.balances.map((one) => ({ code: one.code, ...one.amount }));
  } catch (error) {
    deps.logger.warn({ team, register: registerKey, err: error }, "balance check failed; alerts paused");
    const channels = await changeAlerts(deps.board, registerKey, (alerts) => {
      const decided = decideFailure(alerts, now);
      return { next: decided.next, result: decided.note };
    });
    const lang = await deps.languageOf(team);
    for (const channel of channels) await postAlertMessage(deps, team, channel, failingNote(lang));
    return due;
  }
  const messages = await changeAlerts(deps.board, registerKey, (alerts) => {
    const decided = decideAll(alerts, balances, now);
    // Nothing seen differently: nothing written.
    if (JSON.stringify(decided.next) === JSON.stringify(alerts)) return { result: decided.messages };
    return { next: decided.next, result: decided.messages };
  });
  if (messages.length === 0) return due;
  const lang = await deps.languageOf(team);
  for (const message of messages) {
    const sent = await postAlertMessage(
      deps,
      team,
      message.alert.channel,
      crossingMessage(message.kind, message.alert, message.balance.value, lang),
    );
    deps.logger.info(
      { team, register: registerKey, method: message.alert.method, kind: message.kind, sent },
      sent ? "balance alert posted" : "balance alert not posted; tried again next check",
    );
    if (!sent) await undo(deps, registerKey, message);
  }
  return due;
}

/** A message that did not go out: its alert told as before, so the next check says it again. */
async function undo(deps: MoneyAlertDeps, registerKey: string, message: AlertMessage): Promise<void> {
  const { alert } = message;
  await changeAlerts(deps.board, registerKey, (alerts) => {
    const at = alerts.alerts.findIndex((one) => sameAlert(one, alert) && one.below === alert.below);
    if (at < 0) return { result: undefined };
    const { belowToldAt: _, ...rest } = alert;
    const before: BalanceAlert =
      message.kind === "below" ? { ...rest, told: "above" } : { ...alert, told: "below" };
    const next = alerts.alerts.map((one, index) => (index === at ? before : one));
    return { next: { ...alerts, alerts: next }, result: undefined };
  });
}

/** Runs the due registers' balance checks, each under its claim. */
export function runBalanceChecks(deps: MoneyAlertDeps, now: number): Promise<number> {
  return checkClaimed(deps, ALERT_FAMILY, now, deps.balanceCheckMs, (key, _token, at) =>
    checkBalances(deps, key, at),
  );
}
