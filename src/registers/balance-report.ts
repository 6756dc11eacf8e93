import { currenciesToPrice } from "../payments/balance-total.js";
import type { PaymentsClient } from "../payments/client.js";
import type { ApiVersion, Balance, PaymentsAccount, RubRates } from "../payments/model.js";
import type { Cache } from "../store/cache.js";
import { type CachedBalances, cachedBalancesSchema } from "../store/payment-caches.js";
import { within } from "../util/within.js";

/** The balances as /balance shows them, with what the rouble total needs. */
export type BalanceReport = {
  balances: Balance[];
  unreadable: { code: string; reason: string }[];
  fetchedAt: Date;
  fromCache: boolean;
  /** Currencies that need a rouble price for a total (none: the total is plain roubles). */
  toPrice: string[];
  /** Rouble prices and when they were read; null when none were needed or the rates call failed. */
  rates: { prices: RubRates; fetchedAt: Date } | null;
  /** Why the rates call failed (the balances are still good); for the log. */
  ratesError: unknown;
};

/**
 * How long /balance waits for the rouble rates before answering without a total: the balances are
 * what the person asked for, and a slow rates call (with its retries) must not hold them up.
 */
export const RATES_BUDGET_MS = 2000;

/**
 * The cash register's balances, cached for `ttlMs` with the rouble prices read for them. A failed
 * rates call leaves the balances standing (and is not cached: the next command asks again); a failed
 * balance call fails the whole report. Another login or API version than the cached one is a miss.
 */
export async function readBalanceReport(
  client: PaymentsClient,
  cache: Cache,
  who: {
    registerKey: string;
    login: string;
    account: PaymentsAccount;
    apiVersion: ApiVersion;
    ttlMs: number;
  },
): Promise<BalanceReport> {
  const key = `balance:${who.registerKey}`;
  const cached = await cache.get(key, cachedBalancesSchema);
  const fromCache = cached?.login === who.login && cached.apiVersion === who.apiVersion;
  let entry: CachedBalances =
    cached && fromCache
      ? cached
      : {
          login: who.login,
          apiVersion: who.apiVersion,
          fetchedAt: Date.now(),
          ...(await client.getBalances(who.account)),
          rates: null,
        };
  let changed = !fromCache;
  const toPrice = currenciesToPrice(entry.balances);
  let ratesError: unknown = null;
  // Rates live no longer than the balances they were read for.
  const store = async (value: CachedBalances) => {
    const left = value.fetchedAt + who.ttlMs - Date.now();
    if (left > 0) await cache.set(key, value, left);
  };
  if (toPrice.length > 0 && !toPrice.every((code) => entry.rates?.prices[code] !== undefined)) {
    const priced = await priceBalances(client, who.account, entry, toPrice, store);
    if (priced.ok) {
      entry = priced.entry;
      changed = true;
    } else ratesError = priced.error;
  }
  if (changed) await store(entry);
  return {
    balances: entry.balances,
    unreadable: entry.unreadable,
    fetchedAt: new Date(entry.fetchedAt),
    fromCache,
    toPrice,
    rates:
      toPrice.length > 0 && entry.rates
        ? { prices: entry.rates.prices, fetchedAt: new Date(entry.rates.fetchedAt) }
        : null,
    ratesError,
  };
}

/**
 * The balances with the rouble prices of `toPrice`, read within RATES_BUDGET_MS; or why not (the
 * call failed, or took longer: its late answer still fills the cache for the next /balance).
 */
async function priceBalances(
  client: PaymentsClient,
  account: PaymentsAccount,
  read: CachedBalances,
  toPrice: string[],
  store: (value: CachedBalances) => Promise<void>,
): Promise<{ ok: true; entry: CachedBalances } | { ok: false; error: unknown }> {
  const rates = client.getRubRates(account, toPrice).then(
    (prices) => ({ ok: true as const, entry: { ...read, rates: { prices, fetchedAt: Date.now() } } }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const priced = await within(rates, RATES_BUDGET_MS);
  if (priced !== null) return priced;
  rates.then((late) => (late.ok ? store(late.entry) : undefined)).catch(() => undefined);
  return {
    ok: false,
    error: new Error(`the rates call took longer than ${RATES_BUDGET_MS} ms; answered without them`),
  };
}
