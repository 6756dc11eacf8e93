import { z } from "zod";
import { notAllowedMessage } from "../../blocks/admin.js";
import {
  METHOD_SWITCH_VIEW,
  type SwitchOrigin,
  type SwitchShown,
  switchAnswerModal,
  switchSendingModal,
} from "../../blocks/method-switch.js";
import { wantSchema } from "../../paymethods/switch-state.js";
import { handledSubmission } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { failureShown } from "../paymethods/switch.js";
import type { ViewArgs } from "../router.js";
import { checkManager } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

const originSchema = z.object({
  t: z.string().min(1).max(32),
  r: z.string().min(1).max(20),
  c: z.string().regex(/^[A-Z0-9][A-Z0-9_-]{0,39}$/),
  w: wantSchema,
});

type SwitchViewDeps = Pick<
  ListenerDeps,
  "methodSwitches" | "stores" | "logger" | "inFlight" | "audit" | "adminUserIds" | "timeoutMs"
>;

/**
 * A switch's confirmation submitted: answered at once with "switching…" in its place, then (the
 * submitter checked again as an admin) one edit sent by whichever submission of this modal takes
 * the method's record first, and the modal updated with what the service shows. The modal's view
 * id is the confirmation's id: the same modal submitted twice is sent once.
 */
export const methodSwitchSubmission =
  (deps: SwitchViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, enterpriseId, lang } = await viewContext(deps, body);
    const where = { view: METHOD_SWITCH_VIEW, team, user, field: "method", lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const form = readSubmission(view, team, { origin: originSchema });
      if (!form) {
        await reply();
        return { outcome: "bad_form" };
      }
      const origin: SwitchOrigin = form.origin;
      await reply({ response_action: "update", view: switchSendingModal(origin, lang) });
      // The modal closed meanwhile: what was done stands (the audit, the list), only its answer is lost.
      const show = (shown: SwitchShown) =>
        client.views
          .update({ view_id: view.id, view: switchAnswerModal(shown, origin, lang) })
          .catch((error: unknown) =>
            deps.logger.warn({ team, err: error, code: origin.c }, "method switch answer not shown"),
          );
      note({ action: actionOf(origin), audit: { object: `method ${origin.c}` } });
      const manager = await checkManager(deps, client, { userId: user, teamId: team, enterpriseId });
      note({ manager: manager.why });
      if (!manager.allowed) {
        await show({ kind: "failed", text: notAllowedMessage("methods", lang).text });
        return { outcome: "not_allowed" };
      }
      const register = await registerNamed(deps.stores.registers, team, origin.r);
      if (!register) return { outcome: "bad_form" };
      if (register.several) note({ register: register.name });
      const target = { registerKey: register.key, code: origin.c };
      try {
        const confirmed = await deps.methodSwitches.confirm(target, {
          id: view.id,
          want: origin.w,
          by: user,
        });
        await show(confirmed);
        return { outcome: "method_switch", step: "confirmed", result: confirmed.kind };
      } catch (error) {
        const { shown, reference } = failureShown(deps, error, lang);
        await show(shown);
        const failed = reference ? { reference, err: error } : {};
        return { outcome: "method_switch", step: "confirmed", result: "failed", ...failed };
      }
    });
  };

const actionOf = (origin: SwitchOrigin) =>
  origin.w.surcharge !== undefined ? "method-surcharge" : origin.w.on ? "method-on" : "method-off";
