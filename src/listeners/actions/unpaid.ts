import { unpaidPageButton } from "../../blocks/button-values.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import type { PeriodName } from "../../reports/periods.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { unpaidReply } from "../replies/unpaid.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

/** `/invoice unpaid`'s Previous / Next: the page asked for, in place, still private. */
export const unpaidPageButtonPressed =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payments" | "now" | "links" | "serviceTimeZone">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    const press = actionContext(deps, args);
    const { teamId: team, context } = press;
    await answer(deps, context, pageSender(respond, false), async (note) => {
      const value = readButtonValue(unpaidPageButton.schema, action);
      const lang = await press.lang();
      if (value.t !== team)
        throw new RefusalError(
          ephemeral(NOTICES_TEXT[lang].foreignList, NOTICES_TEXT[lang].foreignListFallback),
          "foreign_card",
        );
      // A register since removed is not replaced by another one: the list is out of date.
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      note({ action: `unpaid ${value.d}` });
      note({ page: value.p });
      if (register.several) note({ register: register.name });
      const request = { period: value.d as PeriodName, customer: value.c ?? null, page: value.p };
      return unpaidReply(deps, team, request, register);
    });
  };
