import Big from "big.js";
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

export type RubTotal =
  /** `approximate`: some balance was converted at a rate; otherwise the sum is exact roubles. */
  | { kind: "total"; value: string; approximate: boolean }
  /** Currencies of non-zero balances the rates did not price: no total rather than a wrong one. */
  | { kind: "unpriced"; currencies: string[] };

/**
 * The balances' sum in roubles: each non-zero balance times its currency's rouble price, exact,
 * then rounded to kopecks (half up) when a conversion made it approximate.
 */
export function rubTotal(balances: Balance[], rates: RubRates): RubTotal {
  let sum = new Big(0);
  let approximate = false;
  const unpriced = new Set<string>();
  for (const balance of balances) {
    const amount = new Big(balance.amount.value);
    if (amount.eq(0)) continue;
    const currency = balance.amount.currency.toUpperCase();
    if (currency === "RUB") {
      sum = sum.plus(amount);
      continue;
    }
    const price = rates[currency];
    if (price === undefined) unpriced.add(currency);
    else {
      sum = sum.plus(amount.times(price));
      approximate = true;
    }
  }
  if (unpriced.size > 0) return { kind: "unpriced", currencies: [...unpriced].sort() };
  return { kind: "total", value: (approximate ? sum.round(2, Big.roundHalfUp) : sum).toFixed(), approximate };
}
