/**
 * Why a call to the payment service gave no answer we can show. Listeners turn each kind into its
 * own message; nothing here holds the secret.
 */
export abstract class PaymentsError extends Error {
  abstract readonly kind: "service" | "unreachable" | "unexpected" | "not-connected" | "busy";
}

/** The service processed the request and refused it (error=true); its own messages are kept. */
export class ServiceError extends PaymentsError {
  readonly kind = "service";
  // string, not the literal: PayoffRefusedError (payoff-errors.ts) names itself.
  override readonly name: string = "ServiceError";
  constructor(readonly messages: string[]) {
    super(`payment service error: ${messages.join("; ")}`);
  }
}

/** Statuses worth another try: 408/429 and the 5xx a proxy in front of the service produces. */
const RETRIED_STATUS_CODES = new Set([408, 429, 500, 502, 503, 504]);

/** No usable answer arrived: timeout, refused connection, or a non-200 status (e.g. a proxy's HTML 502). */
export class UnreachableError extends PaymentsError {
  readonly kind = "unreachable";
  override readonly name = "UnreachableError";
  constructor(
    readonly reason: "timeout" | "network" | "http-status",
    readonly status?: number,
    /** Transport detail for the log (no request body, so no secret). */
    readonly detail?: string,
  ) {
    super(
      reason === "http-status"
        ? `payment service answered HTTP ${status}`
        : reason === "timeout"
          ? "payment service did not answer in time"
          : "payment service could not be reached",
    );
  }

  /** Whether the client tries again after this (a redirect or a 404 would only repeat itself). */
  get retryable(): boolean {
    return this.reason !== "http-status" || RETRIED_STATUS_CODES.has(this.status ?? 0);
  }
}

/**
 * An answer arrived but is not what the interface promises: not JSON, JSON of another shape, a body
 * that cannot be decoded (bad gzip), or far too large.
 */
export class UnexpectedResponseError extends PaymentsError {
  readonly kind = "unexpected";
  override readonly name = "UnexpectedResponseError";
  constructor(
    readonly reason: "not-json" | "wrong-shape" | "undecodable" | "too-large",
    readonly detail: string,
  ) {
    super(`unexpected response from the payment service (${reason}): ${detail}`);
  }
}

/** The workspace has no cash register connected. */
export class NotConnectedError extends PaymentsError {
  readonly kind = "not-connected";
  override readonly name = "NotConnectedError";
  /** `registerKey`: the register's key (the team id for a workspace's main register). */
  constructor(readonly registerKey: string) {
    super(`cash register ${registerKey} is not connected`);
  }
}

/**
 * Not sent: too many requests to this cash register are already waiting their turn (its rate and
 * concurrency budget, see register-queue.ts), so this one would wait, or has waited, past the
 * longest wait allowed (PAYMENTS_MAX_QUEUE_MS); or, `withdrawn`, its caller's last check when its
 * turn came said no (a payout's submit whose claim had lapsed meanwhile).
 */
export class BusyError extends PaymentsError {
  readonly kind = "busy";
  override readonly name = "BusyError";
  constructor(
    /** Refused on arrival (the estimated wait was too long), or after waiting the longest allowed. */
    readonly reason: "queue-full" | "waited-too-long" | "withdrawn",
    readonly waitMs: number,
  ) {
    super(
      reason === "queue-full"
        ? `payment service busy: this request would wait about ${Math.round(waitMs)} ms for its turn`
        : reason === "withdrawn"
          ? `not sent: withdrawn by its caller when its turn came, after ${Math.round(waitMs)} ms`
          : `payment service busy: this request waited ${Math.round(waitMs)} ms for its turn`,
    );
  }
}
