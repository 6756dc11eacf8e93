import type { types, webApi } from "@slack/bolt";
import { notAllowedMessage } from "../../blocks/admin.js";
import {
  type SwitchOrigin,
  type SwitchShown,
  switchAnswerModal,
  switchConfirmModal,
  switchReadingModal,
} from "../../blocks/method-switch.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import type { SwitchWant } from "../../paymethods/switch-state.js";
import { slackErrorCode } from "../../slack/error.js";
import { newReference } from "../../util/logger.js";
import { replyForFailure } from "../contexts/error-reply.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

/** What opening a switch's confirmation uses. */
export type SwitchOpenDeps = ManagerDeps & Pick<ListenerDeps, "methodSwitches" | "timeoutMs">;

/** Who asks to switch which method of which register, from where (a command or the alert's button). */
export type SwitchAsked = {
  team: string;
  user: string;
  enterpriseId?: string | undefined;
  triggerId: string;
  register: Pick<ChosenRegister, "key" | "name" | "several">;
  code: string;
  want: SwitchWant;
  lang: Lang;
  /** What the refusal and the log name it: the command's words or the button. */
  action: "off" | "on" | "surcharge";
};

/**
 * `/paymethods off|on|surcharge` and the alert's Switch off: admins only (others are told who can);
 * a modal opened at once (the trigger lapses in 3 s) while the method is read afresh, then updated
 * to the confirmation, or to why there is nothing to confirm (already so, the last method on).
 */
export async function openSwitch(
  deps: SwitchOpenDeps,
  client: webApi.WebClient,
  asked: SwitchAsked,
  note: Note,
): Promise<Produced> {
  const { lang } = asked;
  note({ action: `method-${asked.action}`, audit: { object: `method ${asked.code}` } });
  if (asked.register.several) note({ register: asked.register.name });
  const manager = await checkManager(deps, client, {
    userId: asked.user,
    teamId: asked.team,
    enterpriseId: asked.enterpriseId,
  });
  note({ manager: manager.why });
  if (!manager.allowed) return { reply: notAllowedMessage("methods", lang), log: { outcome: "not_allowed" } };
  let viewId: string | undefined;
  try {
    const opened = await client.views.open({
      trigger_id: asked.triggerId,
      view: switchReadingModal(asked.code, asked.want, lang),
    });
    viewId = opened.view?.id;
  } catch (error) {
    const command = `/paymethods ${asked.action}`;
    const text = NOTICES_TEXT[lang];
    const reply = ephemeral(text.formNotOpened(command), text.formNotOpenedFallback(command));
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  const { view, shown, ...failure } = await confirmationView(deps, asked);
  if (viewId) await client.views.update({ view_id: viewId, view });
  return { reply: null, log: { outcome: "method_switch", step: "asked", result: shown, ...failure } };
}

/** The confirmation, or the answer that there is nothing to confirm (or the read failed). */
async function confirmationView(
  deps: SwitchOpenDeps,
  asked: SwitchAsked,
): Promise<{ view: types.ModalView; shown: string; reference?: string; err?: unknown }> {
  const origin: SwitchOrigin = { t: asked.team, r: asked.register.name, c: asked.code, w: asked.want };
  const target = { registerKey: asked.register.key, code: asked.code };
  try {
    const prepared = await deps.methodSwitches.prepare(target, asked.want);
    if (prepared.kind !== "confirm") {
      return { view: switchAnswerModal(prepared, origin, asked.lang), shown: prepared.kind };
    }
    const register = asked.register.several ? asked.register.name : undefined;
    const view = switchConfirmModal({ method: prepared.method, origin, register, lang: asked.lang });
    return { view, shown: "confirm" };
  } catch (error) {
    const { shown, reference } = failureShown(deps, error, asked.lang);
    const view = switchAnswerModal(shown, origin, asked.lang);
    return { view, shown: "failed", ...(reference ? { reference, err: error } : {}) };
  }
}

/**
 * A failure's words, as a failed reply says them, for a modal; with the reference the person may
 * quote when it is a fault (none when the service is only down or busy).
 */
export function failureShown(
  deps: Pick<ListenerDeps, "timeoutMs">,
  error: unknown,
  lang: Lang,
): { shown: Extract<SwitchShown, { kind: "failed" }>; reference?: string | undefined } {
  const failure = replyForFailure(error, {
    timeoutMs: deps.timeoutMs,
    reference: newReference(),
    canManage: false,
    lang,
  });
  const first = failure.message.blocks?.[0];
  const text =
    first?.type === "section" && first.text?.type === "mrkdwn" ? first.text.text : failure.message.text;
  return { shown: { kind: "failed", text }, reference: failure.reference };
}
