import { Big } from "./decimal.js";
import type { Balance, RubRates } from "./model.js";

/** Currencies that need a price for a rouble total: those of non-zero balances, RUB aside. */
export function currenciesToPrice(balances: Balance[]): string[] {
  const codes = new Set<string>();
  for (const balance of balances) {
    const currency = balance.amount.currency.toUpperCase();
    if (currency !== "RUB" && !new Big(balance.amount.value).eq(0)) codes.add(currency);
  }
  return [...codes].sort();
}

/**
 * No coin holding on one cash register is worth more roubles than this. The whole RUB money supply
 * (M2) is about 1.2e14 RUB; a bound some ten times that still catches a rate that is off by orders
 * of magnitude (a price in kopecks, or with its decimal point lost) without doubting a real balance.
 */
export const MAX_PLAUSIBLE_RUB = "1e15";

export type RubTotal =
  /** `approximate`: some balance was converted at a rate; otherwise the sum is exact roubles. */
  | { kind: "total"; value: string; approximate: boolean }
  /** Currencies of non-zero balances the rates did not price: no total rather than a wrong one. */
  | { kind: "unpriced"; currencies: string[] }
  /**
   * Currencies whose rate makes their non-zero balances worth less than a kopeck or more than
   * MAX_PLAUSIBLE_RUB: the rate looks wrong, so no total rather than a wrong one.
   */
  | { kind: "implausible"; currencies: string[] };

/** Whether a coin's rouble value could be real: at least a kopeck, at most MAX_PLAUSIBLE_RUB. */
function plausibleRub(value: Big): boolean {
  const size = value.abs();
  return !size.round(2, Big.roundHalfUp).eq(0) && size.lte(MAX_PLAUSIBLE_RUB);
}

/**
 * The balances' sum in roubles: each non-zero balance times its currency's rouble price, exact,
 * then rounded to kopecks (half up) when a conversion made it approximate.
 */
export function rubTotal(balances: Balance[], rates: RubRates): RubTotal {
  let roubles = new Big(0);
  const coins = new Map<string, Big>();
  const unpriced = new Set<string>();
  for (const balance of balances) {
    const amount = new Big(balance.amount.value);
    if (amount.eq(0)) continue;
    const currency = balance.amount.currency.toUpperCase();
    if (currency === "RUB") roubles = roubles.plus(amount);
    else if (rates[currency] === undefined) unpriced.add(currency);
    else coins.set(currency, (coins.get(currency) ?? new Big(0)).plus(amount));
  }
  if (unpriced.size > 0) return { kind: "unpriced", currencies: [...unpriced].sort() };
  let sum = roubles;
  const implausible: string[] = [];
  for (const [currency, amount] of coins) {
    // Judged per coin, on all its balances together: one method's dust may well be under a kopeck.
    const value = amount.times(rates[currency] ?? "0");
    if (!amount.eq(0) && !plausibleRub(value)) implausible.push(currency);
    sum = sum.plus(value);
  }
  if (implausible.length > 0) return { kind: "implausible", currencies: implausible.sort() };
  const approximate = coins.size > 0;
  return { kind: "total", value: (approximate ? sum.round(2, Big.roundHalfUp) : sum).toFixed(), approximate };
}
