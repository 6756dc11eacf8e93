import { invoiceButton } from "../../blocks/button-values.js";
import { buildInvoiceMessage, INVOICE_ACTIONS, parseEnteredAmount } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import { carryWatchStatus } from "../../blocks/watch.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { lookupInvoice } from "../../invoices/lookup.js";
import type { Invoice } from "../../payments/model.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import { type CardReadsDeps, cardReads } from "../replies/invoice-card.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, registerNamed } from "../workspace/register.js";

/**
 * Refresh: read the invoice again and replace the card in place. Share (private cards): post the card
 * in the channel, "shared by", and remove the private copy. Errors go only to the presser and leave
 * the card as it was.
 */
export const invoiceCardButton =
  (deps: AnswerDeps & ManagerDeps & CardReadsDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, body, action, respond } = args;
    await ack();
    const press = actionContext(deps, args);
    const { teamId: team, userId: user, isPrivate, context } = press;
    // Refresh replaces the card, Share posts it and removes the private copy, an error is a private note.
    const page = pageSender(respond, action.action_id === INVOICE_ACTIONS.share);
    const send = async (message: SlackMessage, how: { failed: boolean }) =>
      // From a feed message or a list: the full card for the presser alone; the message stays.
      !how.failed && action.action_id === INVOICE_ACTIONS.open
        ? respond({ ...message, response_type: "ephemeral", replace_original: false })
        : page(message, how);

    await answer(deps, context, send, async (note) => {
      const value = readButtonValue(invoiceButton.schema, action);
      note({ invoice: value.id });
      const lang = await press.lang();
      // In a channel shared between workspaces (Slack Connect) another workspace can see the card;
      // its buttons must never read this invoice with that workspace's credentials, or vice versa.
      if (value.t !== team) throw new RefusalError(foreignCardMessage(lang), "foreign_card");
      // The register the card named; one since removed is not replaced by another: out of date.
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      const invoice = await lookupInvoice(deps, register.key, value.id);
      const card = await cardOfPress(
        deps,
        { team, user, isPrivate, actionId: action.action_id, value, lang },
        {
          invoice,
          register,
        },
      );
      const shared = action.action_id === INVOICE_ACTIONS.share;
      const opened = action.action_id === INVOICE_ACTIONS.open;
      // A live card stays live after a Refresh: its line and Stop button are kept as they were.
      const reply =
        shared || opened ? card : carryWatchStatus(body.message?.blocks as unknown[] | undefined, card);
      const log = {
        outcome: "ok",
        upstreamStatus: 200,
        state: invoice.state,
        ...(value.s === invoice.state ? {} : { previousState: value.s }),
      } as const;
      return { reply, log };
    });
  };

type CardButtonValue = ReturnType<typeof readButtonValue<typeof invoiceButton.schema>>;

/**
 * The card as the press asks for it: shared into the channel (by the presser), opened for the
 * presser alone, or refreshed where it is.
 */
async function cardOfPress(
  deps: CardReadsDeps,
  press: {
    team: string;
    user: string;
    isPrivate: boolean;
    actionId: string;
    value: CardButtonValue;
    lang: Lang;
  },
  read: { invoice: Invoice; register: ChosenRegister },
): Promise<SlackMessage> {
  const { value, actionId } = press;
  const { invoice, register } = read;
  const shared = actionId === INVOICE_ACTIONS.share;
  const opened = actionId === INVOICE_ACTIONS.open;
  const sharedBy = shared ? press.user : value.by;
  return buildInvoiceMessage(invoice, {
    now: deps.now(),
    teamId: press.team,
    visibility: (press.isPrivate || opened) && !shared ? "private" : "channel",
    originalState: value.s,
    ...(shared || opened ? {} : { refreshedAt: deps.now() }),
    ...(sharedBy ? { sharedBy } : {}),
    ...(value.cb ? { createdBy: value.cb } : {}),
    ...(value.cu ? { customer: value.cu } : {}),
    entered: parseEnteredAmount(value.en),
    lang: press.lang,
    register: register.several ? register.name : undefined,
    ...(await cardReads(deps, register.key, invoice)),
  });
}

export function foreignCardMessage(lang: Lang = "en"): SlackMessage {
  return ephemeral(NOTICES_TEXT[lang].foreignCard, NOTICES_TEXT[lang].foreignCardFallback);
}
