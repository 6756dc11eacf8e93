import { moscowTime, type SampleInvoice } from "../../sandbox/payments-samples.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";

// A register's history for the payment methods watch's tests: invoices of chosen methods and states
// at chosen times, and 28 days of healthy traffic (BITCOIN at :00 and :30, one in 20 failed; USDTTRC
// paid at :15 and :45) up to an hour before the test's start.

export const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let serial = 731_000_000;

/** One invoice in roubles with `method`, in `state`, created at `at` (epoch ms). */
export function methodInvoice(method: string, state: string, at: number, login?: string): SampleInvoice {
  serial += 1;
  return {
    id: `${serial}_MethodWatch`,
    state,
    method,
    type: "purchase",
    currency: "RUB",
    amount: "1000",
    rubAmount: "1000",
    createdAt: moscowTime(new Date(at)),
    expiredAt: moscowTime(new Date(at + 60 * MIN)),
    ...(state === "payed" ? { remainingAmount: "0", finalAt: moscowTime(new Date(at + MIN)) } : {}),
    ...(login ? { login } : {}),
  };
}

/** 28 days of healthy traffic up to 61 minutes before `start` (on the hour). */
export function healthyHistory(start: number, login?: string): SampleInvoice[] {
  const invoices: SampleInvoice[] = [];
  let bitcoin = 0;
  for (let at = start - 28 * DAY; at <= start - 61 * MIN; at += 30 * MIN) {
    bitcoin += 1;
    invoices.push(methodInvoice("BITCOIN", bitcoin % 20 === 0 ? "failed" : "payed", at, login));
    if (at + 15 * MIN <= start - 61 * MIN)
      invoices.push(methodInvoice("USDTTRC", "payed", at + 15 * MIN, login));
  }
  return invoices;
}

/** What Kassa posted in `channel`, oldest first (thread replies carry `threadTs`). */
export function postsIn(stack: Stack, channel: string): PostedMessage[] {
  return [...stack.slack.messages.values()].filter((message) => message.channel === channel);
}
