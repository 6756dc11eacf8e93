import { linkButton } from "../../blocks/button-values.js";
import { createNotAllowedMessage } from "../../blocks/invoice-create.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { reissue } from "../../links/reissue.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { reissueReply } from "../replies/reissue.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";
import { mayCreate } from "../workspace/settings.js";

type ReissueDeps = AnswerDeps &
  ManagerDeps &
  Pick<ListenerDeps, "payments" | "links" | "now" | "watches" | "feeds">;

/**
 * Re-issue (issue 51): on an expired unpaid card, a reminder, `/invoice unpaid`, and the warning's
 * Re-issue anyway. Anyone who may create invoices may re-issue one. Under a card (or a reminder)
 * the answer is a private note beside it; on the warning, it takes the warning's place.
 */
export const reissueButtonPressed =
  (deps: ReissueDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, context } = press;
    const send = (message: Record<string, unknown>, { failed }: { failed: boolean }) =>
      respond({ ...message, response_type: "ephemeral", replace_original: press.isPrivate && !failed });
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(linkButton.schema, action);
      const lang = await press.lang();
      if (value.t !== team) {
        const t = NOTICES_TEXT[lang];
        throw new RefusalError(ephemeral(t.foreignCard, t.foreignCardFallback), "foreign_card");
      }
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      note({ action: value.e ? "reissue anyway" : "reissue" });
      const permission = await mayCreate(deps, client, press.who);
      note({ creator: permission.why });
      if (!permission.allowed)
        return { reply: createNotAllowedMessage(lang), log: { outcome: "not_allowed" } };
      const name = register.several ? register.name : undefined;
      const done = await reissue(deps, client, {
        team,
        registerKey: register.key,
        register: name,
        user,
        confirmedEarly: value.e === 1,
        ref: value.k,
      });
      return reissueReply(done, { team, register: name, lang, note });
    });
  };
