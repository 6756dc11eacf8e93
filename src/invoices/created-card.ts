import type { webApi } from "@slack/bolt";
import type { EnteredAmount } from "../blocks/invoice.js";
import type { SlackMessage } from "../blocks/message.js";
import type { Invoice } from "../payments/model.js";
import { slackErrorCode } from "../slack-error.js";
import type { CardDelivery, InvoiceDeps, TellDelivery } from "./deps.js";
import { deliverInvoiceCard } from "./live-card.js";

/** Who created the invoice and where the command was typed. */
export type Creator = { teamId: string; userId: string; channelId: string };

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
): Promise<void> {
  const left = await deliverInvoiceCard(deps, client, creator, invoice, card, "channel", delivery, {
    created: true,
    ...(entered ? { entered } : {}),
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
