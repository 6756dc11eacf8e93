import { ERROR_TEXT } from "../i18n/errors.js";
import { HELP_TEXT, type UsageReason } from "../i18n/help.js";
import type { Lang } from "../i18n/lang.js";
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
export const WHO_MAY_MANAGE = ERROR_TEXT.en.whoMayManage;

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
export function workspaceLines(
  facts: HelpFacts,
  what: "invoiceCards" | "methodLists",
  lang: Lang = "en",
): string[] {
  const t = HELP_TEXT[lang];
  return [
    facts.visibility === "private" ? t.sharedPrivately(t[what]) : t.postedInChannel(t[what]),
    ...(facts.liveCards ? [facts.visibility === "private" ? t.dmOnChange : t.liveInThread] : []),
  ];
}

export function invoiceHelpMessage(facts: HelpFacts, lang: Lang = "en"): SlackMessage {
  const t = HELP_TEXT[lang];
  return ephemeral(
    [
      ...t.invoiceHelp(EXAMPLE_INVOICE_ID),
      ...workspaceLines(facts, "invoiceCards", lang),
      t.invoiceTimes,
    ].join("\n"),
    t.invoiceHelpFallback,
  );
}

export function invoiceUsageMessage(reason: UsageReason, input: string, lang: Lang = "en"): SlackMessage {
  const t = HELP_TEXT[lang];
  const words = t.reasons[reason];
  return ephemeral(
    [
      `:information_source: ${words}: ${inlineCode(truncate(input, 100))}`,
      t.invoiceUsageId(EXAMPLE_INVOICE_ID),
      t.invoiceUsageMore,
    ].join("\n"),
    t.invoiceUsageFallback(words),
  );
}

/** The service's own messages on one line, for quoting inside a sentence: escaped and bounded. */
export function serviceWords(messages: string[]): string {
  return messages.map((message) => safeText(message.replace(/\s+/g, " "), 200)).join("; ");
}

/** Said under every refusal, so the reader knows where they stand and what to try. */
export const REFUSAL_NEXT_STEP = ERROR_TEXT.en.refusalNextStep;

export function serviceErrorMessage(messages: string[], lang: Lang = "en"): SlackMessage {
  const t = ERROR_TEXT[lang];
  const quoted = messages.map((message) => `> ${safeText(message.replace(/\s+/g, " "), 500)}`).join("\n");
  // The next step is kept whole however long the service's messages are: they are cut instead.
  const room = LIMITS.sectionText - t.refusalNextStep.length - 1;
  return ephemeral(
    `${truncate(t.refused(quoted), room)}\n${t.refusalNextStep}`,
    `${truncate(t.refusedFallback(messages.join("; ")), LIMITS.fallbackText - 80)}${t.refusedFallbackEnd}`,
  );
}

/** `/invoice <id>` for an id the cash register does not know: the id quoted, and what to try instead. */
export function invoiceNotFoundMessage(
  invoiceId: string,
  messages: string[],
  lang: Lang = "en",
): SlackMessage {
  const t = ERROR_TEXT[lang];
  const id = inlineCode(truncate(invoiceId, 100));
  return withDetails(
    ephemeral([t.notFound(id), t.notFoundHint].join("\n"), t.notFoundFallback(invoiceId)),
    t.serviceSaid(serviceWords(messages)),
  );
}

export function slowDownMessage(
  scope: "user" | "team",
  retryAfterSeconds: number,
  lang: Lang = "en",
): SlackMessage {
  const t = ERROR_TEXT[lang];
  return ephemeral(t.slowDown(scope, retryAfterSeconds), t.slowDownFallback(scope, retryAfterSeconds));
}

export function notInstalledMessage(lang: Lang = "en"): SlackMessage {
  return ephemeral(ERROR_TEXT[lang].notInstalled, ERROR_TEXT[lang].notInstalledFallback);
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
  lang: Lang = "en",
): SlackMessage {
  const t = ERROR_TEXT[lang];
  const what =
    error.reason === "http-status"
      ? t.httpStatus(error.status ?? 0)
      : error.reason === "timeout"
        ? t.noAnswerWithin(Math.round(timeoutMs / 1000))
        : t.connectionFailed;
  if (error.retryable) {
    return withDetails(
      ephemeral(`:hourglass: ${t.notAnswering}`, t.notAnswering),
      t.notAnsweringDetails(what, reference),
    );
  }
  return withDetails(ephemeral(t.badAddress, t.badAddressFallback), t.badAddressDetails(what, reference));
}

/** Kassa held the lookup back: the cash register's request budget is spent for now (BusyError). */
export function busyMessage(lang: Lang = "en"): SlackMessage {
  const t = ERROR_TEXT[lang];
  return withDetails(ephemeral(`:hourglass: ${t.busy}`, t.busyFallback), t.busyDetails);
}

export function unexpectedResponseMessage(
  _error: UnexpectedResponseError,
  reference: string,
  lang: Lang = "en",
): SlackMessage {
  const t = ERROR_TEXT[lang];
  return withDetails(
    ephemeral(t.unreadable, t.unreadableFallback(reference)),
    t.unreadableDetails(reference),
  );
}

/** Kassa's own store (credentials, settings) did not answer: not the payment service, not the user. */
export function storageUnavailableMessage(reference: string, lang: Lang = "en"): SlackMessage {
  const t = ERROR_TEXT[lang];
  return withDetails(ephemeral(`:hourglass: ${t.storage}`, t.storage), t.storageDetails(reference));
}

export function internalErrorMessage(reference: string, lang: Lang = "en"): SlackMessage {
  const t = ERROR_TEXT[lang];
  return withDetails(
    ephemeral(`:boom: ${t.internal}`, t.internalFallback(reference)),
    t.internalDetails(reference),
  );
}
