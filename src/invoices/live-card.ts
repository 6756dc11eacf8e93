import type { webApi } from "@slack/bolt";
import type { EnteredAmount, ReplyVisibility } from "../blocks/invoice.js";
import type { SlackMessage } from "../blocks/message.js";
import { type WatchStatus, withWatchStatus } from "../blocks/watch.js";
import type { Lang } from "../i18n/lang.js";
import type { Invoice } from "../payments/model.js";
import { slackErrorCode } from "../slack/error.js";
import { slackFailureOfCode } from "../slack/failures.js";
import type { CardDelivery, InvoiceDeps } from "./deps.js";

/** chat.postMessage refusals that mean "not a channel Kassa can post in": the card goes by response_url. */

/**
 * `registerKey`: the register the invoice is from (main's, the team id, when left out);
 * `registerName`: its name, where the workspace has several (the watch reads with it and shows it).
 */
type Asker = {
  teamId: string;
  userId: string;
  channelId: string;
  registerKey?: string;
  registerName?: string;
  /** A card posted as a reply in this thread (a re-issued link's, under the old card). */
  threadTs?: string | undefined;
};

function notWatched(
  result: "workspace_full" | "invoice_full" | "asker_full",
  deps: Pick<InvoiceDeps, "watches">,
): WatchStatus {
  const limit = {
    workspace_full: deps.watches.maxPerWorkspace,
    invoice_full: deps.watches.maxCardsPerWatch,
    asker_full: deps.watches.maxPerAsker,
  }[result];
  return { kind: "not_watched", reason: result, limit };
}

/** The login of the register a live card's watch reads with (its reads share that register's budget). */
async function watchedRegister(deps: Pick<InvoiceDeps, "stores">, asker: Asker): Promise<string | undefined> {
  return (await deps.stores.credentials.get(asker.registerKey ?? asker.teamId))?.login;
}

/** A private card: its asker is told changes by direct message while it is watched. */
async function privateCard(
  deps: Pick<InvoiceDeps, "now" | "watches">,
  given: {
    asker: Asker;
    register: string;
    invoice: Invoice;
    card: SlackMessage;
    delivery: CardDelivery;
    lang?: Lang | undefined;
  },
): Promise<SlackMessage> {
  const { asker, invoice, card, delivery } = given;
  const result = await deps.watches
    .watch(
      asker.teamId,
      given.register,
      invoice,
      { kind: "dm", user: asker.userId, postedState: invoice.state },
      asker.registerName,
    )
    .catch((error: unknown) => watchFailed(error, delivery));
  delivery.watch = result;
  if (result === "store_failed") return card;
  const status: WatchStatus =
    result === "watching"
      ? { kind: "watching", lastCheckedAt: deps.now(), private: true }
      : notWatched(result, deps);
  return withWatchStatus(card, status, { t: asker.teamId, id: invoice.id }, given.lang);
}

/** The card is shown anyway; only its live updates are lost, and the log says why. */
function watchFailed(error: unknown, delivery: CardDelivery): "store_failed" {
  delivery.watchError = error instanceof Error ? error.message : String(error);
  return "store_failed";
}

type CardOptions = { created?: boolean; entered?: EnteredAmount; lang?: Lang; customer?: string | undefined };

/** A channel card under way: what deliverInvoiceCard was given, and the register its watch reads with. */
type ChannelCard = {
  deps: Pick<InvoiceDeps, "now" | "stores" | "watches" | "feeds">;
  client: webApi.WebClient;
  asker: Asker;
  invoice: Invoice;
  card: SlackMessage;
  delivery: CardDelivery;
  options: CardOptions;
  register: string | undefined;
};

type Room = "watching" | "workspace_full" | "invoice_full" | "asker_full" | "store_failed";

const stopValueOf = ({ asker, invoice }: ChannelCard) => ({ t: asker.teamId, id: invoice.id });

/**
 * Delivers an invoice card. Channel cards are posted with chat.postMessage (Kassa then has the
 * message's ts and can keep it current); where the bot cannot post, the card goes through
 * response_url as before, saying why it is not live. Private cards go through response_url; their
 * asker is told changes by DM. Resolves to what is left to send through response_url (null: posted);
 * notes in `delivery` how it went (also when it then fails).
 */
