import type { Lang } from "../i18n/lang.js";
import { STEPS_TEXT } from "../i18n/steps.js";
import { InvoiceNotFoundError } from "../invoices/lookup.js";
import { BusyError, NotConnectedError, PaymentsError, ServiceError } from "../payments/errors.js";
import { CredentialsKeyError } from "../store/credentials.js";
import { newReference } from "../util/logger.js";
import type { StepResult } from "./deps.js";

type Failure = Extract<StepResult, { done: false }>;

/** The service's words for a refused login or secret (as the command replies read them). */
function credentialsRefused(error: ServiceError): boolean {
  return error.messages.some((message) => /invalid auth credentials/i.test(message));
}

/** Failures both steps share: the workspace's connection and the service's refusal of it. */
function connectionFailure(error: unknown, lang: Lang): Failure | undefined {
  const t = STEPS_TEXT[lang];
  if (error instanceof NotConnectedError)
    return { done: false, error: t.notConnected, reason: "not_connected" };
  if (error instanceof CredentialsKeyError)
    return { done: false, error: t.credentialsKey, reason: "credentials_key" };
  if (error instanceof ServiceError && credentialsRefused(error))
    return {
      done: false,
      error: t.credentialsRefused(error.messages.join("; ")),
      reason: "credentials_refused",
    };
  return undefined;
}

/**
 * Why Create invoice created nothing, or cannot tell. Only a refusal, a missing connection and a
 * full queue happen before anything is sent; after any other failure the invoice may exist, and
 * the message says to look before running the workflow again.
 */
export function createFailure(error: unknown, lang: Lang): Failure {
  const t = STEPS_TEXT[lang];
  const known = connectionFailure(error, lang);
  if (known) return known;
  if (error instanceof ServiceError)
    return {
      done: false,
      error: t.refused(error.messages.join("; ")),
      reason: "refused",
      log: { serviceErrors: error.messages },
    };
  if (error instanceof BusyError) return { done: false, error: t.busy, reason: "busy" };
  const reference = newReference();
  return {
    done: false,
    error: t.mayExist(reference),
    reason: "create_failed",
    log: { reference, err: error },
  };
}

/** Why Invoice status has no state to give. */
export function statusFailure(error: unknown, lang: Lang): Failure {
  const t = STEPS_TEXT[lang];
  const known = connectionFailure(error, lang);
  if (known) return known;
  if (error instanceof InvoiceNotFoundError)
    return { done: false, error: t.notFound(error.invoiceId), reason: "invoice_not_found" };
  if (error instanceof ServiceError)
    return {
      done: false,
      error: t.statusRefused(error.messages.join("; ")),
      reason: "service_error",
      log: { serviceErrors: error.messages },
    };
  const reference = newReference();
  if (error instanceof PaymentsError)
    return {
      done: false,
      error: t.statusUnavailable(reference),
      reason: "service_unavailable",
      log: { reference, err: error },
    };
  return {
    done: false,
    error: t.statusInternal(reference),
    reason: "internal_error",
    log: { reference, err: error },
  };
}
