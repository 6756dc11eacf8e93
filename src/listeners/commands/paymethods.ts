import type { ReplyVisibility } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import {
  type PaymethodsView,
  paymethodsHelpMessage,
  paymethodsNoMatchMessage,
  paymethodsUsageMessage,
} from "../../blocks/paymethods.js";
import { filterText } from "../../payments/method-filter.js";
import { type AnswerDeps, answer } from "../answer.js";
import type { ListenerDeps } from "../deps.js";
import { helpFactsFor, visibilityFor } from "../manage.js";
import type { Produced } from "../outcome.js";
import { canManageCheck, type ManagerDeps } from "../permissions.js";
import type { CommandArgs } from "../router.js";
import { parsePaymethodsText } from "./paymethods-text.js";

export const PAYMETHODS_COMMAND = "/paymethods";

/**
 * Reads the workspace's methods (cached unless `fresh`) and builds the page `view` asks for, for
 * the channel or privately for the asker (the workspace's reply choice, unless `visibility` says).
 * Its outcome: ok, or no_match when nothing matches the filter, with what was read.
 */
export async function paymethodsReply(
  deps: Pick<ListenerDeps, "payments" | "stores" | "replyVisibility" | "logger" | "paymethodsPages">,
  teamId: string,
  view: PaymethodsView,
  options: { fresh?: boolean; visibility?: ReplyVisibility } = {},
): Promise<Produced & { reply: SlackMessage }> {
  const [list, visibility] = await Promise.all([
    deps.payments.methods(teamId, { fresh: options.fresh ?? false }),
    options.visibility ?? visibilityFor(deps, teamId),
  ]);
  const read = {
    cached: list.fromCache,
    ...(list.fromCache ? {} : { upstreamStatus: 200 as const }),
    methods: list.methods.length,
  };
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
    visibility,
  });
  if (!message) {
    return {
      reply: paymethodsNoMatchMessage(filterText(view.filter)),
      log: { outcome: "no_match", ...read },
    };
  }
  return { reply: message, log: { outcome: "ok", ...read } };
}

export const paymethodsCommand =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "payments" | "replyVisibility" | "watches" | "paymethodsPages">,
  ) =>
  async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    await ack();
    const context = {
      kind: "command",
      name: PAYMETHODS_COMMAND,
      team: command.team_id,
      user: command.user_id,
      canManage: canManageCheck(deps, client, {
        userId: command.user_id,
        teamId: command.team_id,
        enterpriseId: command.enterprise_id,
      }),
    } as const;
    await answer(deps, context, respond, async (noted) => {
      const request = parsePaymethodsText(command.text);
      if (request.kind === "help") {
        return {
          reply: paymethodsHelpMessage(await helpFactsFor(deps, command.team_id)),
          log: { outcome: "help" },
        };
      }
      if (request.kind === "invalid") {
        return { reply: paymethodsUsageMessage(request.reason, request.input), log: { outcome: "usage" } };
      }
      noted.filter = filterText(request.filter);
      return paymethodsReply(deps, command.team_id, { filter: request.filter, page: 1 });
    });
  };
