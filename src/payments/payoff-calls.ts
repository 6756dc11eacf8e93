import { compareDecimals, toDecimalString } from "./decimal.js";
import { ServiceError, UnexpectedResponseError } from "./errors.js";
import type { ApiVersion, PaymentsAccount } from "./model.js";
import { PayoffDraftError, PayoffMismatchError, PayoffRefusedError } from "./payoff-errors.js";
import {
  hasFigures,
  type Payoff,
  type PayoffAccount,
  type PayoffDraft,
  type PayoffHistoryPage,
  type PayoffMethodList,
  type PayoffQuote,
} from "./payoff-model.js";
import { payoffFromV2, payoffFromV3, payoffHistoryFrom, payoffMethodsFromV3 } from "./payoff-normalize.js";
import {
  payoffHistoryV2Schema,
  payoffHistoryV3Schema,
  payoffInfoV2Schema,
  payoffInfoV3Schema,
  payoffMethodListV3Schema,
  payoffQuoteV2Schema,
  payoffQuoteV3Schema,
} from "./payoff-schemas.js";
import { payoffCreateSignature, payoffIdSignature } from "./payoff-signature.js";
import type { BeforeSend, CallPriority } from "./register-queue.js";
import { parseShape, type RequestFields, type RetryPolicy } from "./request.js";

/** What the payout calls need of PaymentsClient: its requests (the register's budget), version and zone. */
export type PayoffTransport = {
  post(
    version: ApiVersion,
    path: string,
    account: PaymentsAccount,
    fields: RequestFields,
    retry?: RetryPolicy,
    priority?: CallPriority,
    beforeSend?: BeforeSend,
  ): Promise<Record<string, unknown>>;
  versionOf(account: PaymentsAccount): ApiVersion;
  timeZone: string;
};

type Call = PayoffRefusedError["call"];

/** One request; the service's refusal becomes a PayoffRefusedError naming the call and its kind. */
async function send(
  t: PayoffTransport,
  call: Call,
  path: string,
  account: PaymentsAccount,
  fields: RequestFields,
  retry: RetryPolicy,
  priority?: CallPriority,
  beforeSend?: BeforeSend,
): Promise<{ version: ApiVersion; body: Record<string, unknown> }> {
  const version = t.versionOf(account);
  try {
    return { version, body: await t.post(version, path, account, fields, retry, priority, beforeSend) };
  } catch (error) {
    if (error instanceof ServiceError && !(error instanceof PayoffRefusedError))
      throw new PayoffRefusedError(error.messages, call);
    throw error;
  }
}

/** The service's amount as sent: a plain decimal, no sign, exponent or leading zero, above zero. */
const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
/** Method codes are upper-case words; a ":" would blur the signed `amount:method:wallet:salt`. */
const METHOD_CODE = /^[A-Za-z0-9_]{1,64}$/;

/** Refuses, before anything is sent, a draft the service could not sign or read exactly as meant. */
function checkDraft(account: PayoffAccount, draft: PayoffDraft, version: ApiVersion): void {
  if (!PLAIN_DECIMAL.test(draft.amount) || toDecimalString(draft.amount) === undefined)
    throw new PayoffDraftError("amount", "is not a plain decimal string");
  if (compareDecimals(draft.amount, "0") <= 0) throw new PayoffDraftError("amount", "is not above zero");
  if (!METHOD_CODE.test(draft.method)) throw new PayoffDraftError("method", "is not a method code");
  if (draft.wallet === "" || draft.wallet !== draft.wallet.trim() || draft.wallet.length > 512)
    throw new PayoffDraftError("wallet", "is empty, padded with spaces or too long");
  if (draft.walletExtra && version !== "v3")
    throw new PayoffDraftError("walletExtra", "exists only in API v3");
  if (!account.salt) throw new PayoffDraftError("salt", "(Secret 2) is missing");
}

/**
 * payoff/create: the quote, state `created`. Signed with Secret 2 over the amount exactly as sent.
 * Not idempotent: only a refused connection is retried. A quote for another method, wallet or
 * amount than asked is refused (the id is kept on the error, so it can be cancelled).
 */
export async function createPayoff(
  t: PayoffTransport,
  account: PayoffAccount,
  draft: PayoffDraft,
): Promise<PayoffQuote> {
  const version = t.versionOf(account);
  checkDraft(account, draft, version);
  const fields: RequestFields = {
    amount: draft.amount,
    method: draft.method,
    wallet: draft.wallet,
    subtract_from: draft.subtractFrom,
    signature: payoffCreateSignature(draft.amount, draft.method, draft.wallet, account.salt),
  };
  if (draft.amountCurrency) fields.amount_currency = draft.amountCurrency;
  if (draft.callbackUrl) fields.callback_url = draft.callbackUrl;
  if (draft.extra) fields.extra = draft.extra;
  if (draft.walletExtra) fields.wallet_extra = draft.walletExtra;
  const { body } = await send(t, "create", "payoff/create/", account, fields, "not-sent");
  const quote =
    version === "v3"
      ? payoffFromV3(parseShape(payoffQuoteV3Schema, body), t.timeZone)
      : payoffFromV2(parseShape(payoffQuoteV2Schema, body), t.timeZone);
  const problem = quoteMismatch(quote, draft);
  if (problem) throw new PayoffMismatchError(quote.id, problem);
  // The quote's schema requires the three figures: this only narrows the type.
  if (!hasFigures(quote)) throw new PayoffMismatchError(quote.id, "the quote carries no fee figures");
  return quote;
}

