import type { Context, webApi } from "@slack/bolt";
import { firstDeliveryOf } from "../../edge/command-once.js";
import type { AnswerContext } from "./answer.js";
import { langFor } from "./manage.js";
import { canManageCheck, type ManagerDeps } from "./permissions.js";

/** The fields of a slash command every command handler reads. */
type CommandFields = { team_id: string; user_id: string; enterprise_id?: string | undefined };

/**
 * What answer() notes for a slash command: which command, team and user, and a lazy "may this user
 * connect?" (asked only when a reply offers a Connect button); and the request's replay check
 * (`request`: Bolt's context), which answer() waits for with the rate count before anything is done.
 * One place for every command.
 */
export function commandContext(
  deps: ManagerDeps,
  client: webApi.WebClient,
  name: string,
  command: CommandFields,
  request: Context | undefined,
): AnswerContext {
  return {
    kind: "command",
    name,
    team: command.team_id,
    user: command.user_id,
    firstDelivery: firstDeliveryOf(request),
    lang: () => langFor(deps, command.team_id),
    canManage: canManageCheck(deps, client, {
      userId: command.user_id,
      teamId: command.team_id,
      enterpriseId: command.enterprise_id,
    }),
  };
}
