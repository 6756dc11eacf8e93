import type { BalanceVisibility } from "../../blocks/balance.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { CardDelivery, TellDelivery } from "../../invoices/deps.js";
import type { ReissueLog } from "../../links/reissue.js";
import type { MethodSwitchOutcome } from "../paymethods/outcome.js";
import type { PayoutOutcome } from "../payouts/outcome.js";
import type { MethodsOutcome } from "./methods-outcome.js";

/** The one log line answer() writes per handled command or action: who, the context noted, what
 * happened (one outcome kind with its own fields) and how long it took. */
export type AnswerLogLine = { command?: string; action?: string; team: string; user: string } & LogContext &
  Outcome & {
    /** The reply could not be sent (response_url or Web API error); the line is then an error. */
    replyFailed?: string;
    latencyMs: number;
  };

/** What a handler notes for the audit trail besides its outcome: what changed, and on what. */
export type AuditNote = { object?: string; before?: unknown; after?: unknown };

/** Facts noted before the request's end is known: on the log line whatever the outcome, failures too. */
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
  payout?: string;
  /** The cash register a command worked on, where the workspace has several. */
  register?: string;
  /** For the audit trail (listeners/contexts/audit.ts), not the log line: what changed, and on what. */
  audit?: AuditNote;
};

/** How a producer adds facts to its handler's one log line (the line's own fields: none holds them). */
export type Note<Fields = LogContext> = (fields: Fields) => void;

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
export type HistoryRead = {
  upstreamStatus: 200;
  invoices: number;
  /** A report's chart: sent to the asker's messages, or why not. */
  chart?: "sent" | "missing_scope" | "failed";
};

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

/**
 * Requests declined on purpose (RefusalError): not faults, no reference. stale_button: a button
 * whose value Kassa does not write (an old message, or a changed value), logged at warn.
 */
export type RefusalKind = "not_allowed" | "foreign_card" | "invoice_not_found" | "stale_button";

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

/**
 * What happened, one kind per line, each with its own fields: a command's or a button's, a modal
 * submission's (ViewOutcome), an event's (EventOutcome), the payment methods' (MethodsOutcome).
 */
export type Outcome = CommandOutcome | ViewOutcome | EventOutcome | MethodsOutcome;

/** What a command or a button ends in. */
export type CommandOutcome =
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
  | { outcome: "modal_opened"; methods?: number | "unavailable"; recipients?: number }
  /** views.open failed (mostly an expired trigger_id); the asker is told to run the command again. */
  | { outcome: "modal_failed"; modalError: string; methods?: number | "unavailable" }
  /** `/invoice disconnect`: the asker is asked to confirm. */
  | { outcome: "confirm_asked" }
  /** Disconnect pressed: the credentials were removed, or there were none. */
  | { outcome: "disconnected" | "nothing_to_disconnect" }
  /** `/invoice callback rotate`: the workspace's callback address was replaced. */
  | { outcome: "callback_rotated" }
  /** `/invoice subscribe`: the channel is a feed (added, its mode changed, or a paused one resumed). */
  | { outcome: "feed_subscribed"; feed: "added" | "changed" | "resumed"; channel: string }
  /** `/invoice subscribe` where Kassa cannot post: nothing saved, the asker told to invite it. */
  | { outcome: "feed_not_in_channel"; slackError: string }
  /** `/invoice digest`: the feed channel's daily summary set to a time of day, or off. */
  | { outcome: "digest_set"; digest: string }
  /** `/invoice unsubscribe`: the channel's feed was removed. */
  | { outcome: "feed_unsubscribed"; channel: string }
  /** /invoice use: the channel's register shown, set, or why not. */
  | { outcome: "register_shown" | "register_set" | "one_register" | "unknown_register" }
  /** A register kept to other channels (its connect form), asked for here: nothing read. */
  | { outcome: "register_kept_elsewhere" }
  /** Stop updating pressed: this card left its invoice's watch. */
  | { outcome: "watch_stopped" | "audit_channel_set" }
  /** `/balance alert …` and `/balance alerts`: what was done with the channel's balance alerts. */
  | { outcome: "alert"; alert: "set" | "changed" | "removed" | "not_found" | "listed" | "refused" }
  | PayoutOutcome
  | MethodSwitchOutcome
  | { outcome: "export_started"; export: string }
  | ({ outcome: "reissue" } & ReissueLog) // a payment link re-issued, or why not (issue 51)
  | { outcome: "export_busy" | "export_needs_scope" | "report_cancelled" }
  | {
      outcome: "export_cancel" | "report_cancel";
      result: "cancelled" | "not_yours" | "not_running";
      /** An export's Cancel: pressed by its asker, or by an admin for someone else's. */
      by?: "asker" | "admin";
    }
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