export async function deliverInvoiceCard(
  deps: Pick<InvoiceDeps, "now" | "stores" | "watches" | "feeds">,
  client: webApi.WebClient,
  asker: Asker,
  invoice: Invoice,
  card: SlackMessage,
  visibility: ReplyVisibility,
  delivery: CardDelivery,
  /** created: the asker created the invoice (/invoice new); live updates keep "Created by" and the amount typed. */
  options: CardOptions = {},
): Promise<SlackMessage | null> {
  const watchable = deps.watches.shouldWatch(invoice, deps.now());
  const register = watchable ? await watchedRegister(deps, asker) : undefined;

  if (visibility === "private") {
    if (!register) return card;
    return privateCard(deps, { asker, register, invoice, card, delivery, lang: options.lang });
  }
  const given: ChannelCard = { deps, client, asker, invoice, card, delivery, options, register };
  // The room is checked first, so the card is posted with the right line (not posted, then corrected).
  const room = await roomFor(given);
  const posted = await postCard(given, withRoomLine(given, room));
  if (typeof posted !== "string") return posted;
  await noteFeedCard(given);
  if (register && room === "watching") await watchChannelCard(given, register, posted);
  return null;
}

/** Whether the card can be watched; a store that fails leaves it unwatched (the log says why). */
async function roomFor(given: ChannelCard): Promise<Room> {
  const { deps, asker, invoice, delivery } = given;
  if (!given.register) return "store_failed";
  const room = await deps.watches
    .room(asker.teamId, invoice.id, asker.userId)
    .catch((error: unknown) => watchFailed(error, delivery));
  if (room === "workspace_full" || room === "invoice_full" || room === "asker_full") delivery.watch = room;
  return room;
}

/** The card with its live line: kept current, or why not (the card as it is when the store failed). */
function withRoomLine(given: ChannelCard, room: Room): SlackMessage {
  const { deps, card, options } = given;
  if (room === "store_failed") return card;
  const status: WatchStatus =
    room === "watching" ? { kind: "watching", lastCheckedAt: deps.now() } : notWatched(room, deps);
  return withWatchStatus(card, status, stopValueOf(given), options.lang);
}

/**
 * Posts the card into the channel: its ts, or (where the bot cannot post) the card to send through
 * response_url, saying why it is not live.
 */
async function postCard(given: ChannelCard, live: SlackMessage): Promise<string | SlackMessage> {
  const { client, asker, card, delivery } = given;
  try {
    const posted = await client.chat.postMessage({
      channel: asker.channelId,
      ...(asker.threadTs ? { thread_ts: asker.threadTs } : {}),
      text: live.text,
      blocks: live.blocks,
    });
    if (!posted.ts) throw new Error("chat.postMessage answered without a ts");
    delivery.posted = "chat.postMessage";
    delivery.card = { channel: posted.channel ?? asker.channelId, ts: posted.ts };
    return posted.ts;
  } catch (error) {
    const code = slackErrorCode(error);
    delivery.posted = "response_url";
    delivery.postError = code;
    if (!given.register) return card;
    const reason = slackFailureOfCode(code) === "not_in_channel" ? "not_in_channel" : "cannot_post";
    return withWatchStatus(card, { kind: "not_watched", reason }, stopValueOf(given), given.options.lang);
  }
}

/**
 * A feed in this channel leaves the invoice to this card (never two announcements of one payment).
 * The register's feed: the invoice is that register's.
 */
async function noteFeedCard({ deps, asker, invoice, delivery }: ChannelCard): Promise<void> {
  await deps.feeds
    ?.noteCard(asker.registerKey ?? asker.teamId, asker.channelId, invoice.id)
    .catch((error: unknown) => {
      delivery.watchError = `feed note: ${error instanceof Error ? error.message : String(error)}`;
    });
}

/** Watches the posted card; where that fails after all, the card stops promising updates. */
async function watchChannelCard(given: ChannelCard, register: string, ts: string): Promise<void> {
  const { deps, client, asker, invoice, card, delivery, options } = given;
  const result = await deps.watches
    .watch(
      asker.teamId,
      register,
      invoice,
      {
        kind: "channel",
        channel: asker.channelId,
        ts,
        user: asker.userId,
        postedState: invoice.state,
        ...(options.created ? { createdBy: true } : {}),
        ...(options.entered ? { entered: options.entered } : {}),
        ...(options.customer ? { customer: options.customer } : {}),
      },
      asker.registerName,
    )
    .catch((error: unknown) => watchFailed(error, delivery));
  delivery.watch = result;
  if (result === "watching") {
    // Who may press Stop updating besides admins: the asker (the button itself says only which invoice).
    await deps.stores.cardOwners
      ?.noteCard(asker.teamId, { channel: asker.channelId, ts }, asker.userId)
      .catch((error: unknown) => {
        delivery.ownerError = error instanceof Error ? error.message : String(error);
      });
    return;
  }
  // Rare (the workspace filled up meanwhile, or the store failed): the card stops promising updates.
  const honest =
    result === "store_failed"
      ? card
      : withWatchStatus(card, notWatched(result, deps), stopValueOf(given), options.lang);
  await client.chat.update({ channel: asker.channelId, ts, text: honest.text, blocks: honest.blocks });
}
