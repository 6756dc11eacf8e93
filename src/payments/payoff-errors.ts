import { ServiceError, UnexpectedResponseError } from "./errors.js";

/**
 * Why the service refused a payout call, read from its own words (the wording is not documented:
 * notes/payouts.md lists only the kinds seen in clients). `other`: a refusal none of these fit; the
 * messages are shown as they come in every case.
 */
export type PayoffRefusal =
  | "unknown-method"
  | "limits"
  | "insufficient-funds"
  | "bad-signature"
  | "not-found"
  | "wrong-state"
  | "invalid-auth"
  | "missing-field"
  | "other";

/** First match wins: a "method" message about limits is about limits, so limits come first. */
const PATTERNS: [PayoffRefusal, RegExp][] = [
  ["invalid-auth", /auth credentials|авторизац/i],
  ["bad-signature", /signature|подпис/i],
  ["insufficient-funds", /insufficient|not enough|недостаточно/i],
  ["limits", /limit|minimum|maximum|\bmin\b|\bmax\b|лимит|минимал|максимал/i],
  ["wrong-state", /state|status|already|cannot be (submitted|cancel)|статус|уже/i],
  ["unknown-method", /method|метод/i],
  ["not-found", /not found|не найден/i],
  ["missing-field", /field is required/i],
];

export function classifyPayoffRefusal(messages: readonly string[]): PayoffRefusal {
  for (const [reason, pattern] of PATTERNS) {
    if (messages.some((message) => pattern.test(message))) return reason;
  }
  return "other";
}

/**
 * The service refused a payout call (error=true). A ServiceError still (kind `service`, its messages
 * kept verbatim for the person), with the refusal's kind for choosing the words around them.
 */
export class PayoffRefusedError extends ServiceError {
  override readonly name: string = "PayoffRefusedError";
  readonly reason: PayoffRefusal;
  constructor(
    messages: string[],
    /** Which call was refused. */
    readonly call: "create" | "submit" | "cancel" | "info" | "methods" | "history",
  ) {
    super(messages);
    this.reason = classifyPayoffRefusal(messages);
  }
}

/**
 * A payout Kassa would not send: the draft is not what the service can sign exactly (an amount that
 * is not a plain decimal string, an empty wallet, v3's wallet_extra on v2). Nothing was sent.
 */
export class PayoffDraftError extends Error {
  override readonly name = "PayoffDraftError";
  constructor(
    readonly field: "amount" | "method" | "wallet" | "walletExtra" | "salt" | "id",
    readonly problem: string,
  ) {
    super(`payout not sent: ${field} ${problem}`);
  }
}

/** The service's quote is not the payout asked for: `payoffId` exists at the service, still `created`. */
export class PayoffMismatchError extends UnexpectedResponseError {
  constructor(
    readonly payoffId: string,
    detail: string,
  ) {
    super("wrong-shape", detail);
  }
}
