import {
  balanceHelpMessage,
  balanceNotAllowedMessage,
  balanceUsageMessage,
  buildBalanceMessage,
} from "../../blocks/balance.js";
import { PaymentsError } from "../../payments/errors.js";
import { type AnswerDeps, answer } from "../answer.js";
import type { ListenerDeps } from "../deps.js";
import { balanceVisibilityFor } from "../manage.js";
import { checkManager, type ManagerDeps } from "../permissions.js";
import type { CommandArgs } from "../router.js";

export const BALANCE_COMMAND = "/balance";

/**
 * `/balance [help]`: the cash register's balances, as an ephemeral reply, to admins (or to
 * everyone when the workspace chose so). The permission is checked before the service is asked.
 */
export const balanceCommand =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payments">) =>
  async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    await ack();
    const context = {
      kind: "command",
      name: BALANCE_COMMAND,
      team: command.team_id,
      user: command.user_id,
    } as const;
    await answer(deps, context, respond, async (outcome) => {
      const text = command.text.trim();
      const visibility = await balanceVisibilityFor(deps, command.team_id);
      if (/^(help|\?|-h|--help)$/i.test(text)) {
        outcome.outcome = "help";
        return balanceHelpMessage(visibility);
      }
      if (text !== "") {
        outcome.outcome = "usage";
        return balanceUsageMessage(text);
      }
      outcome.visibility = visibility;
      if (visibility === "admins") {
        const manager = await checkManager(deps, client, {
          userId: command.user_id,
          teamId: command.team_id,
          enterpriseId: command.enterprise_id,
        });
        outcome.manager = manager.why;
        if (!manager.allowed) {
          outcome.outcome = "not_allowed";
          return balanceNotAllowedMessage();
        }
      }
      const report = await deps.payments.balances(command.team_id);
      outcome.cached = report.fromCache;
      if (!report.fromCache) outcome.upstreamStatus = 200;
      outcome.balances = report.balances.length;
      if (report.unreadable.length > 0) {
        outcome.unreadable = report.unreadable.length;
        if (!report.fromCache) {
          // Codes and schema paths only, as for the method list.
          deps.logger.warn(
            { team: command.team_id, unreadable: report.unreadable.slice(0, 20) },
            "balance entries left out",
          );
        }
      }
      if (report.ratesError) {
        // Only the total is lost; the balances still go out. PaymentsError messages hold no secret.
        outcome.rates = "failed";
        outcome.ratesError =
          report.ratesError instanceof PaymentsError ? report.ratesError.message : String(report.ratesError);
      } else {
        outcome.rates = report.toPrice.length === 0 ? "not_needed" : "ok";
      }
      return buildBalanceMessage({
        balances: report.balances,
        unreadable: report.unreadable.length,
        fetchedAt: report.fetchedAt,
        rates: report.rates,
      });
    });
  };
