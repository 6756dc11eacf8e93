import { methodAlertButton } from "../../blocks/button-values.js";
import { methodSnoozedLine, methodSnoozeWatchOff } from "../../blocks/method-watch.js";
import { parsePaymethodsText } from "../../paymethods/text.js";
import { actionContext, privateNote } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import type { ListenerDeps } from "../deps.js";
import { paymethodsReply } from "../replies/paymethods.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

// A payment method's alert (the methods watch): Snooze 2 h and Methods. Switch off at the service is
// the switching's own handler. Anyone who can see the alert may snooze it (the channel's members: a
// snooze only quiets the alert, it changes nothing at the service); who did is said in the alert's
// thread for everyone to see, and written in the audit trail.

/** How long Snooze quiets a method's alerts. */
export const SNOOZE_MS = 2 * 3_600_000;

export const methodAlertSnooze =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "methodWatches" | "now" | "serviceTimeZone">) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, body, client } = args;
    await ack();
    const { teamId, userId, lang, context } = actionContext(deps, args, { offersConnect: false });
    await answer(deps, context, privateNote(respond), async (note) => {
      const value = readButtonValue(methodAlertButton.schema, action);
      const register = await registerNamed(deps.stores.registers, teamId, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      const until = deps.now().getTime() + SNOOZE_MS;
      if (!(await deps.methodWatches.snooze(register.key, value.c, until)))
        return {
          reply: methodSnoozeWatchOff(await lang()),
          log: { outcome: "method_snooze_watch_off", method: value.c },
        };
      note({ audit: { object: `method ${value.c}`, after: { until: new Date(until).toISOString() } } });
      const line = methodSnoozedLine(
        { user: userId, method: { code: value.c, name: value.c }, until, zone: deps.serviceTimeZone },
        await lang(),
      );
      const channel = body.channel?.id;
      const thread = body.message?.thread_ts ?? body.message?.ts;
      if (channel && thread) {
        // In the alert's thread for everyone; where that cannot be posted, to the presser alone.
        const posted = await client.chat
          .postMessage({ channel, thread_ts: thread, text: line.text, blocks: line.blocks })
          .then(
            () => true,
            () => false,
          );
        if (posted)
          return { reply: null, log: { outcome: "method_snoozed", method: value.c, snoozeSaid: "thread" } };
      }
      return { reply: line, log: { outcome: "method_snoozed", method: value.c, snoozeSaid: "ephemeral" } };
    });
  };

/** Methods: the register's `/paymethods` list, first page, to the presser alone. */
export const methodAlertMethods =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "payments" | "replyVisibility" | "paymethodsPages" | "methodSwitches">,
  ) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    const { teamId, context } = actionContext(deps, args);
    await answer(deps, context, privateNote(respond), async (note) => {
      const value = readButtonValue(methodAlertButton.schema, action);
      const register = await registerNamed(deps.stores.registers, teamId, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      const request = parsePaymethodsText("");
      if (request.kind !== "list") throw new StaleButtonError(action.action_id);
      return paymethodsReply(
        deps,
        teamId,
        { filter: request.filter, page: 1 },
        { fresh: true, visibility: "private", register },
      );
    });
  };
