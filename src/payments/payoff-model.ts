import { addDecimals, compareDecimals } from "./decimal.js";
import type { ApiVersion, Money, PaymentsAccount } from "./model.js";
import type { ServiceTime } from "./time.js";

/**
 * A cash register as a payout needs it: its login and secret, and its Secret 2 (`salt`), which signs
 * create, submit and cancel (notes/payouts.md). The salt goes only into signatures, never a log.
 */
export type PayoffAccount = PaymentsAccount & { salt: string };

/**
 * Who pays the fee: `amount`: the recipient gets amount − fee and the balance loses amount;
 * `balance`: the recipient gets amount and the balance loses amount + fee.
 */
export type SubtractFrom = "balance" | "amount";

/** A payout as Kassa asks for one (`payoff/create`). */
export type PayoffDraft = {
  /** A plain decimal string ("1500.10"), sent and signed exactly as written: never a float. */
  amount: string;
  method: string;
  wallet: string;
  subtractFrom: SubtractFrom;
  /** The currency `amount` is in (the service converts); the method's own when absent. */
  amountCurrency?: string | undefined;
  /** Where the service posts the payout's end. */
  callbackUrl?: string | undefined;
  /** Kassa's own reference, kept by the service. */
  extra?: string | undefined;
  /** v3 only: a memo or tag some wallets need; refused on v2 rather than dropped. */
  walletExtra?: string | undefined;
};

/** The states the service names; anything else is kept verbatim in `Payoff.state`. */
export const PAYOFF_STATES = ["created", "processing", "payed", "failed", "canceled"] as const;
export type KnownPayoffState = (typeof PAYOFF_STATES)[number];

/**
 * One payout in both versions' fields. `amount` is what was asked, `fee` the service's commission,
 * `receives` what the recipient gets, `leavesBalance` what the balance loses: each with the currency
 * the answer names (v2 `currency`, v3 `amount_currency`); `rubAmount` the roubles the service counts.
 */
export type Payoff = {
  id: string;
  /** `created` for a quote (create's answer names none); otherwise as the service spells it. */
  state: KnownPayoffState | (string & {});
  method: string;
  /** null only where the answer carries none (v2 create). */
  wallet: string | null;
  subtractFrom: SubtractFrom;
  currency: string;
  amount: Money;
  /** null only where an info answer leaves the figure out (a quote always carries all three). */
  fee: Money | null;
  receives: Money | null;
  leavesBalance: Money | null;
  rubAmount: Money | null;
  /** The service's word on it: a failure's reason, a block explorer link once paid, `Canceled`. */
  message: string | null;
  callbackUrl: string | null;
  extra: string | null;
  /** null for a quote (create's answer carries no times). */
  createdAt: ServiceTime | null;
  /** v3: when it ended; v2 never says. */
  finalAt: ServiceTime | null;
  /** Which call's answer this is: `quote` (create) carries fewer fields than `info`. */
  source: "quote" | "info";
  apiVersion: ApiVersion;
};

/** A quote (`payoff/create`'s answer): the fee and what arrives and leaves are always there. */
export type PayoffQuote = Payoff & { fee: Money; receives: Money; leavesBalance: Money };

/** Whether `payoff` carries the fee and what arrives and leaves the balance. */
export function hasFigures(payoff: Payoff): payoff is PayoffQuote {
  return payoff.fee !== null && payoff.receives !== null && payoff.leavesBalance !== null;
}

/** A payout method of the register, from the v3 method list's `out` (fees and limits in its currency). */
export type PayoffMethod = {
  code: string;
  name: string;
  currency: string;
  /** The service's fee: percent of the amount, and a fixed part. */
  feePercent: string;
  feeFixed: Money;
  /** The account's own extra fee (`settings.out.extra_commissions`); null when the list has none. */
  extraFeePercent: string | null;
  extraFeeFixed: Money | null;
  /** "0" (no limit) is null. */
  min: Money | null;
  max: Money | null;
};

/**
 * The register's payout methods. A v2 register has no list (`listed: false`): a method must then be
 * named, and the service's refusal of an unknown one is the check.
 */
export type PayoffMethodList =
  | { listed: true; methods: PayoffMethod[]; unreadable: { code: string; reason: string }[] }
  | { listed: false; reason: "v2-has-no-list" };

/** One payout as the history lists it; fields a version leaves out are null. */
export type PayoffHistoryEntry = {
  id: string;
  state: string;
  method: string | null;
  wallet: string | null;
  amount: Money | null;
  createdAt: ServiceTime | null;
  extra: string | null;
};

/** One page, newest first; `hasNextPage` null where the service does not say (v2). */
export type PayoffHistoryPage = {
  entries: PayoffHistoryEntry[];
  unreadable: number;
  hasNextPage: boolean | null;
};

const FINAL_STATES: ReadonlySet<string> = new Set(["payed", "failed", "canceled"]);

/** A payout in one of these never changes again. */
export function isFinalPayoffState(state: string): boolean {
  return FINAL_STATES.has(state);
}

/**
 * What the approvers saw on the card: compared with a fresh `payoff/info` just before submitting.
 * The fee, what arrives and what leaves the balance are in the payout's currency.
 */
export type PayoffTerms = {
  amount: Money;
  method: string;
  wallet: string | null;
  fee: Money;
  receives: Money;
  leavesBalance: Money;
};

/** A term that can differ between what was approved and what the service says now. */
export type ChangedTerm = "amount" | "method" | "wallet" | "fee" | "receives" | "leavesBalance";

const sameMoney = (one: Money, other: Money): boolean =>
  (one.currency ?? "").toUpperCase() === (other.currency ?? "").toUpperCase() &&
  compareDecimals(one.value, other.value) === 0;

/**
 * The terms that differ between what was approved and what the service now says (exact decimals,
 * so "100" and "100.00" agree; currencies compared by code). A figure the answer leaves out (null)
 * is not compared: nothing is said of it rather than something wrong. Empty: the same payout.
 */
export function changedTerms(
  approved: PayoffTerms,
  now: Pick<Payoff, "amount" | "method" | "wallet" | "fee" | "receives" | "leavesBalance">,
): ChangedTerm[] {
  const changed: ChangedTerm[] = [];
  if (!sameMoney(approved.amount, now.amount)) changed.push("amount");
  if (approved.method.toUpperCase() !== now.method.toUpperCase()) changed.push("method");
  if (approved.wallet !== now.wallet) changed.push("wallet");
  for (const figure of ["fee", "receives", "leavesBalance"] as const) {
    const told = now[figure];
    if (told && !sameMoney(approved[figure], told)) changed.push(figure);
  }
  return changed;
}

/**
 * Whether the figures add up as `subtractFrom` says (amount = receives + fee, or leavesBalance =
 * amount + fee). The service may round: a mismatch is worth showing, not a reason to believe either.
 */
export function feeFiguresAgree(payoff: PayoffQuote): boolean {
  const { amount, fee, receives, leavesBalance } = payoff;
  return payoff.subtractFrom === "amount"
    ? compareDecimals(amount.value, addDecimals(receives.value, fee.value)) === 0
    : compareDecimals(leavesBalance.value, addDecimals(amount.value, fee.value)) === 0;
}
