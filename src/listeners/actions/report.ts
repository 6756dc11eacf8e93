import { cancelReadButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { type AnswerDeps, answer } from "../shared/answer.js";
import { readButtonValue } from "../shared/button-value.js";

/**
 * Cancel on a report's progress: marked in the store, so the replica reading the history (this one
 * or another) stops after its page and replaces the progress with who cancelled it.
 */
export const cancelReport =
  (deps: AnswerDeps & Pick<ListenerDeps, "cancels">) =>
  async ({ ack, body, action, respond }: ActionArgs): Promise<void> => {
    await ack();
    const team = body.team?.id ?? body.user.team_id ?? "";
    const user = body.user.id;
    const context = { kind: "action", name: action.action_id, team, user } as const;
    const send = (message: SlackMessage) => respond(message);
    await answer(deps, context, send, async () => {
      const value = readButtonValue(cancelReadButton.schema, action);
      if (value.t !== team) return { reply: null, log: { outcome: "report_cancel", result: "not_yours" } };
      await deps.cancels.mark(value.j, user);
      return { reply: null, log: { outcome: "report_cancel", result: "cancelled" } };
    });
  };
