import type { UnexpectedResponseError, UnreachableError } from "../payments/errors.js";
import type { ReplyVisibility } from "./invoice.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";

/**
 * An ephemeral reply made of one mrkdwn section. `fallback` is raw text: Slack parses the top-level
 * text for mentions too, so it is escaped here.
 */
/** Who may manage the connection, in words for the person refused (no setting names). */
export const WHO_MAY_MANAGE =
  "workspace admins and owners, the person who installed Kassa, and the people the Kassa operator has named";

export function ephemeral(mrkdwn: string, fallback: string): SlackMessage {
  return {
    response_type: "ephemeral",
    text: safeText(fallback, LIMITS.fallbackText),
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  };
}

export const EXAMPLE_INVOICE_ID = "715308958_rPwTzvsvCm";

/**
 * What this workspace actually does, for the help texts. One place: a new capability (live cards)
 * adds its field here and its line in workspaceLines, and both help texts say it.
 */
export type HelpFacts = {
  visibility: ReplyVisibility;
  /** Live cards: unfinished invoices' cards update themselves (WATCH_MAX_PER_WORKSPACE above 0). */
  liveCards?: boolean;
};

/** The lines both help texts share: where this workspace's replies go. */
export function workspaceLines(facts: HelpFacts, what: string): string[] {
  return [
    facts.visibility === "private"
      ? `In this workspace ${what} are shown only to whoever asks, with a *Share in channel* button that posts them for everyone.`
      : `In this workspace ${what} are posted in the channel for everyone.`,
    ...(facts.liveCards
      ? [
          facts.visibility === "private"
            ? "When an invoice you looked up changes (paid, expired…), Kassa tells you in a direct message."
            : "Invoice cards of unfinished invoices update themselves and tell each change in their thread; *Stop updating* ends it.",
        ]
      : []),
  ];
}

export function invoiceHelpMessage(facts: HelpFacts): SlackMessage {
  return ephemeral(
    [
      "*`/invoice &lt;id&gt;`* shows an invoice of this workspace's cash register: its state, amounts, commissions and times.",
      `• \`/invoice ${EXAMPLE_INVOICE_ID}\`: by invoice id`,
      `• \`/invoice https://pay.crystalpay.io/?i=${EXAMPLE_INVOICE_ID}\`: by payment page link`,
      "• `/invoice new [amount] [currency] [description]`: create an invoice (a payment link) in a form, e.g. `/invoice new 1500 USD Order 10232`",
      "• `/invoice status`: whether a cash register is connected, and by whom",
      "• `/invoice list [paid|notpaid]`: the ten newest invoices, only for you, with Next and Share",
      "• `/invoice summary [today|yesterday|7d]`: how many invoices were made and paid, and the paid total",
      "• `/invoice digest HH:MM` in a feed channel: yesterday's summary there each day (admins); `/invoice digest off` stops it",
      "• `/invoice subscribe [paid|all]` in a channel: post every paid invoice there (`all`: also new, failed and wrong-amount ones); `/invoice unsubscribe` stops it (admins)",
      ...workspaceLines(facts, "invoice cards"),
      "Times appear in each reader's own timezone; *Refresh* on a card reads the invoice again.",
    ].join("\n"),
    "/invoice <id> shows an invoice's state, amounts, commissions and times.",
  );
}

export function invoiceUsageMessage(reason: string, input: string): SlackMessage {
  return ephemeral(
    [
      `:information_source: ${reason}: ${inlineCode(truncate(input, 100))}`,
      `An invoice id is 1 to 64 letters, digits, \`_\` or \`-\` (like \`${EXAMPLE_INVOICE_ID}\`), or paste the payment page link.`,
      "Type `/invoice help` for more.",
    ].join("\n"),
    `${reason}. Usage: /invoice <id>`,
  );
}

/** The service's own messages on one line, for quoting inside a sentence: escaped and bounded. */
export function serviceWords(messages: string[]): string {
  return messages.map((message) => safeText(message.replace(/\s+/g, " "), 200)).join("; ");
}

/** Said under every refusal, so the reader knows where they stand and what to try. */
export const REFUSAL_NEXT_STEP =
  "Nothing was changed. Check what you asked for and try again; if the refusal stays, a workspace admin can check the cash register's settings in the payment service's dashboard.";

export function serviceErrorMessage(messages: string[]): SlackMessage {
  const quoted = messages.map((message) => `> ${safeText(message.replace(/\s+/g, " "), 500)}`).join("\n");
  // The next step is kept whole however long the service's messages are: they are cut instead.
  const room = LIMITS.sectionText - REFUSAL_NEXT_STEP.length - 1;
  return ephemeral(
    `${truncate(`:warning: The payment service refused the request:\n${quoted}`, room)}\n${REFUSAL_NEXT_STEP}`,
    `${truncate(`The payment service refused the request: ${messages.join("; ")}.`, LIMITS.fallbackText - 60)} Nothing was changed; check and try again.`,
  );
}

