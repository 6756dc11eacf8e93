import { credentialsKeyMessage, credentialsRefusedMessage, notConnectedMessage } from "../../blocks/admin.js";
import type { SlackMessage } from "../../blocks/message.js";
import {
  busyMessage,
  ephemeral,
  internalErrorMessage,
  invoiceNotFoundMessage,
  serviceErrorMessage,
  storageUnavailableMessage,
  unexpectedResponseMessage,
  unreachableMessage,
} from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { InvoiceNotFoundError } from "../../invoices/lookup.js";
import {
  BusyError,
  NotConnectedError,
  ServiceError,
  UnexpectedResponseError,
  UnreachableError,
} from "../../payments/errors.js";
import { CredentialsKeyError } from "../../store/credentials.js";
import { StoreCallError } from "../../store/deadline.js";
import { registerCliFlags } from "../../store/registers.js";
import { StaleButtonError } from "./button-value.js";
import type { FailureKind, RefusalKind } from "./outcome.js";

/** A request we decline on purpose, with the reply that says why (not a fault: no reference). */
export class RefusalError extends Error {
  constructor(
    readonly reply: SlackMessage,
    readonly outcome: RefusalKind,
  ) {
    super(outcome);
  }
}

export type FailureReply = {
  message: SlackMessage;
  /** Short name for the log line's outcome field. */
  outcome: FailureKind | RefusalKind;
  /** Set when the user is given a reference to quote; the same id goes into the log line. */
  reference?: string;
  upstreamStatus?: number;
  /** For the operators' log line only: what to do, commands included (never shown in Slack). */
  operatorHint?: string;
};

/** The service's words for a refused login or secret (matched verbatim by public clients too). */
function isCredentialsRefused(error: ServiceError): boolean {
  return error.messages.some((message) => /invalid auth credentials/i.test(message));
}

/** Failures whose reply offers a Connect button to people who may connect. */
export function offersConnect(error: unknown): boolean {
  return (
    error instanceof NotConnectedError ||
    error instanceof CredentialsKeyError ||
    (error instanceof ServiceError && isCredentialsRefused(error))
  );
}

/**
 * Turns any failure of a lookup into the ephemeral reply the user sees. `canManage`: whether this
 * user may connect the cash register (asked only when offersConnect).
 */
export function replyForFailure(
  error: unknown,
  context: { timeoutMs: number; reference: string; canManage: boolean; lang?: Lang },
): FailureReply {
  const lang = context.lang ?? "en";
  if (error instanceof RefusalError) {
    return { message: error.reply, outcome: error.outcome };
  }
  if (error instanceof StaleButtonError) {
    const text = NOTICES_TEXT[lang];
    return { message: ephemeral(text.buttonOutdated, text.buttonOutdatedFallback), outcome: "stale_button" };
  }
  if (error instanceof InvoiceNotFoundError) {
    return {
      message: invoiceNotFoundMessage(error.invoiceId, error.messages, lang),
      outcome: "invoice_not_found",
    };
  }
  if (error instanceof ServiceError) {
    if (isCredentialsRefused(error)) {
      return {
        message: credentialsRefusedMessage(error.messages, context.canManage, lang),
        outcome: "credentials_refused",
      };
    }
    return { message: serviceErrorMessage(error.messages, lang), outcome: "service_error" };
  }
  if (error instanceof NotConnectedError) {
    return {
      message: notConnectedMessage(context.canManage, lang),
      outcome: "not_connected",
      operatorHint: `an admin connects it with /invoice connect; or: npm run cli -- credentials set ${registerCliFlags(error.registerKey)} --login <login> --secret -`,
    };
  }
  if (error instanceof CredentialsKeyError) {
    return {
      message: credentialsKeyMessage(context.canManage, lang),
      outcome: "credentials_key",
      operatorHint: `restore the CREDENTIALS_KEY with key id ${error.sealedWith} (Kassa runs with ${error.configured}), or the workspace reconnects with /invoice connect`,
    };
  }
  if (error instanceof BusyError) {
    return { message: busyMessage(lang), outcome: "upstream_busy" };
  }
  if (error instanceof UnreachableError) {
    return {
      message: unreachableMessage(error, context.timeoutMs, context.reference, lang),
      outcome: "upstream_unreachable",
      reference: context.reference,
      ...(error.status === undefined ? {} : { upstreamStatus: error.status }),
    };
  }
  if (error instanceof StoreCallError) {
    return {
      message: storageUnavailableMessage(context.reference, lang),
      outcome: "store_unavailable",
      reference: context.reference,
    };
  }
  if (error instanceof UnexpectedResponseError) {
    return {
      message: unexpectedResponseMessage(error, context.reference, lang),
      outcome: "upstream_unexpected",
      reference: context.reference,
    };
  }
  return {
    message: internalErrorMessage(context.reference, lang),
    outcome: "internal_error",
    reference: context.reference,
  };
}
