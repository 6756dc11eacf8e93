import { describe, expect, it } from "vitest";
import { RegisterQueue } from "../../src/payments/register-queue.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RegisterQueue: background reads within the register's budget", () => {
  it("a long background read uses the budget, never more, and a command arriving meanwhile starts at once", async () => {
    const queue = new RegisterQueue({ concurrency: 10, ratePerSecond: 10, maxWaitMs: 5000 });
    const started: number[] = [];
    const t0 = performance.now();
    // A background reader: one page after another, as an export reads.
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        await queue.run(
          "reg",
          async () => {
            started.push(performance.now() - t0);
            await sleep(5);
          },
          "background",
        );
      }
    })();
    await sleep(600);
    let commandWaited = -1;
    await queue.run("reg", async (waited) => {
      commandWaited = waited;
    });
    await sleep(600);
    stop = true;
    await reader;
    const seconds = (performance.now() - t0) / 1000;
    // Within the budget: at most the burst plus ten a second, command included.
    expect(started.length + 1).toBeLessThanOrEqual(10 + Math.ceil(seconds * 10));
    // And close to it: the reader is not starved by the reserve.
    expect(started.length).toBeGreaterThan(seconds * 10 * 0.6);
    // Started without queueing: a token was left for it.
    expect(commandWaited).toBeGreaterThanOrEqual(0);
    expect(commandWaited).toBeLessThan(5);
  });

  it("background calls wait while people's calls queue", async () => {
    const queue = new RegisterQueue({ concurrency: 10, ratePerSecond: 2, maxWaitMs: 5000 });
    const order: string[] = [];
    const calls = [
      queue.run("reg", async () => void order.push("c1")),
      queue.run("reg", async () => void order.push("c2")),
      queue.run("reg", async () => void order.push("b1"), "background"),
      queue.run("reg", async () => void order.push("c3")),
    ];
    await Promise.all(calls);
    expect(order).toEqual(["c1", "c2", "c3", "b1"]);
  });
});
