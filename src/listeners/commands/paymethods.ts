import { paymethodsHelpMessage, paymethodsUsageMessage } from "../../blocks/paymethods.js";
import { filterText } from "../../payments/method-filter.js";
import { parsePaymethodsText } from "../../paymethods/text.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { commandContext } from "../contexts/command-context.js";
import type { ListenerDeps } from "../deps.js";
import { openSwitch, type SwitchOpenDeps } from "../paymethods/switch.js";
import { paymethodsReply } from "../replies/paymethods.js";
import type { CommandArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { keptElsewhereReply, withRegisterFooter } from "../workspace/register.js";
import { helpFactsFor } from "../workspace/settings.js";
import { paymethodsWatch } from "./paymethods-watch.js";

export const PAYMETHODS_COMMAND = "/paymethods";

export const paymethodsCommand =
  (
    deps: AnswerDeps &
      ManagerDeps &
      SwitchOpenDeps &
      Pick<ListenerDeps, "payments" | "replyVisibility" | "watches" | "paymethodsPages" | "methodWatches">,
  ) =>
  async ({ command, ack, respond, client, context: request }: CommandArgs): Promise<void> => {
    await ack();
    const context = commandContext(deps, client, PAYMETHODS_COMMAND, command, request);
    await answer(deps, context, respond, async (note) => {
      const register = await context.register(note);
      const kept = keptElsewhereReply(register, await context.lang());
      if (kept) return { reply: kept, log: { outcome: "register_kept_elsewhere" } };
      const request = parsePaymethodsText(register.rest);
      if (request.kind === "help") {
        return {
          reply: paymethodsHelpMessage(await helpFactsFor(deps, command.team_id), await context.lang()),
          log: { outcome: "help" },
        };
      }
      if (request.kind === "invalid") {
        const lang = await context.lang();
        return {
          reply: paymethodsUsageMessage(request.reason, request.input, lang),
          log: { outcome: "usage" },
        };
      }
      if (request.kind === "switch" || request.kind === "surcharge") {
        const want = request.kind === "switch" ? { on: request.on } : { surcharge: request.percent };
        const action = request.kind === "switch" ? (request.on ? "on" : "off") : "surcharge";
        const asked = {
          team: command.team_id,
          user: command.user_id,
          enterpriseId: command.enterprise_id,
          triggerId: command.trigger_id,
          register,
          code: request.code,
          want,
          lang: await context.lang(),
          action,
        } as const;
        const { reply, log } = await openSwitch(deps, client, asked, note);
        return { reply: reply && withRegisterFooter(reply, register, asked.lang), log };
      }
      if (request.kind === "watch" || request.kind === "watch_off") {
        const asked = { ...command, chosen: register, lang: await context.lang() };
        return paymethodsWatch(deps, client, request.kind, asked, note);
      }
      note({ filter: filterText(request.filter) });
      return paymethodsReply(deps, command.team_id, { filter: request.filter, page: 1 }, { register });
    });
  };
