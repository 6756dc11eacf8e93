import {
  ADMIN_ACTIONS,
  CONNECT_FROM,
  disconnectedMessage,
  notAllowedMessage,
  nothingToDisconnectMessage,
} from "../../blocks/admin.js";
import { disconnectButton } from "../../blocks/button-values.js";
import { ephemeral } from "../../blocks/replies.js";
import { DEFAULT_LANG } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { type AnswerDeps, answer } from "../shared/answer.js";
import { readButtonValue } from "../shared/button-value.js";
import { RefusalError } from "../shared/error-reply.js";
import { forgetRegisterWork } from "../shared/forget.js";
import { langFor, openConnectModal, publishHome } from "../shared/manage.js";
import { checkManager, type ManagerDeps } from "../shared/permissions.js";
import { pressed } from "../shared/pressed.js";
import { teamIdOf } from "../shared/team.js";

/**
 * App Home's Connect / Update opens the modal. Disconnect (from the confirmation message or App Home)
 * deletes the credentials after checking again that the presser may; Cancel closes the question.
 */
export const openConnect =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<ListenerDeps, "replyVisibility" | "defaultApiVersion" | "callbacks" | "feeds">,
  ) =>
  async ({ ack, body, action, client, respond }: ActionArgs): Promise<void> => {
    await ack();
    const teamId = teamIdOf(body);
    const who = { userId: body.user.id, teamId, enterpriseId: body.enterprise?.id };
    const context = {
      kind: "action",
      name: ADMIN_ACTIONS.openConnect,
      team: teamId,
      user: body.user.id,
      lang: () => langFor(deps, teamId),
    } as const;
    // From a reply (not connected, credentials refused) a refusal is a new private note; App Home has
    // no response_url, so there it is shown by re-publishing the tab.
    const fromMessage = action.value === CONNECT_FROM.reply;
    await answer(
      deps,
      context,
      async (message) =>
        fromMessage ? respond({ ...message, replace_original: false }) : publishHome(deps, client, who),
      async () => {
        const manager = await checkManager(deps, client, who);
        const lang = await langFor(deps, teamId);
        if (!manager.allowed) throw new RefusalError(notAllowedMessage("connect", lang), "not_allowed");
        await openConnectModal(deps, client, body.trigger_id, {
          from: fromMessage ? "command" : "home",
          t: teamId,
        });
        return { reply: null, log: { outcome: "modal_opened" } };
      },
    );
  };

/** Disconnect, from the confirmation message or App Home. */
export const disconnect =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<
        ListenerDeps,
        | "replyVisibility"
        | "defaultApiVersion"
        | "payments"
        | "watches"
        | "callbacks"
        | "feeds"
        | "history"
        | "digests"
      >,
  ) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, body, action, client } = args;
    await ack();
    const { teamId, who, fromHome, send } = pressed(deps, args, { replaceOriginal: true });
    const context = {
      kind: "action",
      name: ADMIN_ACTIONS.disconnect,
      team: teamId,
      user: body.user.id,
    } as const;
    await answer(deps, context, send, async () => {
      const lang = await langFor(deps, teamId);
      // The confirmation message names its workspace; App Home's button is always the viewer's own.
      if (!fromHome && readButtonValue(disconnectButton.schema, action).t !== teamId) {
        const text = NOTICES_TEXT[lang];
        throw new RefusalError(
          ephemeral(text.foreignDisconnect, text.foreignDisconnectFallback),
          "foreign_card",
        );
      }
      const manager = await checkManager(deps, client, who);
      if (!manager.allowed) throw new RefusalError(notAllowedMessage("disconnect", lang), "not_allowed");
      const removed = await deps.stores.credentials.remove(teamId);
      // A reconnected register gets a new callback address: the old one may sit in old invoices.
      await deps.stores.callbackKeys.remove(teamId);
      await forgetRegisterWork(deps)(teamId);
      return removed
        ? { reply: disconnectedMessage(body.user.id, lang), log: { outcome: "disconnected" } }
        : { reply: nothingToDisconnectMessage(lang), log: { outcome: "nothing_to_disconnect" } };
    });
  };

/** Cancel on the disconnect question. */
export const cancelDisconnect =
  (deps: Pick<ListenerDeps, "stores">) =>
  async ({ ack, body, respond }: ActionArgs): Promise<void> => {
    await ack();
    const lang = await langFor(deps, teamIdOf(body)).catch(() => DEFAULT_LANG);
    await respond({
      ...ephemeral(NOTICES_TEXT[lang].nothingChanged, NOTICES_TEXT[lang].nothingChanged),
      replace_original: true,
    }).catch(() => undefined);
  };
