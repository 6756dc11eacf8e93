import { notAllowedMessage } from "../../blocks/admin.js";
import { feedSettingsButton } from "../../blocks/button-values.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { actionContext, answerWherePressed } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { feedFormAnswer, openFeedForm } from "../feeds/form.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { keptElsewhereReply, registerNamed } from "../workspace/register.js";

/**
 * A feed's Settings (its welcome message, /invoice status, App Home): opens that channel's feed form
 * of the register the button names (main's when it names none, as buttons from before registers)
 * for those who may change feeds. Anyone else is told who can: privately under the message, or on
 * App Home (which has no response_url) by publishing the tab again.
 */
export const openFeedSettings =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "payments" | "feeds" | "replyVisibility" | "defaultApiVersion" | "callbacks">,
  ) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, body, action, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId, who, context } = press;
    const send = answerWherePressed(deps, args, press, { replaceOriginal: false });
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(feedSettingsButton.schema, action);
      note({ action: "feed" });
      const lang = await press.lang();
      if (value.t !== teamId) {
        const text = NOTICES_TEXT[lang];
        throw new RefusalError(ephemeral(text.foreignCard, text.foreignCardFallback), "foreign_card");
      }
      // The feed's register, as its button names it: one removed since is out of date, one kept to
      // other channels (since the feed was made) is refused here.
      const register = await registerNamed(deps.stores.registers, teamId, value.r, value.c);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      const kept = keptElsewhereReply(register, lang);
      if (kept) return { reply: kept, log: { outcome: "register_kept_elsewhere" } };
      const opened = await openFeedForm(deps, client, {
        ...who,
        channelId: value.c,
        triggerId: body.trigger_id,
        register,
      });
      if (opened.kind === "not_allowed" || opened.kind === "not_a_channel") {
        note({ manager: opened.kind === "not_allowed" ? opened.why : undefined });
        throw new RefusalError(notAllowedMessage("feed", lang), "not_allowed");
      }
      return feedFormAnswer(opened, lang);
    });
  };
