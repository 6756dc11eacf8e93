import { describe, expect, it } from "vitest";
import { RetryBudget } from "../../src/payments/retry-budget.js";

describe("RetryBudget", () => {
  it("allows the floor, then a tenth of recent first attempts", () => {
    const budget = new RetryBudget({ ratio: 0.1, floor: 3, windowMs: 10_000 });
    budget.attempt();
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    for (let index = 0; index < 99; index += 1) budget.attempt();
    // 100 attempts: 3 + 10 retries in all, 3 already used.
    let allowed = 0;
    while (budget.tryRetry()) allowed += 1;
    expect(allowed).toBe(10);
  });

  it("under overload, 500 failing lookups get at most 3 + 50 retries", () => {
    const budget = new RetryBudget();
    let retries = 0;
    for (let index = 0; index < 500; index += 1) {
      budget.attempt();
      if (budget.tryRetry()) retries += 1;
      if (budget.tryRetry()) retries += 1;
    }
    expect(retries).toBeLessThanOrEqual(53);
  });
});
