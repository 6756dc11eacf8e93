import { describe, expect, it } from "vitest";
import { cachedMethodsSchema } from "../../src/store/payment-caches.js";

const method = {
  code: "BITCOIN",
  name: "Bitcoin",
  enabled: false,
  currency: "BTC",
  commissionPercent: "1.5",
  commission: { value: "0.000004", currency: "BTC" },
  extraCommissionPercent: "0",
  extraCommission: null,
  minimalStatusLevel: 0,
  limits: null,
};
const entry = { login: "shop", apiVersion: "v3", fetchedAt: 1, payoutOnly: [], unreadable: [] };

describe("a cached method list read back", () => {
  it("reads a list cached before the merchant's own switch was kept with it as what payers get", () => {
    const read = cachedMethodsSchema.parse({ ...entry, methods: [method] });
    expect(read.methods[0]?.switchedOn).toBe(false);
  });

  it("keeps the merchant's own switch where it was cached", () => {
    const read = cachedMethodsSchema.parse({ ...entry, methods: [{ ...method, switchedOn: true }] });
    expect(read.methods[0]).toMatchObject({ enabled: false, switchedOn: true });
  });
});
