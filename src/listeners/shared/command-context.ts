import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../../blocks/message.js";
import type { AnswerContext } from "./answer.js";
import { langFor } from "./manage.js";
import { canManageCheck, type ManagerDeps } from "./permissions.js";

/** The fields of a slash command every command handler reads. */
type CommandFields = { team_id: string; user_id: string; enterprise_id?: string | undefined };

/**
 * What answer() notes for a slash command: which command, team and user, and a lazy "may this user
 * connect?" (asked only when a reply offers a Connect button). One place for every command.
 */
export function commandContext(
  deps: ManagerDeps,
  client: webApi.WebClient,
  name: string,
  command: CommandFields,
): AnswerContext {
  return {
    kind: "command",
    name,
    team: command.team_id,
    user: command.user_id,
    lang: () => langFor(deps, command.team_id),
    canManage: canManageCheck(deps, client, {
      userId: command.user_id,
      teamId: command.team_id,
      enterpriseId: command.enterprise_id,
    }),
  };
}

/**
 * What answer() notes for a button press: the action, the presser's workspace and user, and the same
 * lazy "may this user connect?" as for commands.
 */
export function actionContext(
  deps: ManagerDeps,
  client: webApi.WebClient,
  body: { user: { id: string }; enterprise?: { id?: string } | null | undefined },
  actionId: string,
  team: string,
): AnswerContext {
  return {
    kind: "action",
    name: actionId,
    team,
    user: body.user.id,
    lang: () => langFor(deps, team),
    canManage: canManageCheck(deps, client, {
      userId: body.user.id,
      teamId: team,
      enterpriseId: body.enterprise?.id,
    }),
  };
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