/** `/invoice <id>` for an id the cash register does not know: the id quoted, and what to try instead. */
export function invoiceNotFoundMessage(invoiceId: string, messages: string[]): SlackMessage {
  const id = inlineCode(truncate(invoiceId, 100));
  return withDetails(
    ephemeral(
      [
        `:mag: The payment service has no invoice ${id} for this workspace's cash register.`,
        "Check the id, or paste the invoice's payment link instead: `/invoice https://pay.crystalpay.io/?i=…`.",
      ].join("\n"),
      `No invoice ${invoiceId} was found. Check the id, or paste the payment link instead.`,
    ),
    `The payment service said: ${serviceWords(messages)}`,
  );
}

export function slowDownMessage(scope: "user" | "team", retryAfterSeconds: number): SlackMessage {
  const who = scope === "user" ? "you have" : "this workspace has";
  return ephemeral(
    `:snail: Slow down: ${who} sent more commands in the last minute than Kassa allows. Try again in ${retryAfterSeconds} s.`,
    `Slow down: ${who} sent too many commands this minute. Try again in ${retryAfterSeconds} s.`,
  );
}

export function notInstalledMessage(): SlackMessage {
  return ephemeral(
    ":electric_plug: Kassa is not installed in this workspace (or was uninstalled). A workspace admin can install it again from the link the Kassa operator provides.",
    "Kassa is not installed in this workspace.",
  );
}

/** Adds a context line (details: statuses, references) under a reply's one clear sentence. */
export function withDetails(message: SlackMessage, details: string): SlackMessage {
  return {
    ...message,
    blocks: [
      ...message.blocks,
      { type: "context", elements: [{ type: "mrkdwn", text: truncate(details, LIMITS.sectionText) }] },
    ],
  };
}

/**
 * No usable answer from the payment service. Plain words first; the HTTP status or what failed, and
 * the reference in the log, in a context line. Lookups change nothing, so nothing is said about changes.
 */
export function unreachableMessage(
  error: UnreachableError,
  timeoutMs: number,
  reference: string,
): SlackMessage {
  const what =
    error.reason === "http-status"
      ? `HTTP ${error.status}`
      : error.reason === "timeout"
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : "connection failed";
  if (error.retryable) {
    return withDetails(
      ephemeral(
        ":hourglass: The payment service is not answering right now. Try again in a minute.",
        "The payment service is not answering right now. Try again in a minute.",
      ),
      `Payment service: ${what}, even after retrying · reference \`${reference}\``,
    );
  }
  return withDetails(
    ephemeral(
      ":warning: Kassa cannot reach the payment service at the address it is set up with, so trying again will not help. Ask the Kassa operator to check it.",
      "Kassa cannot reach the payment service at its configured address. Ask the Kassa operator.",
    ),
    `Payment service: ${what} (operator: check PAYMENTS_API_URL) · reference \`${reference}\``,
  );
}

/** Kassa held the lookup back: the cash register's request budget is spent for now (BusyError). */
export function busyMessage(): SlackMessage {
  return withDetails(
    ephemeral(
      ":hourglass: The payment service is busy: too many lookups for this cash register are waiting, so yours was not sent. Try again in a minute.",
      "The payment service is busy: your lookup was not sent. Try again in a minute.",
    ),
    "Kassa keeps each cash register under the payment service's request limit; lookups past it wait their turn or, when the wait would be too long, are not sent.",
  );
}

export function unexpectedResponseMessage(_error: UnexpectedResponseError, reference: string): SlackMessage {
  return withDetails(
    ephemeral(
      ":warning: The payment service sent an answer Kassa cannot read, so nothing is shown rather than something wrong.",
      `The payment service sent an answer Kassa cannot read (reference ${reference}).`,
    ),
    `Reference \`${reference}\`: the operator finds the details in the log.`,
  );
}

/** Kassa's own store (credentials, settings) did not answer: not the payment service, not the user. */
export function storageUnavailableMessage(reference: string): SlackMessage {
  return withDetails(
    ephemeral(
      ":hourglass: Kassa's storage is not answering right now. Try again in a minute.",
      "Kassa's storage is not answering right now. Try again in a minute.",
    ),
    `Reference \`${reference}\`. If this goes on, tell the person who runs Kassa.`,
  );
}

export function internalErrorMessage(reference: string): SlackMessage {
  return withDetails(
    ephemeral(
      ":boom: Something went wrong on Kassa's side. Try again; if it keeps happening, tell the Kassa operator.",
      `Something went wrong on Kassa's side (reference ${reference}).`,
    ),
    `Reference \`${reference}\`: the operator finds it in the log.`,
  );
}
