import { methodAlertButton } from "../../blocks/button-values.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { openSwitch, type SwitchOpenDeps } from "../paymethods/switch.js";
import type { ActionArgs } from "../router.js";
import { registerNamed } from "../workspace/register.js";

/**
 * The methods watch alert's Switch off at the service: the same confirmation as `/paymethods off
 * CODE` (admins only; others are told who can, privately), for the alert's register and method.
 */
export const methodAlertSwitchOff =
  (deps: AnswerDeps & SwitchOpenDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, body, client, respond } = args;
    await ack();
    const { teamId, who, lang, context } = actionContext(deps, args, { offersConnect: false });
    // A refusal or failure is a new private note: the alert stays as it is for everyone.
    const send = (message: Record<string, unknown>) => respond({ ...message, replace_original: false });
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(methodAlertButton.schema, action);
      const register = await registerNamed(deps.stores.registers, teamId, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      const asked = {
        team: teamId,
        user: who.userId,
        enterpriseId: who.enterpriseId,
        triggerId: body.trigger_id,
        register,
        code: value.c.toUpperCase(),
        want: { on: false },
        lang: await lang(),
        action: "off",
      } as const;
      return openSwitch(deps, client, asked, note);
    });
  };
