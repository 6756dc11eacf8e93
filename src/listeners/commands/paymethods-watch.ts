import type { webApi } from "@slack/bolt";
import { notAllowedMessage } from "../../blocks/admin.js";
import {
  methodWatchModal,
  type ShownRules,
  watchOffAnnouncement,
  watchOffReply,
} from "../../blocks/method-watch-form.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE, type WatchSettings } from "../../method-watch/state.js";
import { NotConnectedError } from "../../payments/errors.js";
import { slackErrorCode } from "../../slack/error.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

export type WatchCommandDeps = ManagerDeps & Pick<ListenerDeps, "methodWatches">;

/** Who asked, where, for which register: what `/paymethods watch` needs of its command. */
export type WatchAsked = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  trigger_id: string;
  chosen: ChosenRegister;
  lang: Lang;
};

/**
 * `/paymethods watch` (its form, filled with the watch's settings or the defaults) and `/paymethods
 * watch off`, for admins of a connected register; others are told who can.
 */
export async function paymethodsWatch(
  deps: WatchCommandDeps,
  client: webApi.WebClient,
  kind: "watch" | "watch_off",
  asked: WatchAsked,
  note: Note,
): Promise<Produced> {
  note({ action: kind === "watch" ? "watch" : "watch off" });
  const { chosen, lang } = asked;
  const manager = await checkManager(deps, client, {
    userId: asked.user_id,
    teamId: asked.team_id,
    enterpriseId: asked.enterprise_id,
  });
  note({ manager: manager.why });
  if (!manager.allowed)
    return { reply: notAllowedMessage("methodsWatch", lang), log: { outcome: "not_allowed" } };
  if (!(await deps.stores.credentials.get(chosen.key))) throw new NotConnectedError(chosen.key);
  if (kind === "watch_off") return watchOff(deps, client, asked, note);
  const { settings } = await deps.methodWatches.read(chosen.key);
  try {
    await client.views.open({
      trigger_id: asked.trigger_id,
      view: methodWatchModal({
        register: chosen.name,
        shown: shownRules(settings),
        askedIn: asked.channel_id,
        origin: { t: asked.team_id, r: chosen.name, c: asked.channel_id },
        lang,
      }),
    });
  } catch (error) {
    const t = NOTICES_TEXT[lang];
    const reply = ephemeral(
      t.formNotOpened("/paymethods watch"),
      t.formNotOpenedFallback("/paymethods watch"),
    );
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  return { reply: null, log: { outcome: "modal_opened" } };
}

/** The usual-gap rule's figures shown while another silence rule is chosen: the default's. */
const USUAL_SHOWN: ShownRules["usualShown"] =
  DEFAULT_SILENCE_RULE.mode === "usual" ? DEFAULT_SILENCE_RULE : { mode: "usual", factor: 4, floorHours: 2 };

/** What the form shows: the watch's settings when it is on, else the defaults. */
function shownRules(settings: WatchSettings | undefined): ShownRules {
  if (!settings)
    return {
      channel: undefined,
      mention: [],
      failure: DEFAULT_FAILURE_RULE,
      silence: DEFAULT_SILENCE_RULE,
      usualShown: USUAL_SHOWN,
    };
  const { channel, mention, failure, silence } = settings;
  return { channel, mention, failure, silence, usualShown: USUAL_SHOWN };
}

/** Turns the watch off; said in its alert channel (best effort) and to the admin. */
async function watchOff(
  deps: WatchCommandDeps,
  client: webApi.WebClient,
  asked: WatchAsked,
  note: Note,
): Promise<Produced> {
  const { chosen, lang } = asked;
  if (chosen.several) note({ register: chosen.name });
  const was = await deps.methodWatches.off(chosen.key);
  const reply = watchOffReply(chosen.name, chosen.several, was !== undefined, lang);
  if (!was) return { reply, log: { outcome: "method_watch_off", was: "off" } };
  const { channel, mention, failure, silence } = was;
  note({ audit: { object: `methods watch ${chosen.name}`, before: { channel, mention, failure, silence } } });
  const told = watchOffAnnouncement(asked.user_id, chosen.name, chosen.several, lang);
  await client.chat
    .postMessage({ channel, text: told.text, blocks: told.blocks })
    .catch((error: unknown) =>
      deps.logger.warn(
        { team: asked.team_id, channel, slackError: slackErrorCode(error) },
        "methods watch off: not said in its channel",
      ),
    );
  return { reply, log: { outcome: "method_watch_off", was: "on" } };
}
