import { paymethodsPageButton as pageValue } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { PAYMETHODS_ACTIONS } from "../../blocks/paymethods.js";
import { parsePaymethodsText } from "../../paymethods/text.js";
import { type AnswerDeps, answer } from "../answer.js";
import { readButtonValue } from "../button-value.js";
import type { ListenerDeps } from "../deps.js";
import { paymethodsReply } from "../paymethods-reply.js";
import { canManageCheck, type ManagerDeps } from "../permissions.js";
import type { ActionArgs } from "../router.js";
import { teamIdOf } from "../team.js";

/**
 * Previous / Next / Refresh: re-render the list in place (replace_original through response_url),
 * private lists staying private. Share in channel (private lists): post the page for everyone and
 * remove the private copy.
 */
export const paymethodsPageButton =
  (deps: AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payments" | "replyVisibility" | "paymethodsPages">) =>
  async ({ ack, body, action, respond, client }: ActionArgs): Promise<void> => {
    await ack();
    // The workspace is the presser's own: a button can only ever show that workspace's methods.
    const team = teamIdOf(body);
    const shared = action.action_id === PAYMETHODS_ACTIONS.share;
    const isPrivate = body.container?.is_ephemeral === true;
    const context = {
      kind: "action",
      name: action.action_id,
      team,
      user: body.user.id,
      canManage: canManageCheck(deps, client, {
        userId: body.user.id,
        teamId: team,
        enterpriseId: body.enterprise?.id,
      }),
    } as const;
    // The list is replaced in place; an error goes only to the presser and leaves the list as it was.
    const send = async (message: SlackMessage, { failed }: { failed: boolean }) => {
      if (failed) return respond({ ...message, replace_original: false });
      if (shared) {
        await respond({ ...message, response_type: "in_channel", replace_original: false });
        return respond({ delete_original: true });
      }
      return respond({ ...message, replace_original: true });
    };
    await answer(deps, context, send, async (noted) => {
      const value = readButtonValue(pageValue.schema, action);
      const request = parsePaymethodsText(value.f);
      if (request.kind !== "list") throw new Error(`button value holds no filter: ${value.f}`);
      noted.filter = value.f;
      noted.page = value.p;
      return paymethodsReply(
        deps,
        team,
        { filter: request.filter, page: value.p },
        {
          fresh: action.action_id === PAYMETHODS_ACTIONS.refresh,
          visibility: isPrivate && !shared ? "private" : "channel",
        },
      );
    });
  };
