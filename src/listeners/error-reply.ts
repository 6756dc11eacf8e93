import type { SlackMessage } from "../blocks/message.js";
import {
  internalErrorMessage,
  notConnectedMessage,
  serviceErrorMessage,
  storageUnavailableMessage,
  unexpectedResponseMessage,
  unreachableMessage,
} from "../blocks/replies.js";
import {
  NotConnectedError,
  ServiceError,
  UnexpectedResponseError,
  UnreachableError,
} from "../payments/errors.js";
import { StoreCallError } from "../store/deadline.js";

/** A request we decline on purpose, with the reply that says why (not a fault: no reference). */
export class RefusalError extends Error {
  constructor(
    readonly reply: SlackMessage,
    readonly outcome: string,
  ) {
    super(outcome);
  }
}

export type FailureReply = {
  message: SlackMessage;
  /** Short name for the log line's outcome field. */
  outcome: string;
  /** Set when the user is given a reference to quote; the same id goes into the log line. */
  reference?: string;
  upstreamStatus?: number;
};

/** Turns any failure of a lookup into the ephemeral reply the user sees. */
export function replyForFailure(
  error: unknown,
  context: { teamId: string; timeoutMs: number; reference: string },
): FailureReply {
  if (error instanceof RefusalError) {
    return { message: error.reply, outcome: error.outcome };
  }
  if (error instanceof ServiceError) {
    return { message: serviceErrorMessage(error.messages), outcome: "service_error" };
  }
  if (error instanceof NotConnectedError) {
    return { message: notConnectedMessage(context.teamId), outcome: "not_connected" };
  }
  if (error instanceof UnreachableError) {
    return {
      message: unreachableMessage(error, context.timeoutMs),
      outcome: "upstream_unreachable",
      ...(error.status === undefined ? {} : { upstreamStatus: error.status }),
    };
  }
  if (error instanceof StoreCallError) {
    return {
      message: storageUnavailableMessage(context.reference),
      outcome: "store_unavailable",
      reference: context.reference,
    };
  }
  if (error instanceof UnexpectedResponseError) {
    return {
      message: unexpectedResponseMessage(error, context.reference),
      outcome: "upstream_unexpected",
      reference: context.reference,
    };
  }
  return {
    message: internalErrorMessage(context.reference),
    outcome: "internal_error",
    reference: context.reference,
  };
}