/** What in a quote differs from what was asked; undefined when nothing does. */
function quoteMismatch(quote: Payoff, draft: PayoffDraft): string | undefined {
  if (quote.method.toUpperCase() !== draft.method.toUpperCase())
    return `asked for method ${draft.method}, the quote says ${quote.method}`;
  if (quote.wallet !== null && quote.wallet !== draft.wallet) return "the quote names another wallet";
  if (quote.subtractFrom !== draft.subtractFrom)
    return `asked for the fee from the ${draft.subtractFrom}, the quote takes it from the ${quote.subtractFrom}`;
  const sameCurrency =
    !draft.amountCurrency || draft.amountCurrency.toUpperCase() === quote.currency.toUpperCase();
  if (sameCurrency && compareDecimals(quote.amount.value, draft.amount) !== 0)
    return `asked for ${draft.amount}, the quote says ${quote.amount.value}`;
  return undefined;
}

function readPayoff(
  t: PayoffTransport,
  version: ApiVersion,
  body: Record<string, unknown>,
  id: string,
): Payoff {
  const payoff =
    version === "v3"
      ? payoffFromV3(parseShape(payoffInfoV3Schema, body), t.timeZone)
      : payoffFromV2(parseShape(payoffInfoV2Schema, body), t.timeZone);
  if (payoff.id !== id)
    throw new UnexpectedResponseError("wrong-shape", `asked for payout ${id}, got ${payoff.id}`);
  return payoff;
}

function checkId(id: string): void {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new PayoffDraftError("id", "is not a payout id");
}

/**
 * payoff/submit or payoff/cancel, signed `id:salt`. Never retried once it may have arrived: a lost
 * answer is settled by reading payoff/info, never by sending again. `beforeSend` is asked when the
 * call's turn in the register's queue comes: false, and it is not sent (BusyError "withdrawn").
 */
export async function signedPayoffCall(
  t: PayoffTransport,
  call: "submit" | "cancel",
  account: PayoffAccount,
  id: string,
  beforeSend?: BeforeSend,
): Promise<Payoff> {
  checkId(id);
  if (!account.salt) throw new PayoffDraftError("salt", "(Secret 2) is missing");
  const fields = { id, signature: payoffIdSignature(id, account.salt) };
  const path = `payoff/${call}/`;
  const { version, body } = await send(t, call, path, account, fields, "not-sent", undefined, beforeSend);
  return readPayoff(t, version, body, id);
}

/** payoff/info: unsigned, only reads, so retried like every read. */
export async function payoffInfo(t: PayoffTransport, account: PaymentsAccount, id: string): Promise<Payoff> {
  checkId(id);
  const { version, body } = await send(t, "info", "payoff/info/", account, { id }, "transient");
  return readPayoff(t, version, body, id);
}

/** The payout methods with fees and limits: v3's method list `out`; a v2 register has none. */
export async function listPayoffMethods(
  t: PayoffTransport,
  account: PaymentsAccount,
): Promise<PayoffMethodList> {
  if (t.versionOf(account) !== "v3") return { listed: false, reason: "v2-has-no-list" };
  const { body } = await send(t, "methods", "method/list/", account, {}, "transient");
  return payoffMethodsFromV3(parseShape(payoffMethodListV3Schema, body).items);
}

/**
 * One page of the register's payouts, newest first: v2 history/payoffs/, v3 report/payoff/history/
 * (no `period`: what it means is documented nowhere, as for the invoice report).
 */
export async function payoffHistory(
  t: PayoffTransport,
  account: PaymentsAccount,
  page: number,
  items: number,
  priority: CallPriority = "command",
): Promise<PayoffHistoryPage> {
  const v3 = t.versionOf(account) === "v3";
  const path = v3 ? "report/payoff/history/" : "history/payoffs/";
  const { body } = await send(t, "history", path, account, { page, items }, "transient", priority);
  if (v3) {
    const parsed = parseShape(payoffHistoryV3Schema, body);
    return payoffHistoryFrom(parsed.items, parsed.has_next_page ?? null, t.timeZone);
  }
  return payoffHistoryFrom(parseShape(payoffHistoryV2Schema, body).payoffs, null, t.timeZone);
}
