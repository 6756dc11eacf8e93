import type { ServiceTime } from "./time.js";

export type { ServiceTime } from "./time.js";

export type ApiVersion = "v2" | "v3";

/**
 * An exact amount: `value` is a plain decimal string ("0.0000001"), never a float. `currency` is
 * null only where the service's answer does not tie the amount to one currency (see invoiceFromV3).
 */
export type Money = { value: string; currency: string | null };

/** The amounts an invoice can carry, in the order a card shows them. v2 and v3 fill different ones. */
export const AMOUNT_KINDS = [
  "amount",
  "rubAmount",
  "initialAmount",
  "payAmount",
  "remainingAmount",
  "balanceAmount",
] as const;
export type AmountKind = (typeof AMOUNT_KINDS)[number];

export const COMMISSION_KINDS = ["serviceCommission", "extraCommission", "commissionAmount"] as const;
export type CommissionKind = (typeof COMMISSION_KINDS)[number];

/** One invoice as both API versions describe it, with every amount paired with its own currency. */
export type Invoice = {
  id: string;
  /** Payment page; null when the service sent none. */
  url: string | null;
  /** As the service spells it (notpayed, payed, ...); unknown states are kept verbatim. */
  state: string;
  type: string;
  method: string | null;
  /** null when the invoice may be paid with any method. */
  requiredMethod: string | null;
  /**
   * The currency the answer names for the invoice (v2 `currency`, the pay currency; v3
   * `amount_currency ?? currency`). When a v3 answer names two different ones, both are kept in
   * `currencyConflict` and the amounts carry no currency.
   */
  currency: string;
  currencyConflict: { amountCurrency: string; currency: string } | null;
  amounts: Partial<Record<AmountKind, Money>>;
  commissions: Partial<Record<CommissionKind, Money>>;
  /** v3: whether the commission comes out of the amount or the balance. */
  subtractFrom: string | null;
  description: string | null;
  extra: string | null;
  redirectUrl: string | null;
  callbackUrl: string | null;
  createdAt: ServiceTime;
  expiredAt: ServiceTime;
  /** v3: when the invoice reached a final state. */
  finalAt: ServiceTime | null;
  apiVersion: ApiVersion;
};

/** A new invoice as Kassa asks for it; `amount` is an exact decimal string, never a float. */
export type InvoiceDraft = {
  amount: string;
  /** The invoice's currency (converted to roubles by the service); RUB when absent. */
  currency: string;
  /** Minutes the payment page stays open (1 to 4320). */
  lifetimeMinutes: number;
  description?: string | undefined;
  /** The merchant's own reference (the service's `extra`): the user's text and Kassa's marker (marker.ts). */
  extra?: string | undefined;
  /** v3's `payer_details`: the payer's e-mail. v2 is never sent it (the form does not offer it there). */
  payerDetails?: string | undefined;
  requiredMethod?: string | undefined;
  /** Where the service posts its payment notification (the workspace's callback address). */
  callbackUrl?: string | undefined;
};

/** What the service answers to a created invoice (v2 `{id, url, amount, type}`, v3 `{id, url, type, rub_amount}`). */
export type CreatedInvoice = { id: string; url: string };

/**
 * A change to one payment method at the service (`method/edit/`): the merchant's own switch
 * (`switchedOn`) and the surcharge payers pay (`extraCommissionPercent`, a plain decimal string);
 * what is left out stays as it is.
 */
export type MethodEdit = { code: string; on?: boolean; surchargePercent?: string };

/** The cash register's login and secret as the client needs them. */
export type PaymentsAccount = { login: string; secret: string; apiVersion?: ApiVersion | undefined };

/** One payment method of the cash register and what it costs, as both API versions describe it. */
export type PaymentMethod = {
  /** Uppercase code, e.g. BITCOIN. */
  code: string;
  name: string;
  /** v3: enabled both by the merchant (settings.in) and by the service (in). */
  enabled: boolean;
  /**
   * The merchant's own switch, the one `method/edit` sets: v2 `enabled`, v3 `settings.in.enabled`
   * (a method switched on here may still be off for payers when the service has it off).
   */
  switchedOn: boolean;
  currency: string;
  /** The service's commission, percent (decimal string). */
  commissionPercent: string;
  /** The service's fixed fee, in the method's currency. */
  commission: Money;
  /** The merchant's extra commission, percent (decimal string). */
  extraCommissionPercent: string;
  /** v3 only: the merchant's extra fixed fee, in the method's currency. */
  extraCommission: Money | null;
  /** null when the service sent none we could read. */
  minimalStatusLevel: number | null;
  /** v3 only: payment limits, in the method's currency; "0" (no limit) is null. */
  limits: { min: Money | null; max: Money | null } | null;
};

/**
 * A cash register's method list: the methods a payer can use, plus the entries left out and why
 * (payout-only methods have no `in` in v3; unreadable ones did not fit the schema), so a card can
 * say how many it does not show.
 */
export type MethodCatalog = {
  methods: PaymentMethod[];
  /** Codes of v3 methods without `in`: payouts only, not available for payments. */
  payoutOnly: string[];
  /** Codes of entries we could not read, with the first reason (for the log). */
  unreadable: { code: string; reason: string }[];
};

/** One balance of the cash register: a method's money, in the currency the service ties it to. */
export type Balance = {
  /** The method's code, e.g. BITCOIN (the key of the service's map). */
  code: string;
  /** v3 names it; v2 gives the code only (null). */
  name: string | null;
  amount: { value: string; currency: string };
};

/** The cash register's balances in the service's order, and the entries we could not read. */
export type BalanceSheet = {
  balances: Balance[];
  /** Codes of entries we could not read, with the first reason (for the log). */
  unreadable: { code: string; reason: string }[];
};

/** Prices of currencies in roubles (decimal strings), keyed by upper-case currency code. */
export type RubRates = Record<string, string>;

/** The method code the service gives a cash register's test payments (marked, and counted apart). */
export const TEST_METHOD = "TEST";
