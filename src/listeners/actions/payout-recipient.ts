import { readRecipientButton, recipientCard, recipientConfirmModal } from "../../blocks/payout-recipients.js";
import { ephemeral } from "../../blocks/replies.js";
import { PAYOUT_RECIPIENTS_TEXT } from "../../i18n/payout-recipients.js";
import { PAYOUT_VOTE_TEXT } from "../../i18n/payout-vote.js";
import { recipientOf } from "../../payout-recipients/lookup.js";
import { confirmRefusal, removeRecipient } from "../../payout-recipients/recipients.js";
import { slackErrorCode } from "../../slack/error.js";
import { actionContext, privateNote } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import type { ListenerDeps } from "../deps.js";
import { personRefusal } from "../payouts/person.js";
import { recipientRefusalText } from "../payouts/recipient-words.js";
import type { ActionArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

type RecipientButtonDeps = AnswerDeps &
  ManagerDeps &
  Pick<ListenerDeps, "payouts" | "payoutPolicies" | "now">;

/** The recipient a button names, read as this workspace's (a stale or forged value reads as none). */
async function pressedRecipient(deps: RecipientButtonDeps, teamId: string, value: string | undefined) {
  const named = readRecipientButton(value);
  const register = named && (await registerNamed(deps.stores.registers, teamId, named.register));
  const recipient = named && register ? await recipientOf(deps.payouts, register.key, named.id) : undefined;
  return register && recipient ? { register, recipient } : undefined;
}

/**
 * Confirm on a recipient's card: who pressed is checked at once (an approver of the policy now, not
 * the one who added it, not confirmed yet, a full member), then the modal asks for the wallet's last
 * four. The confirmation itself is checked again when the modal is submitted.
 */
export const recipientConfirmButton =
  (deps: RecipientButtonDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client, body } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = privateNote(respond);
    await answer(deps, press.context, send, async (note) => {
      const lang = await press.lang();
      const t = PAYOUT_RECIPIENTS_TEXT[lang];
      const found = await pressedRecipient(deps, press.teamId, action.value);
      const policy = found && (await deps.payoutPolicies.get(found.register.key));
      const refusal =
        confirmRefusal(policy, found?.recipient, press.userId) ??
        ((await personRefusal(client, press.userId))
          ? ({ kind: "not_an_approver", approvers: policy?.approvers ?? [] } as const)
          : undefined);
      note({ audit: { object: `recipient ${found?.recipient.id ?? ""}`.trim() } });
      if (refusal || !found)
        return {
          reply: ephemeral(
            `:no_entry_sign: ${recipientRefusalText(refusal ?? { kind: "not_found" }, lang)}`,
            t.fallback,
          ),
          log: {
            outcome: "recipient_refused",
            refusal: refusal?.kind ?? "not_found",
            act: "confirm",
            recorded: false,
          },
        };
      const view = recipientConfirmModal(
        found.recipient,
        { id: found.recipient.id, r: found.register.name },
        lang,
      );
      try {
        await client.views.open({ trigger_id: body.trigger_id, view });
      } catch (error) {
        const text = PAYOUT_VOTE_TEXT[lang].modalNotOpened;
        return {
          reply: ephemeral(text, text),
          log: { outcome: "modal_failed", modalError: slackErrorCode(error) },
        };
      }
      return { reply: null, log: { outcome: "modal_opened" } };
    });
  };

/** Remove (after Slack's own "are you sure"): a workspace admin removes the recipient; its card says so. */
export const recipientRemoveButton =
  (deps: RecipientButtonDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = (message: Parameters<typeof respond>[0] & object) =>
      respond({ ...message, response_type: "ephemeral", replace_original: true });
    await answer(deps, press.context, send, async (note) => {
      const lang = await press.lang();
      const t = PAYOUT_RECIPIENTS_TEXT[lang];
      const found = await pressedRecipient(deps, press.teamId, action.value);
      note({ audit: { object: `recipient ${found?.recipient.id ?? ""}`.trim() } });
      const who = { userId: press.userId, teamId: press.teamId, enterpriseId: args.context.enterpriseId };
      const manager = await checkManager(deps, client, who);
      note({ manager: manager.why });
      const result = !manager.allowed
        ? ({ kind: "refused", refusal: { kind: "not_admin" } } as const)
        : found
          ? await removeRecipient(
              deps.payouts,
              found.register.key,
              found.recipient.id,
              press.userId,
              deps.now(),
            )
          : ({ kind: "refused", refusal: { kind: "not_found" } } as const);
      if (result.kind === "refused")
        return {
          reply: ephemeral(`:no_entry_sign: ${recipientRefusalText(result.refusal, lang)}`, t.fallback),
          log: { outcome: "recipient_refused", refusal: result.refusal.kind, act: "remove", recorded: false },
        };
      const { card } = result.recipient;
      if (card && found) {
        const shown = recipientCard(result.recipient, found.register.name, lang);
        await client.chat
          .update({ channel: card.channel, ts: card.ts, text: shown.text, blocks: shown.blocks })
          .catch(() => undefined);
      }
      return {
        reply: ephemeral(t.removed(`*${result.recipient.label}*`), t.fallback),
        log: { outcome: "recipient_removed" },
      };
    });
  };
