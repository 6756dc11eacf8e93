import type { BalanceVisibility } from "../blocks/balance.js";
import type { SlackMessage } from "../blocks/message.js";
import type { CardDelivery, TellDelivery } from "../invoices/deps.js";

/**
 * The shape of the one log line answer() writes per handled command or action: who, the context the
 * producer noted, what happened (one outcome kind with its own fields) and how long it took.
 */
export type AnswerLogLine = { command?: string; action?: string; team: string; user: string } & LogContext &
  Outcome & {
    /** The reply could not be sent (response_url or Web API error); the line is then an error. */
    replyFailed?: string;
    latencyMs: number;
  };

/**
 * Facts a producer notes as it goes, before it knows how the request ends: they go onto the log line
 * whatever the outcome, failures included (a failed lookup still names its invoice).
 */
export type { CardDelivery, TellDelivery };

export type LogContext = CardDelivery & {
  /** The invoice id asked for or pressed on. */
  invoice?: string;
  /** The /paymethods filter, as typed or carried by a page button. */
  filter?: string;
  /** The /paymethods page a button asked for. */
  page?: number;
  /** The /invoice sub-command: connect, disconnect, status or new. */
  action?: string;
  /** Why the asker may or may not manage the cash register (admin, owner, not_admin, …). */
  manager?: string;
  /** Why the asker may or may not create invoices. */
  creator?: string;
  /** Who may see /balance in this workspace. */
  visibility?: BalanceVisibility;
};

/** How an invoice card was delivered and whether it stays live (live-card.ts fills it). */
/** An invoice was read from the service. */
export type InvoiceRead = {
  /** The service answers every processed request with 200; anything else was a failure. */
  upstreamStatus: 200;
  state: string;
  /** On a Refresh: the state the card showed, when it changed. */
  previousState?: string;
};

/** The method list was read, from the cache or the service (upstreamStatus only then). */
export type MethodsRead = { cached: boolean; upstreamStatus?: 200; methods: number };

/** /invoice list: a page of the history was read (never cached); how many invoices it shows. */
export type HistoryRead = { upstreamStatus: 200; invoices: number };

/** The balances were read, from the cache or the service (upstreamStatus only then). */
export type BalancesRead = {
  cached: boolean;
  upstreamStatus?: 200;
  balances: number;
  /** Entries left out because the service's answer could not be read. */
  unreadable?: number;
  /** The exchange rates for the total: read, not needed, or failed (the total is then left out). */
  rates: "ok" | "not_needed" | "failed";
  ratesError?: string;
};

/** Requests declined on purpose (RefusalError): not faults, no reference. */
export type RefusalKind = "not_allowed" | "foreign_card" | "invoice_not_found";

/** Failures replyForFailure turns into a reply (error-reply.ts). */
export type FailureKind =
  | "credentials_refused"
  | "service_error"
  | "not_connected"
  /** The stored secret was sealed with another CREDENTIALS_KEY. */
  | "credentials_key"
  | "upstream_busy"
  | "upstream_unreachable"
  | "store_unavailable"
  | "upstream_unexpected"
  | "internal_error";

/** What happened, one kind per line, each with its own fields. */
export type Outcome =
  /** Answered: a card, a list, the balances, a confirmation or the connection status. */
  | ({ outcome: "ok" } & (
      | InvoiceRead
      | MethodsRead
      | BalancesRead
      | HistoryRead
      | { upstreamStatus?: never }
    ))
  /** `help` was asked for. */
  | { outcome: "help" }
  /** The command's text could not be read; the reply shows how to write it. */
  | { outcome: "usage" }
  /** The method list was read but no method matches the filter. */
  | ({ outcome: "no_match" } & MethodsRead)
  /** The connect or create modal was opened; the answer is there, not in a reply. */
  | { outcome: "modal_opened"; methods?: number | "unavailable" }
  /** views.open failed (mostly an expired trigger_id); the asker is told to run the command again. */
  | { outcome: "modal_failed"; modalError: string; methods?: number | "unavailable" }
  /** `/invoice disconnect`: the asker is asked to confirm. */
  | { outcome: "confirm_asked" }
  /** Disconnect pressed: the credentials were removed, or there were none. */
  | { outcome: "disconnected" | "nothing_to_disconnect" }
  /** `/invoice callback rotate`: the workspace's callback address was replaced. */
  | { outcome: "callback_rotated" }
  /** `/invoice subscribe`: the channel is a feed (added, its mode changed, or a paused one resumed). */
  | { outcome: "feed_subscribed"; feed: "added" | "changed" | "resumed" }
  /** `/invoice subscribe` where Kassa cannot post: nothing saved, the asker told to invite it. */
  | { outcome: "feed_not_in_channel"; slackError: string }
  /** `/invoice digest`: the feed channel's daily summary set to a time of day, or off. */
  | { outcome: "digest_set"; digest: string }
  /** `/invoice unsubscribe`: the channel's feed was removed. */
  | { outcome: "feed_unsubscribed" }
  /** Stop updating pressed: this card left its invoice's watch. */
  | { outcome: "watch_stopped" }
  /** Too many requests from this user or workspace; nothing was asked of the service. */
  | { outcome: "rate_limited"; limit: "user" | "team" }
  /**
   * Declined (not allowed, another workspace's card, no such invoice) or failed, with its reply.
   * `reference`/`err` when the user got a reference to quote (an error line); `hint` for operators
   * only; `upstreamStatus` when the service answered with one.
   */
  | {
      outcome: RefusalKind | FailureKind;
      upstreamStatus?: number;
      hint?: string;
      reference?: string;
      err?: unknown;
    };

/** What a producer hands answer(): the reply (null when a modal answered) and what to log. */
export type Produced = { reply: SlackMessage | null; log: Outcome };
