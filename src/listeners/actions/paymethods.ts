import { paymethodsPageButton as pageValue } from "../../blocks/button-values.js";
import { PAYMETHODS_ACTIONS } from "../../blocks/paymethods.js";
import { parsePaymethodsText } from "../../paymethods/text.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import type { ListenerDeps } from "../deps.js";
import { paymethodsReply } from "../replies/paymethods.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

/**
 * Previous / Next / Refresh: re-render the list in place (replace_original through response_url),
 * private lists staying private. Share in channel (private lists): post the page for everyone and
 * remove the private copy.
 */
export const paymethodsPageButton =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "payments" | "replyVisibility" | "paymethodsPages" | "methodSwitches">,
  ) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    // The workspace is the presser's own: a button can only ever show that workspace's methods.
    const { teamId: team, isPrivate, context } = actionContext(deps, args);
    const shared = action.action_id === PAYMETHODS_ACTIONS.share;
    // The list is replaced in place; an error goes only to the presser and leaves the list as it was.
    const send = pageSender(respond, shared);
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(pageValue.schema, action);
      const request = parsePaymethodsText(value.f);
      // A filter the command would not accept was not written by Kassa: the button is out of date.
      if (request.kind !== "list") throw new StaleButtonError(action.action_id);
      // A register since removed (or never this workspace's) is not replaced by another one.
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      note({ filter: value.f });
      note({ page: value.p });
      return paymethodsReply(
        deps,
        team,
        { filter: request.filter, page: value.p },
        {
          fresh: action.action_id === PAYMETHODS_ACTIONS.refresh,
          visibility: isPrivate && !shared ? "private" : "channel",
          register,
        },
      );
    });
  };
