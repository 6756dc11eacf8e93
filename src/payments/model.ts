import type { ServiceTime } from "./time.js";

export type { ServiceTime } from "./time.js";

export type ApiVersion = "v2" | "v3";

/**
 * An exact amount: `value` is a plain decimal string ("0.0000001"), never a float. `currency` is
 * null only where the service does not say which currency the amount is in (see invoiceFromV2).
 */
export type Money = { value: string; currency: string | null };

/** The amounts an invoice can carry, in the order a card shows them. v2 and v3 fill different ones. */
export const AMOUNT_KINDS = ["amount", "payAmount", "remainingAmount", "balanceAmount", "rubAmount"] as const;
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
  currency: string;
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

/** The cash register's login and secret as the client needs them. */
export type PaymentsAccount = { login: string; secret: string; apiVersion?: ApiVersion | undefined };

/** One payment method of the cash register and what it costs, as both API versions describe it. */
export type PaymentMethod = {
  /** Uppercase code, e.g. BITCOIN. */
  code: string;
  name: string;
  /** v3: enabled both by the merchant (settings.in) and by the service (in). */
  enabled: boolean;
  currency: string;
  /** The service's commission, percent (decimal string). */
  commissionPercent: string;
  /** The service's fixed fee, in the method's currency. */
  commission: Money;
  /** The merchant's extra commission, percent (decimal string). */
  extraCommissionPercent: string;
  /** v3 only: the merchant's extra fixed fee, in the method's currency. */
  extraCommission: Money | null;
  minimalStatusLevel: number;
  /** v3 only: payment limits, in the method's currency. */
  limits: { min: Money | null; max: Money | null } | null;
};
