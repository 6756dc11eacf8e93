import { cancelReadButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import { EXPORT_TEXT } from "../../i18n/export.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { type AnswerDeps, answer } from "../shared/answer.js";
import { readButtonValue } from "../shared/button-value.js";
import { langFor } from "../shared/manage.js";

/**
 * Cancel on an export's progress message: the export stops at its next page and its message says
 * who cancelled it (the export edits it); nothing is said here unless it was someone else's.
 */
export const cancelExport =
  (deps: AnswerDeps & Pick<ListenerDeps, "exports" | "stores">) =>
  async ({ ack, body, action, respond }: ActionArgs): Promise<void> => {
    await ack();
    const team = body.team?.id ?? body.user.team_id ?? "";
    const user = body.user.id;
    const context = { kind: "action", name: action.action_id, team, user } as const;
    const send = (message: SlackMessage) => respond({ ...message, replace_original: false });
    await answer(deps, context, send, async () => {
      const value = readButtonValue(cancelReadButton.schema, action);
      const result = value.t === team ? await deps.exports.cancel(team, value.j, user) : "not_yours";
      const lang = await langFor(deps, team);
      const reply =
        result === "not_yours" ? ephemeral(EXPORT_TEXT[lang].notYours, EXPORT_TEXT[lang].notYours) : null;
      return { reply, log: { outcome: "export_cancel", result } };
    });
  };
