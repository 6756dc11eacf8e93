import { listPageButton } from "../../blocks/button-values.js";
import { LIST_ACTIONS } from "../../blocks/ids.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { invoiceListReply } from "../replies/invoice-list.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

/**
 * Previous / Next: the list's page in place, still private. Share in channel: the page for everyone
 * ("shared by", no page buttons) and the private copy removed. Errors go only to the presser.
 */
export const invoiceListButton =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payments" | "now">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    const press = actionContext(deps, args);
    const { teamId: team, userId: user, context } = press;
    const shared = action.action_id === LIST_ACTIONS.share;
    const send = pageSender(respond, shared);
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(listPageButton.schema, action);
      const lang = await press.lang();
      if (value.t !== team)
        throw new RefusalError(
          ephemeral(NOTICES_TEXT[lang].foreignList, NOTICES_TEXT[lang].foreignListFallback),
          "foreign_card",
        );
      // A register since removed is not replaced by another one: the list is out of date.
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      note({ filter: value.f });
      note({ page: value.p });
      if (register.several) note({ register: register.name });
      return invoiceListReply(
        deps,
        team,
        {
          filter: value.f,
          page: value.p,
          visibility: shared ? "channel" : "private",
          ...(shared ? { sharedBy: user } : {}),
        },
        register,
      );
    });
  };
