import type { SlackMessage } from "../../blocks/message.js";
import {
  filterText,
  type PaymethodsView,
  paymethodsHelpMessage,
  paymethodsNoMatchMessage,
  paymethodsUsageMessage,
} from "../../blocks/paymethods.js";
import { answer, type Outcome } from "../answer.js";
import type { ListenerDeps } from "../index.js";
import type { ListenerRouter } from "../router.js";
import { parsePaymethodsText } from "./paymethods-text.js";

export const PAYMETHODS_COMMAND = "/paymethods";

/** Reads the workspace's methods (cached unless `fresh`) and builds the page `view` asks for. */
export async function paymethodsReply(
  deps: ListenerDeps,
  teamId: string,
  view: PaymethodsView,
  outcome: Outcome,
  options: { fresh?: boolean } = {},
): Promise<SlackMessage> {
  const list = await deps.payments.methods(teamId, options);
  outcome.cached = list.fromCache;
  if (!list.fromCache) outcome.upstreamStatus = 200;
  outcome.methods = list.methods.length;
  if (!list.fromCache && list.unreadable.length > 0) {
    // Codes and schema paths only: what an operator needs to see which entries the service changed.
    deps.logger.warn(
      { team: teamId, unreadable: list.unreadable.slice(0, 20) },
      "method list entries left out",
    );
  }
  const message = deps.paymethodsPages.message(list.methods, view, {
    fetchedAt: list.fetchedAt,
    leftOut: { payoutOnly: list.payoutOnly, unreadable: list.unreadable.length },
  });
  if (!message) {
    outcome.outcome = "no_match";
    return paymethodsNoMatchMessage(filterText(view.filter));
  }
  return message;
}

export function registerPaymethodsCommand(router: ListenerRouter, deps: ListenerDeps): void {
  router.command(PAYMETHODS_COMMAND, async ({ command, ack, respond }) => {
    await ack();
    const context = {
      kind: "command",
      name: PAYMETHODS_COMMAND,
      team: command.team_id,
      user: command.user_id,
    } as const;
    await answer(deps, context, respond, async (outcome) => {
      const request = parsePaymethodsText(command.text);
      if (request.kind === "help") {
        outcome.outcome = "help";
        return paymethodsHelpMessage();
      }
      if (request.kind === "invalid") {
        outcome.outcome = "usage";
        return paymethodsUsageMessage(request.reason, request.input);
      }
      outcome.filter = filterText(request.filter);
      return paymethodsReply(deps, command.team_id, { filter: request.filter, page: 1 }, outcome);
    });
  });
}
