import type { Context, webApi } from "@slack/bolt";
import { firstDeliveryOf } from "../../edge/command-once.js";
import type { Lang } from "../../i18n/lang.js";
import { canManageCheck, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, chooseRegister } from "../workspace/register.js";
import { langFor } from "../workspace/settings.js";
import type { AnswerContext } from "./answer.js";
import type { Note } from "./outcome.js";

/** The fields of a slash command every command handler reads. */
type CommandFields = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  text: string;
};

/** A command's context: what answer() needs, and what the command itself starts from. */
export type CommandContext = AnswerContext & {
  /** The workspace's language (a store that does not answer fails the command, as any read does). */
  lang: () => Promise<Lang>;
  /**
   * The register the command's text chose (its first word, else the channel's, else main), its
   * `rest` the text without that name; noted on the line where the workspace has several.
   */
  register: (note: Note) => Promise<ChosenRegister>;
};

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
): CommandContext {
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
    register: async (note) => {
      const chosen = await chooseRegister(
        deps.stores.registers,
        command.team_id,
        command.channel_id,
        command.text,
      );
      if (chosen.several) note({ register: chosen.name });
      return chosen;
    },
  };
}
