import type { Invoice } from "../../src/payments/model.js";

/** An unpaid v2 invoice of 1500 RUB, as the watch queues store it (tests of src/watch/). */
export const unpaidInvoice = (id: string): Invoice => ({
  id,
  url: null,
  state: "notpayed",
  type: "purchase",
  method: null,
  requiredMethod: null,
  currency: "RUB",
  currencyConflict: null,
  amounts: { amount: { value: "1500", currency: "RUB" } },
  commissions: {},
  subtractFrom: null,
  description: null,
  extra: null,
  redirectUrl: null,
  callbackUrl: null,
  createdAt: { text: "2026-11-23 10:00:00", zone: "Europe/Moscow", epochSeconds: 1_795_000_000 },
  // Open for years: tests that judge it by the real clock see an invoice that may still be paid.
  expiredAt: { text: "2036-11-24 10:00:00", zone: "Europe/Moscow", epochSeconds: 2_111_122_800 },
  finalAt: null,
  apiVersion: "v2",
});
