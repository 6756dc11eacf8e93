import type { FeedStore } from "../feed/store.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { Stores } from "../store/index.js";
import type { Logger } from "../util/logger.js";
import type { AddCardResult } from "../watch/model.js";
import type { WatchRegistry } from "../watch/registry.js";

/**
 * What invoice work needs, whoever asks (a command, a button, the create form, the watcher, a
 * callback): no Slack listener types. ListenerDeps satisfies it, so listeners pass their own.
 */
export type InvoiceDeps = {
  payments: WorkspacePayments;
  /** cardOwners: where a live card's asker and a created invoice's creator are noted (who may stop it). */
  stores: Pick<Stores, "credentials" | "settings"> & Partial<Pick<Stores, "cardOwners">>;
  watches: WatchRegistry;
  logger: Logger;
  now: () => Date;
  /** Payment feeds: told of live cards posted in feed channels (they announce those invoices). */
  feeds?: Pick<FeedStore, "noteCard"> | undefined;
};

/** How a card reached its channel, for the log line of whoever delivered it. */
export type CardDelivery = {
  /** The card's watch: watching, or why not (a full workspace or invoice, a store failure). */
  watch?: AddCardResult | "store_failed";
  /** The store's error when the watch could not be written; the card went out anyway. */
  watchError?: string;
  /** Which way the channel card went. */
  posted?: "chat.postMessage" | "response_url";
  /** Slack's refusal of chat.postMessage (the card then went through response_url). */
  postError?: string;
  /** Who asked for the card (or created its invoice) could not be noted: only admins may stop it. */
  ownerError?: string;
  /** Where the channel card was posted (chat.postMessage): a link's record keeps it (issue 51). */
  card?: { channel: string; ts: string };
};

/** How a private message reached its person (created-card.ts fills it). */
export type TellDelivery = {
  told?: "chat.postEphemeral" | "dm";
  /** chat.postEphemeral's refusal, after which a DM was sent. */
  ephemeralError?: string;
};
