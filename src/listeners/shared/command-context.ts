import type { webApi } from "@slack/bolt";
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
