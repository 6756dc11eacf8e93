import { invoiceButton } from "../../blocks/button-values.js";
import { actionContext, privateNote } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import { openRefundForm, type RefundFormDeps } from "../payouts/refund.js";
import type { ActionArgs } from "../router.js";
import { registerNamed } from "../workspace/register.js";
import { foreignCardMessage } from "./invoice.js";

/**
 * Refund, on a paid invoice's card (issue 52): the refund form for those who may request payouts,
 * the invoice read again first (paid, something left to refund); otherwise why not, privately.
 */
export const refundButton =
  (deps: AnswerDeps & RefundFormDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client, body } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = privateNote(respond);
    await answer(deps, press.context, send, async (note) => {
      const value = readButtonValue(invoiceButton.schema, action);
      note({ invoice: value.id });
      const lang = await press.lang();
      if (value.t !== press.teamId) throw new RefusalError(foreignCardMessage(lang), "foreign_card");
      const register = await registerNamed(deps.stores.registers, press.teamId, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      const asked = {
        team: press.teamId,
        user: press.userId,
        enterpriseId: body.enterprise?.id,
        channel: body.channel?.id ?? press.userId,
        triggerId: body.trigger_id,
        register: { ...register, rest: "" },
        lang,
        invoiceId: value.id,
        reason: "",
      };
      return openRefundForm(deps, client, asked, note);
    });
  };
