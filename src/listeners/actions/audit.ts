import { auditPeriodOf } from "../../audit/periods.js";
import { auditPageButton } from "../../blocks/button-values.js";
import { ephemeral } from "../../blocks/replies.js";
import { AUDIT_TEXT } from "../../i18n/audit.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { auditListReply } from "../replies/audit-list.js";
import type { ActionArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

/**
 * `/invoice audit`'s Older: the next, older page in place, still private. The value is only where
 * that page starts and what the listing asked for; the presser must be an admin of the workspace it
 * names (checked again: a member pressing a forwarded copy is refused, and that is recorded).
 */
export const auditOlderButton =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "audit" | "now">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, client, respond } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    await answer(deps, press.context, pageSender(respond, false), async (note) => {
      const value = readButtonValue(auditPageButton.schema, action);
      const lang = await press.lang();
      if (value.t !== press.teamId)
        throw new RefusalError(
          ephemeral(NOTICES_TEXT[lang].foreignList, NOTICES_TEXT[lang].foreignListFallback),
          "foreign_card",
        );
      note({ action: `audit older ${value.b}` });
      const manager = await checkManager(deps, client, press.who);
      note({ manager: manager.why });
      if (!manager.allowed) {
        const text = AUDIT_TEXT[lang].notAllowed;
        return { reply: ephemeral(text, text), log: { outcome: "not_allowed" } };
      }
      const period = auditPeriodOf(value.p);
      if (!period) throw new StaleButtonError(action.action_id);
      const query = { period, what: value.w ?? null, person: value.a ?? null, before: value.b };
      return { reply: await auditListReply(deps, press.teamId, query, lang), log: { outcome: "ok" } };
    });
  };
