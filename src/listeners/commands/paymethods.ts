import { paymethodsHelpMessage, paymethodsUsageMessage } from "../../blocks/paymethods.js";
import { filterText } from "../../payments/method-filter.js";
import { parsePaymethodsText } from "../../paymethods/text.js";
import type { ListenerDeps } from "../deps.js";
import { paymethodsReply } from "../replies/paymethods.js";
import type { CommandArgs } from "../router.js";
import { type AnswerDeps, answer } from "../shared/answer.js";
import { commandContext } from "../shared/command-context.js";
import { helpFactsFor, langFor } from "../shared/manage.js";
import type { ManagerDeps } from "../shared/permissions.js";
import { chooseRegister, keptElsewhereReply } from "../shared/register.js";

export const PAYMETHODS_COMMAND = "/paymethods";

export const paymethodsCommand =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "payments" | "replyVisibility" | "watches" | "paymethodsPages">,
  ) =>
  async ({ command, ack, respond, client, context: request }: CommandArgs): Promise<void> => {
    await ack();
    const context = commandContext(deps, client, PAYMETHODS_COMMAND, command, request);
    await answer(deps, context, respond, async (noted) => {
      const register = await chooseRegister(
        deps.stores.registers,
        command.team_id,
        command.channel_id,
        command.text,
      );
      if (register.several) noted.register = register.name;
      const kept = keptElsewhereReply(register, await langFor(deps, command.team_id));
      if (kept) return { reply: kept, log: { outcome: "register_kept_elsewhere" } };
      const request = parsePaymethodsText(register.rest);
      if (request.kind === "help") {
        return {
          reply: paymethodsHelpMessage(
            await helpFactsFor(deps, command.team_id),
            await langFor(deps, command.team_id),
          ),
          log: { outcome: "help" },
        };
      }
      if (request.kind === "invalid") {
        const lang = await langFor(deps, command.team_id);
        return {
          reply: paymethodsUsageMessage(request.reason, request.input, lang),
          log: { outcome: "usage" },
        };
      }
      noted.filter = filterText(request.filter);
      return paymethodsReply(deps, command.team_id, { filter: request.filter, page: 1 }, { register });
    });
  };
