import type { SlackMessage } from "../../blocks/message.js";
import type { Lang } from "../../i18n/lang.js";
import type { ActionArgs } from "../router.js";
import { canManageCheck, type ManagerDeps } from "../workspace/permissions.js";
import { langFor, publishHome } from "../workspace/settings.js";
import type { AnswerContext } from "./answer.js";
import { teamIdOf } from "./team.js";

/** Who pressed a button, where, in which language, and what answer() notes: every button handler opens with it. */
export type ButtonPress = {
  /** The presser's workspace (see teamIdOf). */
  teamId: string;
  userId: string;
  /** The presser, as the permission checks take them. */
  who: { userId: string; teamId: string; enterpriseId: string | undefined };
  /** Pressed on App Home (which has no response_url), not under a message. */
  fromHome: boolean;
  /** Under a message only the presser sees. */
  isPrivate: boolean;
  /** The workspace's language (its settings; English when unset). */
  lang: () => Promise<Lang>;
  /** What answer() notes: the action, the presser, and what it may ask for the replies it writes itself. */
  context: AnswerContext;
};

/**
 * What answer() may ask for the replies it writes itself (failures, "slow down"): always in the
 * workspace's language; for a not-connected answer, whether to offer Connect (`offersConnect: false`
 * for buttons where connecting is not what the presser came for).
 */
export type PressAnswers = { offersConnect?: false };

/** The opening of every button handler: who pressed it, where, and the context answer() notes. */
export function actionContext(
  deps: ManagerDeps,
  { body, action, client }: Pick<ActionArgs, "body" | "action" | "client">,
  answers: PressAnswers = {},
): ButtonPress {
  const teamId = teamIdOf(body);
  const userId = body.user.id;
  const who = { userId, teamId, enterpriseId: body.enterprise?.id };
  const lang = () => langFor(deps, teamId);
  return {
    teamId,
    userId,
    who,
    fromHome: body.container?.type === "view",
    isPrivate: body.container?.is_ephemeral === true,
    lang,
    context: {
      kind: "action",
      name: action.action_id,
      team: teamId,
      user: userId,
      lang,
      ...(answers.offersConnect === false ? {} : { canManage: canManageCheck(deps, client, who) }),
    },
  };
}

/**
 * A button that sits both on App Home and in a message: App Home has no response_url, so an answer
 * there is the tab published again (showing what changed); under a message it is a reply, in the
 * message's place or as a new private note.
 */
export function answerWherePressed(
  deps: Parameters<typeof publishHome>[0],
  { client, respond }: Pick<ActionArgs, "client" | "respond">,
  press: ButtonPress,
  options: { replaceOriginal: boolean },
): (message: SlackMessage) => Promise<unknown> {
  return async (message) =>
    press.fromHome
      ? publishHome(deps, client, press.who)
      : respond({ ...message, replace_original: options.replaceOriginal });
}

/** A note under the pressed message that only the presser sees; the message stays as it was. */
export function privateNote(respond: ActionArgs["respond"]) {
  return (message: Parameters<ActionArgs["respond"]>[0] & object): Promise<unknown> =>
    respond({ ...message, response_type: "ephemeral", replace_original: false });
}

type Respond = (message: Record<string, unknown>) => Promise<unknown>;

/**
 * How a button on a message answers: an error is a new private note (the message stays as it was);
 * Share posts the page for everyone and removes the private copy; anything else replaces the message.
 */
export function pageSender(respond: Respond, shared: boolean) {
  return async (message: SlackMessage, { failed }: { failed: boolean }): Promise<unknown> => {
    if (failed) return respond({ ...message, replace_original: false });
    if (shared) {
      await respond({ ...message, response_type: "in_channel", replace_original: false });
      return respond({ delete_original: true });
    }
    return respond({ ...message, replace_original: true });
  };
}