/** What a modal submission ends in, beside the kinds above (not_allowed, store_unavailable, …). */
export type ViewOutcome =
  /** The payload is not a current Kassa form (out of date, or another workspace's): reopen it. */
  | { outcome: "bad_form" }
  /** Values the form does not accept, each said next to its field. */
  | { outcome: "invalid"; fields: string[] }
  /** The same submission arrived again (Slack's redelivery, a double click): nothing more was done. */
  | { outcome: "duplicate" }
  /** The payment service refused; `inline` when said in the form, else told privately. */
  | { outcome: "refused"; inline: boolean; serviceErrors?: string[] }
  /** Nothing was sent to the service (not connected, busy); the creator was told. */
  | { outcome: "not_sent"; reason: string }
  /** The invoice may or may not exist; the creator was told with this reference. */
  | { outcome: "create_failed"; reference: string; err: unknown }
  /** The invoice was created and its card posted. */
  | { outcome: "created" }
  | { outcome: "schedule_created" } // a repeating invoice set (issue 51): its pass makes the runs
  /** The invoice was created, its card could not be delivered at all. */
  | { outcome: "card_failed"; err: unknown }
  /** The credentials worked and were saved. */
  | { outcome: "connected" }
  /** A payout policy saved; its announcement posted in the approval channel, or why not. */
  | { outcome: "policy_saved"; version: number; announced: "posted" | "not_in_channel" | "failed" }
  /** Someone saved the policy since the form opened (or at the same moment): nothing written. */
  | { outcome: "policy_changed_meanwhile" };

/** Facts a submission notes as it goes (as LogContext for commands). */
export type ViewContext = LogContext &
  TellDelivery & {
    /** The API version being connected. */
    apiVersion?: string;
    /** The service took longer than Slack's 3 s allowed: the answer came after the form was closed. */
    slow?: boolean;
    /** The new invoice could not be read back; the creator got its id and link instead. */
    readError?: string;
    /** Even the private note to the creator failed. */
    tellError?: string;
  };

/** One payment link of a link_shared event: read and unfurled (`ok`), or why not. */
export type LinkOutcome = {
  id: string;
  outcome: "ok" | "rate_limited" | RefusalKind | FailureKind;
  upstreamStatus?: number;
  reference?: string;
};

/** What an event ends in. */
export type EventOutcome =
  /** Done: App Home published. */
  | { outcome: "ok" }
  /** The workspace's data was deleted (uninstalled, bot token revoked). */
  | { outcome: "forgotten"; enterprise?: string }
  /** The event's payload was not what Slack documents; nothing was done. */
  | { outcome: "bad_event"; problem: string }
  /** A message with links, none of them a payment page. */
  | { outcome: "no_payment_links"; links: number }
  /** Payment links read, one outcome each; `partial` when they differ; the unfurl call refused. */
  | {
      outcome: LinkOutcome["outcome"] | "partial" | "unfurl_failed";
      links: number;
      invoices: LinkOutcome[];
      unfurled: number;
      slackError?: string;
      /** The first link's error, when it needs the operator's attention. */
      err?: unknown;
    }
  /** A broken store or a bug; nothing reached the channel. */
  | { outcome: "internal_error"; err: unknown; reference?: string };

/** The one log line per modal submission or event (handled.ts writes it). */
export type HandledLogLine = { view?: string; event?: string; team: string; user?: string } & ViewContext & {
    channel?: string;
    eventId?: string;
  } & Outcome & { latencyMs: number };

/** What a producer hands answer(): the reply (null when a modal answered) and what to log. */
export type Produced = { reply: SlackMessage | null; log: Outcome };
