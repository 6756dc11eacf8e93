import { recordAct } from "../../audit/index.js";
import { scheduleButton } from "../../blocks/button-values.js";
import { SCHEDULE_ACTIONS } from "../../blocks/ids.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { SCHEDULES_TEXT } from "../../i18n/schedules.js";
import type { Toggled } from "../../link-schedules/book.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import { type RecurringDeps, recurringList } from "../replies/recurring.js";
import type { ActionArgs } from "../router.js";
import { checkManager } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

// `/invoice recurring`'s Pause, Resume and Delete: for the schedule's owner and the workspace's admins;
// each one compare-and-set (two clicks, two replicas: one change), written in the audit trail, and
// the list shown again in the message's place.

type ScheduleActionDeps = AnswerDeps & RecurringDeps & Pick<ListenerDeps, "audit">;

const CHANGES = {
  [SCHEDULE_ACTIONS.pause]: { change: "paused", action: "schedule.paused" },
  [SCHEDULE_ACTIONS.resume]: { change: "resumed", action: "schedule.resumed" },
  [SCHEDULE_ACTIONS.remove]: { change: "deleted", action: "schedule.deleted" },
} as const;

export const scheduleButtonPressed =
  (deps: ScheduleActionDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, context } = press;
    await answer(deps, context, pageSender(respond, false), async () => {
      const value = readButtonValue(scheduleButton.schema, action);
      const lang = await press.lang();
      if (value.t !== team) throw new RefusalError(reply(NOTICES_TEXT[lang].foreignCard), "foreign_card");
      const register = await registerNamed(deps.stores.registers, team, value.r);
      const what = CHANGES[action.action_id as keyof typeof CHANGES];
      if (!register || !what) throw new StaleButtonError(action.action_id);
      const reader = { ...press.who, registerKey: register.key, register: value.r };
      const schedule = await deps.schedules.read(register.key, value.s);
      if (!schedule) {
        const { reply: list } = await recurringList(deps, client, reader, lang);
        return { reply: withNote(list, SCHEDULES_TEXT[lang].gone), log: { outcome: "stale_button" } };
      }
      if (schedule.owner !== user && !(await checkManager(deps, client, press.who)).allowed)
        throw new RefusalError(reply(SCHEDULES_TEXT[lang].notYours(`<@${schedule.owner}>`)), "not_allowed");
      const done = await changed(deps, what.change, register.key, value.s, user);
      if (done.changed)
        await recordAct(deps.audit, deps.logger, {
          team,
          ...(value.r ? { register: value.r } : {}),
          actor: user,
          action: what.action,
          object: `schedule ${schedule.id}`,
          after: { amount: schedule.order.amount, currency: schedule.order.currency, owner: schedule.owner },
          outcome: "done",
        });
      const { reply: list } = await recurringList(deps, client, reader, lang);
      return { reply: list, log: { outcome: "ok" } };
    });
  };

function changed(
  deps: ScheduleActionDeps,
  change: string,
  registerKey: string,
  id: string,
  user: string,
): Promise<Toggled> {
  if (change === "paused") return deps.schedules.pause(registerKey, id, user);
  if (change === "resumed") return deps.schedules.resume(registerKey, id);
  return deps.schedules.remove(registerKey, id);
}

function reply(text: string) {
  return ephemeral(text, text);
}

/** The list with a line on top saying what happened. */
function withNote(list: ReturnType<typeof reply>, text: string) {
  return {
    ...list,
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...(list.blocks ?? [])],
  } as typeof list;
}
