import {
  balanceHelpMessage,
  balanceNotAllowedMessage,
  balanceUsageMessage,
  buildBalanceMessage,
} from "../../blocks/balance.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { Lang } from "../../i18n/lang.js";
import { rubTotal } from "../../payments/balance-total.js";
import { PaymentsError } from "../../payments/errors.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { commandContext } from "../contexts/command-context.js";
import type { BalancesRead, CommandOutcome } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import type { CommandArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, keptElsewhereReply, withRegisterFooter } from "../workspace/register.js";
import { balanceVisibilityFor } from "../workspace/settings.js";
import { answerAlertCommand, parseAlertCommand } from "./balance-alert.js";

export const BALANCE_COMMAND = "/balance";

/**
 * `/balance [REGISTER] [help]`: the cash register's balances (the channel's, or the one named), as an ephemeral reply, to admins (or to
 * everyone when the workspace chose so). The permission is checked before the service is asked.
 */
export const balanceCommand =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payments" | "balanceAlerts" | "now">) =>
  async ({ command, ack, respond, client, context: request }: CommandArgs): Promise<void> => {
    await ack();
    const context = commandContext(deps, client, BALANCE_COMMAND, command, request);
    await answer(deps, context, respond, async (note) => {
      const chosen = await context.register(note);
      const text = chosen.rest;
      const visibility = await balanceVisibilityFor(deps, command.team_id);
      const lang = await context.lang();
      const kept = keptElsewhereReply(chosen, lang);
      if (kept) return { reply: kept, log: { outcome: "register_kept_elsewhere" } };
      if (/^(help|\?|-h|--help)$/i.test(text)) {
        return { reply: balanceHelpMessage(visibility, lang), log: { outcome: "help" } };
      }
      const alert = parseAlertCommand(text);
      if (text !== "" && !alert) {
        return { reply: balanceUsageMessage(text, lang), log: { outcome: "usage" } };
      }
      note({ visibility });
      if (visibility === "admins") {
        const manager = await checkManager(deps, client, {
          userId: command.user_id,
          teamId: command.team_id,
          enterpriseId: command.enterprise_id,
        });
        note({ manager: manager.why });
        if (!manager.allowed)
          return { reply: balanceNotAllowedMessage(lang), log: { outcome: "not_allowed" } };
      }
      if (alert) {
        const asked = {
          registerKey: chosen.key,
          channel: command.channel_id,
          user: command.user_id,
          lang,
          now: deps.now(),
        };
        const answered = await answerAlertCommand(deps, alert, asked);
        if (answered.audit) note({ audit: answered.audit });
        return { log: answered.log, reply: withRegisterFooter(answered.reply, chosen, lang) };
      }
      return balancesReply(deps, chosen, command.team_id, lang);
    });
  };

type Report = Awaited<ReturnType<ListenerDeps["payments"]["balances"]>>;

/** What the log line says of the balances read: cached or not, how many, and the rates' fate. */
function balancesRead(report: Report): BalancesRead {
  const rates: Pick<BalancesRead, "rates" | "ratesError"> = report.ratesError
    ? // Only the total is lost; the balances still go out. PaymentsError messages hold no secret.
      {
        rates: "failed",
        ratesError:
          report.ratesError instanceof PaymentsError ? report.ratesError.message : String(report.ratesError),
      }
    : { rates: report.toPrice.length === 0 ? "not_needed" : "ok" };
  return {
    cached: report.fromCache,
    ...(report.fromCache ? {} : { upstreamStatus: 200 as const }),
    balances: report.balances.length,
    ...(report.unreadable.length > 0 ? { unreadable: report.unreadable.length } : {}),
    ...rates,
  };
}

/** The balances read and shown (the cache's or the service's), with what the log line says of them. */
async function balancesReply(
  deps: AnswerDeps & Pick<ListenerDeps, "payments">,
  chosen: ChosenRegister,
  team: string,
  lang: Lang,
): Promise<{ reply: SlackMessage; log: CommandOutcome }> {
  const report = await deps.payments.balances(chosen.key);
  const read = balancesRead(report);
  if (report.unreadable.length > 0 && !report.fromCache) {
    // Codes and schema paths only, as for the method list.
    deps.logger.warn(
      { team: team, register: chosen.name, unreadable: report.unreadable.slice(0, 20) },
      "balance entries left out",
    );
  }
  const total = report.rates ? rubTotal(report.balances, report.rates.prices) : null;
  if (total?.kind === "implausible") {
    // The reply only says the rate looks wrong; the operator needs the figures to take it up.
    const prices = Object.fromEntries(total.currencies.map((code) => [code, report.rates?.prices[code]]));
    deps.logger.warn(
      { team: team, register: chosen.name, prices },
      "exchange rates look wrong; no total shown",
    );
  }
  // Only needed where the service gave codes without names (v2); never delays the reply long.
  const names = report.balances.some((balance) => balance.name === null)
    ? await deps.payments.methodNamesWithin(chosen.key)
    : undefined;
  const reply = withRegisterFooter(
    buildBalanceMessage({
      balances: report.balances.map((balance) => ({
        ...balance,
        name: balance.name ?? names?.get(balance.code) ?? null,
      })),
      unreadable: report.unreadable.length,
      fetchedAt: report.fetchedAt,
      rates: report.rates,
      lang,
    }),
    chosen,
    lang,
  );
  return { reply, log: { outcome: "ok", ...read } };
}
