import type { SlackMessage } from "../../blocks/message.js";
import type { ActionArgs } from "../router.js";
import { publishHome } from "./manage.js";
import { teamIdOf } from "./team.js";

/** Who pressed a button, where, and how to answer them there. */
export type Pressed = {
  teamId: string;
  who: { userId: string; teamId: string; enterpriseId: string | undefined };
  fromHome: boolean;
  /** Under the message (in its place, or as a new private note); on App Home, the tab published again. */
  send: (message: SlackMessage) => Promise<unknown>;
};

/**
 * A button that sits both on App Home and in a message: App Home has no response_url, so an answer
 * there is the tab published again (showing what changed); under a message it is a reply.
 */
export function pressed(
  deps: Parameters<typeof publishHome>[0],
  { body, client, respond }: Pick<ActionArgs, "body" | "client" | "respond">,
  options: { replaceOriginal: boolean },
): Pressed {
  const teamId = teamIdOf(body);
  const who = { userId: body.user.id, teamId, enterpriseId: body.enterprise?.id };
  const fromHome = body.container?.type === "view";
  return {
    teamId,
    who,
    fromHome,
    send: async (message) =>
      fromHome
        ? publishHome(deps, client, who)
        : respond({ ...message, replace_original: options.replaceOriginal }),
  };
}
