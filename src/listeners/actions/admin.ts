import {
  CONNECT_FROM,
  disconnectedMessage,
  notAllowedMessage,
  nothingToDisconnectMessage,
} from "../../blocks/admin.js";
import { disconnectButton } from "../../blocks/button-values.js";
import { ephemeral } from "../../blocks/replies.js";
import { DEFAULT_LANG } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { MAIN_REGISTER, registerKey } from "../../store/registers.js";
import { actionContext, answerWherePressed } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { forgetRegisterWork } from "../workspace/forget.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { openConnectModal, publishHome } from "../workspace/settings.js";

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
  async (args: ActionArgs): Promise<void> => {
    const { ack, body, action, client, respond } = args;
    await ack();
    const { teamId, who, lang, context } = actionContext(deps, args, { offersConnect: false });
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
        const language = await lang();
        if (!manager.allowed) throw new RefusalError(notAllowedMessage("connect", language), "not_allowed");
        await openConnectModal(deps, client, body.trigger_id, {
          from: fromMessage ? "command" : "home",
          t: teamId,
        });
        return { reply: null, log: { outcome: "modal_opened" } };
      },
    );
  };

/** What Disconnect uses: the credentials, and every register's work it forgets. */
type DisconnectDeps = AnswerDeps &
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
    | "payoutPolicies"
    | "balanceAlerts"
    | "methodWatches"
    | "methodSwitches"
  >;

/** Disconnect, from the confirmation message or App Home. */
export const disconnect =
  (deps: DisconnectDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId, who, fromHome, context } = press;
    const send = answerWherePressed(deps, args, press, { replaceOriginal: true });
    await answer(deps, context, send, async () => {
      const lang = await press.lang();
      // The confirmation message names its workspace; App Home's button is always the viewer's own.
      const value = fromHome ? undefined : readButtonValue(disconnectButton.schema, action);
      if (value && value.t !== teamId) {
        const text = NOTICES_TEXT[lang];
        throw new RefusalError(
          ephemeral(text.foreignDisconnect, text.foreignDisconnectFallback),
          "foreign_card",
        );
      }
      const manager = await checkManager(deps, client, who);
      if (!manager.allowed) throw new RefusalError(notAllowedMessage("disconnect", lang), "not_allowed");
      // The register the confirmation named (main's from App Home or before registers).
      const name = value?.r ?? MAIN_REGISTER;
      const key = registerKey(teamId, name);
      const removed = await deps.stores.credentials.remove(key);
      // A reconnected register gets a new callback address: the old one may sit in old invoices.
      await deps.stores.callbackKeys.remove(key);
      await forgetRegisterWork(deps)(key);
      if (name !== MAIN_REGISTER) await deps.stores.registers.removeOther(teamId, name);
      return removed
        ? { reply: disconnectedMessage(press.userId, lang), log: { outcome: "disconnected" } }
        : { reply: nothingToDisconnectMessage(lang), log: { outcome: "nothing_to_disconnect" } };
    });
  };

/** Cancel on the disconnect question. */
export const cancelDisconnect =
  (deps: ManagerDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, respond } = args;
    await ack();
    const lang = await actionContext(deps, args)
      .lang()
      .catch(() => DEFAULT_LANG);
    await respond({
      ...ephemeral(NOTICES_TEXT[lang].nothingChanged, NOTICES_TEXT[lang].nothingChanged),
      replace_original: true,
    }).catch(() => undefined);
  };
