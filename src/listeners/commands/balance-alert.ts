import type { SlackMessage } from "../../blocks/message.js";
import { type AlertReply, alertListReply, alertReply } from "../../blocks/money-alerts.js";
import type { Lang } from "../../i18n/lang.js";
import { MAX_ALERTS } from "../../money-alerts/alerts.js";
import type { BalanceAlerts } from "../../money-alerts/index.js";
import { Big } from "../../payments/decimal.js";
import type { WorkspacePayments } from "../../registers/workspace-payments.js";
import type { AuditNote, CommandOutcome } from "../contexts/outcome.js";

/** `/balance alert …` and `/balance alerts`, as the command's text reads (after the register's name). */
export type AlertCommand =
  | { kind: "list" }
  | { kind: "set"; method: string; amount: string }
  | { kind: "off"; method: string }
  | { kind: "usage" };

const AMOUNT = /^\d{1,15}([.,]\d{1,18})?$/;

/** Reads the alert sub-command; undefined when the text is not one (then /balance reads it itself). */
export function parseAlertCommand(text: string): AlertCommand | undefined {
  const words = text.trim().split(/\s+/);
  const [first, method, third, ...amount] = words;
  if (/^alerts$/i.test(first ?? "") && words.length === 1) return { kind: "list" };
  if (!/^alerts?$/i.test(first ?? "")) return undefined;
  if (!method) return { kind: "usage" };
  if (/^off$/i.test(third ?? "") && amount.length === 0) return { kind: "off", method: method.toUpperCase() };
  // The amount as people write it: "1 500,50" is one amount.
  if (/^below$/i.test(third ?? "") && amount.length > 0)
    return { kind: "set", method: method.toUpperCase(), amount: amount.join("") };
  return { kind: "usage" };
}

type AlertDeps = { balanceAlerts: BalanceAlerts; payments: Pick<WorkspacePayments, "balances"> };
type Asked = { registerKey: string; channel: string; user: string; lang: Lang; now: Date };
type Answered = { reply: SlackMessage; log: CommandOutcome; audit?: AuditNote };
type Said = "usage" | Extract<CommandOutcome, { outcome: "alert" }>["alert"];
type Say = (reply: AlertReply, said: Said) => Answered;

/** Does what the alert sub-command asks for the chosen register, in the channel asked from. */
export async function answerAlertCommand(
  deps: AlertDeps,
  command: AlertCommand,
  asked: Asked,
): Promise<Answered> {
  const { lang } = asked;
  const say: Say = (reply, said) => ({
    reply: alertReply(reply, lang),
    log: said === "usage" ? { outcome: "usage" } : { outcome: "alert", alert: said },
  });
  switch (command.kind) {
    case "usage":
      return say({ kind: "usage" }, "usage");
    case "list": {
      const alerts = await deps.balanceAlerts.list(asked.registerKey);
      return { reply: alertListReply(alerts, lang), log: { outcome: "alert", alert: "listed" } };
    }
    case "off": {
      const removed = await deps.balanceAlerts.remove(asked.registerKey, asked.channel, command.method);
      const answered = say(
        { kind: removed ? "removed" : "not_found", method: command.method },
        removed ? "removed" : "not_found",
      );
      return { ...answered, audit: { object: `balance alert ${command.method} ${asked.channel}` } };
    }
    case "set":
      return setAlertAnswer(deps, command, asked, say);
  }
}

async function setAlertAnswer(
  deps: AlertDeps,
  command: Extract<AlertCommand, { kind: "set" }>,
  asked: Asked,
  say: Say,
): Promise<Answered> {
  if (!AMOUNT.test(command.amount)) return say({ kind: "bad_amount", input: command.amount }, "usage");
  const below = new Big(command.amount.replace(",", ".")).toString();
  // The method must be one of the register's balances: its currency is the threshold's.
  const report = await deps.payments.balances(asked.registerKey);
  const balance = report.balances.find((one) => one.code === command.method);
  if (!balance) {
    const codes = report.balances.map((one) => one.code);
    return say({ kind: "unknown_method", method: command.method, codes }, "refused");
  }
  const { currency } = balance.amount;
  const result = await deps.balanceAlerts.set(
    asked.registerKey,
    {
      channel: asked.channel,
      method: command.method,
      below,
      currency,
      by: asked.user,
      at: asked.now.toISOString(),
    },
    asked.now.getTime(),
  );
  if (result === "too_many") return say({ kind: "too_many", max: MAX_ALERTS }, "refused");
  const audit = {
    object: `balance alert ${command.method} ${asked.channel}`,
    after: { channel: asked.channel, method: command.method, below, currency },
  };
  const answered = say(
    {
      kind: result === "added" ? "set" : "changed",
      method: command.method,
      below,
      currency,
      balance: balance.amount.value,
    },
    result === "added" ? "set" : "changed",
  );
  return { ...answered, audit };
}
