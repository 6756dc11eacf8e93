/**
 * A realistic history for the sandbox cash register: thousands of invoices over the past weeks,
 * every state, several methods and currencies, test payments, descriptions in English and Russian.
 * Deterministic for a seed and a `now`, so tests and the demo can count what they expect.
 */
import Big from "big.js";
import { moscowTime, type SampleInvoice } from "./payments-samples.js";

export type HistoryOptions = {
  now?: Date;
  /** How many days back from today (default 60). */
  days?: number;
  /** Invoices on an ordinary weekday (default 60; weekends have fewer). */
  perDay?: number;
  seed?: number;
  /** First id number (9 digits with the suffix; default 720000000). */
  firstId?: number;
  login?: string;
};

/** A small PRNG (mulberry32): the same seed gives the same history. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, weighted: ReadonlyArray<readonly [T, number]>): T {
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = next() * total;
  for (const [value, weight] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return (weighted[weighted.length - 1] as readonly [T, number])[0];
}

/** Methods payers use, how often, and the currency a v2 answer then shows (with roubles per unit). */
const METHODS = [
  ["CARDRUBP2P", 34, "RUB", "1"],
  ["CRYSTALPAY", 18, "RUB", "1"],
  ["USDTTRC", 12, "USDT", "92.41"],
  ["LZTMARKET", 8, "RUB", "1"],
  ["BITCOIN", 7, "BTC", "6541873.22"],
  ["TONCRYPTOBOT", 5, "TON", "512.3"],
  ["ETHEREUM", 4, "ETH", "281000.5"],
  ["CARDTRYP2P", 3, "TRY", "2.71"],
] as const;

const STATES = [
  ["payed", 64],
  ["notpayed", 20],
  ["failed", 6],
  ["wrongamount", 3],
  ["unavailable", 2],
  ["processing", 1],
] as const;

const CURRENCIES = [
  ["RUB", 84, "1"],
  ["USD", 11, "92.5"],
  ["EUR", 5, "100.3"],
] as const;

const DESCRIPTIONS = ["Order", "Заказ №", "Subscription", "Подписка", "Invoice", "Счёт-оферта"] as const;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** An amount in `currency`: mostly small, now and then large; kopecks on about a third. */
function amountIn(next: () => number, currency: string): string {
  const scale = currency === "RUB" ? 1 : 0.011;
  const base = Math.exp(4.6 + next() * 5.4) * scale; // ~100 to ~22,000 RUB, a long tail
  const whole = Math.max(1, Math.round(base));
  return next() < 0.35 ? `${whole}.${String(Math.floor(next() * 100)).padStart(2, "0")}` : String(whole);
}

/**
 * The history, oldest first (the fake sorts it newest first). Times follow a working day: most
 * invoices between 09:00 and 21:00 Moscow time, fewer at weekends; none after `now`.
 */
export function sampleHistory(options: HistoryOptions = {}): SampleInvoice[] {
  const now = options.now ?? new Date();
  const days = options.days ?? 60;
  const perDay = options.perDay ?? 60;
  const next = random(options.seed ?? 31);
  const invoices: SampleInvoice[] = [];
  let number = options.firstId ?? 720_000_000;
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 3 * 3_600_000;
  for (let back = days; back >= 0; back -= 1) {
    const dayStart = startOfToday - back * 86_400_000;
    const weekday = new Date(dayStart + 3 * 3_600_000).getUTCDay();
    const count = Math.round(perDay * (weekday === 0 || weekday === 6 ? 0.55 : 1) * (0.8 + next() * 0.4));
    const times = Array.from({ length: count }, () => {
      const hour = next() < 0.85 ? 9 + next() * 12 : next() * 24;
      return dayStart + Math.floor(hour * 3_600_000);
    }).sort((a, b) => a - b);
    for (const at of times) {
      if (at > now.getTime()) continue;
      number += 1;
      invoices.push(invoiceAt(next, number, new Date(at), now, options.login));
    }
  }
  return invoices;
}

function invoiceAt(next: () => number, number: number, at: Date, now: Date, login?: string): SampleInvoice {
  const suffix = Array.from({ length: 10 }, () => LETTERS[Math.floor(next() * LETTERS.length)]).join("");
  const id = `${number}_${suffix}`;
  const [currency, , rate] = pick(
    next,
    CURRENCIES.map((entry) => [entry, entry[1]] as const),
  );
  const amount = amountIn(next, currency);
  const rubAmount = new Big(amount).times(rate).round(2).toFixed();
  const lifetimeMinutes = pick(next, [
    [60, 5],
    [1440, 3],
    [4320, 1],
  ]);
  const expires = new Date(at.getTime() + lifetimeMinutes * 60_000);
  const test = next() < 0.04;
  let state: string = pick(next, STATES);
  // Only recent invoices can still be waiting; older unpaid ones have expired (still `notpayed`).
  if ((state === "processing" || state === "wrongamount") && expires < now && next() < 0.5) state = "failed";
  const [method, , payCurrency, payRate] = pick(
    next,
    METHODS.map((entry) => [entry, entry[1]] as const),
  );
  const invoice: SampleInvoice = {
    id,
    state,
    type: next() < 0.95 ? "purchase" : "topup",
    currency,
    amount,
    rubAmount,
    createdAt: moscowTime(at),
    expiredAt: moscowTime(expires),
  };
  if (next() < 0.6) invoice.extra = `crm-${Math.floor(next() * 90_000) + 10_000}`;
  if (next() < 0.8) {
    const word = DESCRIPTIONS[Math.floor(next() * DESCRIPTIONS.length)] ?? "Order";
    invoice.description = `${word} ${10_000 + Math.floor(next() * 90_000)}`;
  }
  if (login) invoice.login = login;
  if (test) {
    invoice.method = "TEST";
    return invoice;
  }
  const chose = state !== "notpayed" || next() < 0.3;
  if (!chose) return invoice;
  invoice.method = method;
  const commissionPercent = method.startsWith("CARD") ? "3" : "1.5";
  if (payCurrency !== "RUB") {
    const digits = payCurrency === "BTC" || payCurrency === "ETH" ? 8 : 4;
    invoice.payCurrency = payCurrency;
    invoice.payAmount = new Big(rubAmount).div(payRate).round(digits, Big.roundUp).toFixed();
    invoice.serviceCommission = new Big(invoice.payAmount)
      .times(commissionPercent)
      .div(100)
      .round(digits)
      .toFixed();
  } else {
    invoice.serviceCommission = new Big(rubAmount).times(commissionPercent).div(100).round(2).toFixed();
  }
  if (state === "payed") {
    invoice.remainingAmount = "0";
    invoice.finalAt = moscowTime(new Date(at.getTime() + Math.floor(next() * 20 * 60_000)));
  }
  return invoice;
}
