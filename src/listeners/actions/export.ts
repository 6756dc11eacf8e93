import { cancelReadButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import { EXPORT_TEXT } from "../../i18n/export.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue } from "../contexts/button-value.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

/**
 * Cancel on an export's progress message, by its asker or an admin (who may manage the cash
 * register): the export stops at its next page and its message says who cancelled it (the export
 * edits it); an admin who cancelled someone else's is told so here, anyone else that they may not.
 */
export const cancelExport =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "exports" | "stores">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, context } = press;
    const send = (message: SlackMessage) => respond({ ...message, replace_original: false });
    await answer(deps, context, send, async () => {
      const value = readButtonValue(cancelReadButton.schema, action);
      const lang = await press.lang();
      const t = EXPORT_TEXT[lang];
      const notYours = {
        reply: ephemeral(t.notYours, t.notYours),
        log: { outcome: "export_cancel", result: "not_yours" },
      } as const;
      if (value.t !== team) return notYours;
      const asker = value.u ?? deps.exports.askerOf(value.j);
      if (asker !== user) {
        const manager = await checkManager(deps, client, press.who);
        if (!manager.allowed) return notYours;
      }
      await deps.exports.cancel(team, value.j, user);
      // A button from before it named its asker: only that it was cancelled.
      const toAdmin = asker ? t.cancelledForAsker(`<@${asker}>`) : t.cancelledFallback;
      const reply = asker === user ? null : ephemeral(toAdmin, t.cancelledFallback);
      return {
        reply,
        log: { outcome: "export_cancel", result: "cancelled", by: asker === user ? "asker" : "admin" },
      };
    });
  };
