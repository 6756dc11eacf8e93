import { stopButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import { stoppedCard } from "../../blocks/watch.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { ListenerDeps } from "../deps.js";
import type { ActionArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { foreignCardMessage } from "./invoice.js";

type StopDeps = AnswerDeps & ManagerDeps & Pick<ListenerDeps, "watches" | "stores">;

/**
 * Whether `user` may stop a channel card's updates: the person who asked for the card, the invoice's
 * creator (both as noted when the card was posted or the invoice created), or someone who may manage
 * the cash register (admins, the installer, ADMIN_USER_IDS). Others are told who may.
 */
async function mayStop(
  deps: StopDeps,
  client: ActionArgs["client"],
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
  card: { channel: string; ts: string; invoiceId: string },
  lang: Lang,
): Promise<void> {
  const owners = await deps.stores.cardOwners.of(who.teamId, card);
  if (who.userId === owners.asker || who.userId === owners.creator) return;
  if ((await checkManager(deps, client, who)).allowed) return;
  // A card of an invoice its asker created names that person once.
  const asker = owners.asker === owners.creator ? undefined : owners.asker;
  const text = NOTICES_TEXT[lang];
  throw new RefusalError(
    ephemeral(
      text.stopNotAllowed(asker && `<@${asker}>`, owners.creator && `<@${owners.creator}>`),
      text.stopNotAllowedFallback,
    ),
    "not_allowed",
  );
}

/**
 * Stop updating: this card leaves its invoice's watch (other cards of the invoice stay live) and
 * says who stopped it. No call to the payment service. A private card is only ever its asker's.
 */
export const stopWatch =
  (deps: StopDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, body, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, isPrivate, who, context } = press;
    // The card is redrawn without its Stop button; a private card Slack did not send back is left
    // as it is, with a note beside it. A refusal is a note beside the card.
    const send = async (message: SlackMessage, { failed }: { failed: boolean }) =>
      respond({ ...message, replace_original: !failed && message.response_type !== "ephemeral" });
    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(stopButton.schema, action);
      note({ invoice: value.id });
      const lang = await press.lang();
      if (value.t !== team) throw new RefusalError(foreignCardMessage(lang), "foreign_card");
      const channel = body.container?.channel_id ?? body.channel?.id;
      const ts = body.container?.message_ts ?? body.message?.ts;
      if (isPrivate || !channel || !ts) await deps.watches.stop(team, value.id, { kind: "dm", user });
      else {
        await mayStop(deps, client, who, { channel, ts, invoiceId: value.id }, lang);
        await deps.watches.stop(team, value.id, { kind: "channel", user, channel, ts });
      }
      const blocks = body.message?.blocks as unknown[] | undefined;
      if (isPrivate || !blocks || blocks.length === 0) {
        const reply = ephemeral(NOTICES_TEXT[lang].dmStopped, NOTICES_TEXT[lang].dmStoppedFallback);
        return { reply, log: { outcome: "watch_stopped" } };
      }
      const reply = { text: body.message?.text ?? "Invoice", blocks: stoppedCard(blocks, user, lang) };
      return { reply, log: { outcome: "watch_stopped" } };
    });
  };
