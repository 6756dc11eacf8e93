import { describe, expect, it } from "vitest";
import { RepeatingPass } from "../../src/util/repeating.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a repeating pass", () => {
  it("runs passes one after another, goes on after a failed one, and stops on close", async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const failures: unknown[] = [];
    const loop = new RepeatingPass(
      async () => {
        running += 1;
        most = Math.max(most, running);
        passes += 1;
        await sleep(15);
        running -= 1;
        if (passes === 2) throw new Error("second pass fails");
      },
      { intervalMs: () => 5, failed: (error) => failures.push(error) },
    );
    loop.start();
    await expect.poll(() => passes, { timeout: 2000 }).toBeGreaterThanOrEqual(4);
    await loop.close(100);
    expect(loop.isStopped).toBe(true);
    const after = passes;
    await sleep(50);
    expect(passes).toBe(after);
    expect(most).toBe(1);
    expect(failures).toHaveLength(1);
  });

  it("lets a pass under way finish within the grace, and no longer", async () => {
    let finished = false;
    const loop = new RepeatingPass(
      async () => {
        await sleep(1000);
        finished = true;
      },
      { intervalMs: () => 5, failed: () => undefined },
    );
    loop.start();
    await sleep(30);
    const started = performance.now();
    await loop.close(50);
    expect(performance.now() - started).toBeLessThan(500);
    expect(finished).toBe(false);
  });
});
