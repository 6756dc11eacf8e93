import type { UnexpectedResponseError, UnreachableError } from "../payments/errors.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";

/**
 * An ephemeral reply made of one mrkdwn section. `fallback` is raw text: Slack parses the top-level
 * text for mentions too, so it is escaped here.
 */
export function ephemeral(mrkdwn: string, fallback: string): SlackMessage {
  return {
    response_type: "ephemeral",
    text: safeText(fallback, LIMITS.fallbackText),
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  };
}

export const EXAMPLE_INVOICE_ID = "715308958_rPwTzvsvCm";

export function invoiceHelpMessage(): SlackMessage {
  return ephemeral(
    [
      "*`/invoice &lt;id&gt;`* shows an invoice of this workspace's cash register: its state, amounts, commissions and times.",
      `• \`/invoice ${EXAMPLE_INVOICE_ID}\`: by invoice id`,
      `• \`/invoice https://pay.crystalpay.io/?i=${EXAMPLE_INVOICE_ID}\`: by payment page link`,
      "The card is posted in the channel; times appear in each reader's own timezone.",
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

export function serviceErrorMessage(messages: string[]): SlackMessage {
  const quoted = messages.map((message) => `> ${safeText(message.replace(/\s+/g, " "), 500)}`).join("\n");
  return ephemeral(
    `:warning: The payment service refused the request:\n${quoted}`,
    `The payment service refused the request: ${messages.join("; ")}`,
  );
}

export function notConnectedMessage(teamId: string): SlackMessage {
  return ephemeral(
    [
      ":electric_plug: This workspace has no cash register connected yet, so there is nothing to look up.",
      "A workspace admin or owner connects it with `/invoice connect` (or from Kassa's App Home tab).",
      `Operators can also run \`npm run cli -- credentials set --team ${safeText(teamId, 40)} --login &lt;login&gt; --secret -\`.`,
    ].join("\n"),
    "This workspace has no cash register connected yet. A workspace admin can connect it with /invoice connect.",
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

export function unreachableMessage(error: UnreachableError, timeoutMs: number): SlackMessage {
  const what =
    error.reason === "http-status"
      ? `the payment service answered HTTP ${error.status}`
      : error.reason === "timeout"
        ? `the payment service did not answer within ${Math.round(timeoutMs / 1000)} s`
        : "the payment service could not be reached";
  return ephemeral(
    error.retryable
      ? `:hourglass: Could not get an answer: ${what}, even after retrying. Nothing was changed; try again in a minute.`
      : `:warning: Could not get an answer: ${what}. Nothing was changed, and trying again will not help: ask the Kassa operator to check the payment service's address (PAYMENTS_API_URL).`,
    `Could not get an answer: ${what}.`,
  );
}

export function unexpectedResponseMessage(_error: UnexpectedResponseError, reference: string): SlackMessage {
  return ephemeral(
    `:warning: The payment service sent an answer Kassa cannot read, so nothing is shown rather than something wrong. Reference \`${reference}\` (the operator finds the details in the log).`,
    `The payment service sent an answer Kassa cannot read (reference ${reference}).`,
  );
}

/** Kassa's own store (credentials, settings) did not answer: not the payment service, not the user. */
export function storageUnavailableMessage(reference: string): SlackMessage {
  const message = ephemeral(
    ":hourglass: Kassa's storage is not answering right now. Try again in a minute.",
    "Kassa's storage is not answering right now. Try again in a minute.",
  );
  return {
    ...message,
    blocks: [
      ...(message.blocks ?? []),
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `Reference \`${reference}\`. If this goes on, tell the person who runs Kassa.`,
          },
        ],
      },
    ],
  };
}

export function internalErrorMessage(reference: string): SlackMessage {
  return ephemeral(
    `:boom: Something went wrong on Kassa's side. Reference \`${reference}\`: the operator finds it in the log.`,
    `Something went wrong on Kassa's side (reference ${reference}).`,
  );
}
