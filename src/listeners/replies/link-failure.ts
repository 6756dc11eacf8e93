import {
  createNotSentMessage,
  createRefusedMessage,
  createUnsureMessage,
} from "../../blocks/invoice-create-replies.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { Lang } from "../../i18n/lang.js";
import type { LinkAttempt } from "../../links/create.js";
import { BusyError, NotConnectedError, PaymentsError, ServiceError } from "../../payments/errors.js";
import { newReference } from "../../util/logger.js";
import type { ViewOutcome } from "../contexts/outcome.js";

/** What the creator is told of a link that was not created (the form's and Create now's), and the outcome. */
export function failedLinkReply(
  attempt: Extract<LinkAttempt, { ok: false }>,
  asked: { amount: string; currency: string },
  link: { t: string; r?: string | undefined },
  lang: Lang,
): { message: SlackMessage; outcome: ViewOutcome } {
  const { error } = attempt;
  if (error instanceof ServiceError)
    return {
      message: createRefusedMessage(error.messages, asked.amount, asked.currency, lang),
      outcome: { outcome: "refused", inline: false, serviceErrors: error.messages },
    };
  // Nothing was sent: without the record, not connected, or the register's queue full.
  if (attempt.status === "not_recorded" || error instanceof NotConnectedError || error instanceof BusyError) {
    const why =
      attempt.status === "not_recorded"
        ? "store"
        : error instanceof NotConnectedError
          ? "not_connected"
          : "busy";
    return {
      message: createNotSentMessage(asked.amount, asked.currency, why, lang),
      outcome: { outcome: "not_sent", reason: attempt.status === "not_recorded" ? "store_unavailable" : why },
    };
  }
  // It may exist: the record is unsure, the links' pass looks for it by its marker.
  const reference = newReference();
  const why = error instanceof PaymentsError ? "no_answer" : "internal";
  return {
    message: createUnsureMessage(asked, why, reference, { ...link, k: attempt.ref }, lang),
    outcome: { outcome: "create_failed", reference, err: error },
  };
}
