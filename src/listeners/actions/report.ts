import { cancelReadButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue } from "../contexts/button-value.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";

/**
 * Cancel on a report's progress: marked in the store, so the replica reading the history (this one
 * or another) stops after its page and replaces the progress with who cancelled it.
 */
export const cancelReport =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "cancels">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, context } = press;
    const send = (message: SlackMessage) => respond(message);
    await answer(deps, context, send, async () => {
      const value = readButtonValue(cancelReadButton.schema, action);
      if (value.t !== team) return { reply: null, log: { outcome: "report_cancel", result: "not_yours" } };
      await deps.cancels.mark(value.j, user);
      return { reply: null, log: { outcome: "report_cancel", result: "cancelled" } };
    });
  };
