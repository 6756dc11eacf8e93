import type { webApi } from "@slack/bolt";
import { buildInvoiceMessage, type EnteredAmount } from "../blocks/invoice.js";
import { createdWithoutCardMessage } from "../blocks/invoice-create.js";
import type { SlackMessage } from "../blocks/message.js";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import type { CreatedInvoice, Invoice, InvoiceDraft } from "../payments/model.js";
import { slackErrorCode } from "../slack/error.js";
import type { CardDelivery, InvoiceDeps, TellDelivery } from "./deps.js";
import { deliverInvoiceCard } from "./live-card.js";
import { chosenMethod } from "./method.js";

/**
 * Who created the invoice and where the command was typed. `registerKey`: the register it is in
 * (main's, the team id, when left out); `register`: its name, said on the card where there are several.
 */
export type Creator = {
  teamId: string;
  userId: string;
  channelId: string;
  registerKey?: string | undefined;
  register?: string | undefined;
  /** The card goes as a reply in this thread (a re-issued link's card, under the old one). */
  threadTs?: string | undefined;
};

/**
 * Posts the card of a newly created invoice in the channel the command was typed in, the one path
 * every created invoice's card takes: a live card (chat.postMessage, then watched and updated in
 * place until paid, see live-card.ts). Where the bot cannot post there, the creator gets the card
 * privately (chat.postEphemeral, else a DM), so the payment link is never lost.
 */
export async function postCreatedCard(
  deps: Pick<InvoiceDeps, "now" | "stores" | "watches" | "feeds">,
  client: webApi.WebClient,
  creator: Creator,
  invoice: Invoice,
  card: SlackMessage,
  delivery: CardDelivery & TellDelivery,
  entered?: EnteredAmount,
  lang: Lang = DEFAULT_LANG,
  customer?: string,
): Promise<void> {
  // Its creator may stop the live updates of any card of this invoice, whoever asked for that card.
  await deps.stores.cardOwners
    ?.noteCreator(creator.teamId, invoice.id, creator.userId)
    .catch((error: unknown) => {
      delivery.ownerError = error instanceof Error ? error.message : String(error);
    });
  const left = await deliverInvoiceCard(deps, client, creator, invoice, card, "channel", delivery, {
    created: true,
    ...(entered ? { entered } : {}),
    lang,
    customer,
  });
  if (left) await tellCreator(client, creator, left, delivery);
}

/** A private message to the creator: ephemeral in the channel, or a DM where that fails. */
export async function tellCreator(
  client: webApi.WebClient,
  creator: Creator,
  message: SlackMessage,
  delivery: TellDelivery,
): Promise<void> {
  try {
    await client.chat.postEphemeral({
      channel: creator.channelId,
      user: creator.userId,
      text: message.text,
      blocks: message.blocks,
    });
    delivery.told = "chat.postEphemeral";
  } catch (error) {
    delivery.ephemeralError = slackErrorCode(error);
    await client.chat.postMessage({ channel: creator.userId, text: message.text, blocks: message.blocks });
    delivery.told = "dm";
  }
}

/** What the log line of a submission notes about the created card and the creator's private notes. */
export type CreatedCardNote = CardDelivery &
  TellDelivery & {
    invoice?: string;
    /** The new invoice could not be read back; the creator got its id and link instead. */
    readError?: string;
    /** Even the private note to the creator failed. */
    tellError?: string;
  };

/** The audit trail: one line per created invoice (never the credentials). */
export function auditCreated(
  deps: Pick<InvoiceDeps, "logger">,
  creator: Creator,
  created: CreatedInvoice,
  draft: InvoiceDraft,
): void {
  deps.logger.info(
    {
      audit: "invoice_created",
      team: creator.teamId,
      ...(creator.register === undefined ? {} : { register: creator.register }),
      user: creator.userId,
      invoice: created.id,
      amount: draft.amount,
      currency: draft.currency,
    },
    "invoice created",
  );
}

/**
 * Reads the new invoice back and posts its card with "Created by". When it cannot be read, the card
 * is not guessed from the request: the creator gets the id and link privately instead.
 */
export async function postCreatedInvoiceCard(
  deps: Pick<InvoiceDeps, "now" | "payments" | "stores" | "watches" | "feeds">,
  client: webApi.WebClient,
  creator: Creator,
  created: CreatedInvoice,
  /** What was asked, and who it is for (the card names them). */
  draft: InvoiceDraft & { customer?: string | undefined },
  outcome: CreatedCardNote,
): Promise<void> {
  // The workspace's language (English when its settings cannot be read: the card still goes out).
  const lang =
    (await deps.stores.settings.get(creator.teamId).catch(() => undefined))?.language ?? DEFAULT_LANG;
  const key = creator.registerKey ?? creator.teamId;
  let invoice: Invoice;
  try {
    invoice = await deps.payments.invoice(key, created.id);
  } catch (error) {
    outcome.readError = error instanceof Error ? error.message : String(error);
    await tellCreator(
      client,
      creator,
      createdWithoutCardMessage(created.id, created.url, creator.userId, lang),
      outcome,
    );
    return;
  }
  // v2 converts every amount to roubles: the card keeps saying what was typed.
  const entered = { value: draft.amount, currency: draft.currency };
  const card = buildInvoiceMessage(invoice, {
    now: deps.now(),
    teamId: creator.teamId,
    visibility: "channel",
    method: await chosenMethod(deps, key, invoice),
    // Carried in the Refresh button's value, so a refreshed card still says who created it.
    createdBy: creator.userId,
    entered,
    lang,
    ...(creator.register === undefined ? {} : { register: creator.register }),
    customer: draft.customer,
  });
  await postCreatedCard(deps, client, creator, invoice, card, outcome, entered, lang, draft.customer);
}
