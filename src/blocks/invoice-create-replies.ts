// What the creator of an invoice is told when the form cannot do its job.
import type { types } from "@slack/bolt";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral, serviceWords, WHO_MAY_MANAGE } from "./replies.js";

/** The service refused the invoice: its own words, for the field or the private message. */
export function refusalText(messages: string[]): string {
  return truncate(`The payment service refused it: ${messages.join("; ")}`, 300);
}

export function createNotAllowedMessage(): SlackMessage {
  return ephemeral(
    `:lock: In this workspace only ${WHO_MAY_MANAGE} can create invoices. Ask one of them, or ask an admin to let everyone create them (connection settings, \`/invoice connect\`).`,
    "Only workspace admins and owners can create invoices in this workspace.",
  );
}

/** Told privately when the service refused an invoice after the form had closed. */
export function createRefusedMessage(messages: string[], amount: string, currency: string): SlackMessage {
  return ephemeral(
    [
      `:warning: The invoice for ${inlineCode(`${amount} ${currency}`)} was not created: the payment service answered “${serviceWords(messages)}”.`,
      "Nothing was posted. Run `/invoice new` again with other values.",
    ].join("\n"),
    `The invoice was not created: ${messages.join("; ")}`,
  );
}

/** Told privately when nothing was sent to the payment service (so nothing was created). */
export function createNotSentMessage(amount: string, currency: string, why: string): SlackMessage {
  return ephemeral(
    `:warning: The invoice for ${inlineCode(`${amount} ${currency}`)} was not created: ${safeText(why, 200)}. Nothing was sent to the payment service; run \`/invoice new\` again in a minute.`,
    "The invoice was not created; nothing was sent to the payment service.",
  );
}

/** Told privately when the request may have reached the service but no usable answer came back. */
export function createFailedMessage(
  amount: string,
  currency: string,
  why: string,
  reference: string,
): SlackMessage {
  const message = ephemeral(
    `:warning: Kassa could not tell whether the invoice for ${inlineCode(`${amount} ${currency}`)} was created: ${safeText(why, 200)}. Before trying again, check the cash register's invoices in CrystalPay, so the payer does not get two links.`,
    "Kassa could not tell whether the invoice was created.",
  );
  const context: types.ContextBlock = {
    type: "context",
    elements: [{ type: "mrkdwn", text: `Reference: ${inlineCode(reference)}` }],
  };
  return { ...message, blocks: [...message.blocks, context] };
}

/** Created, but its card could not be read back: the link alone, and how to see the card. */
export function createdWithoutCardMessage(id: string, url: string, userId: string): SlackMessage {
  const safeUrl = /^https:\/\/[^\s<>|]+$/.test(url) ? url : undefined;
  return {
    text: `Invoice ${id} was created by <@${userId}>.`,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncate(
            `:receipt: Invoice ${inlineCode(id)} was created${safeUrl ? `: <${safeUrl}|payment page>` : ""}. Its details could not be read just now; \`/invoice ${id}\` shows them.`,
            LIMITS.sectionText,
          ),
        },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: `Created by <@${userId}>.` }] },
    ],
  };
}
