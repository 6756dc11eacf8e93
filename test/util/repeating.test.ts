import { describe, expect, it } from "vitest";
import { RepeatingPass } from "../../src/util/repeating.js";
import { ManualClock } from "../support/manual-clock.js";

/** A pass that ends when the test says: one gate per pass. */
function gatedPasses() {
  const gates: Array<() => void> = [];
  let running = 0;
  let most = 0;
  let started = 0;
  const pass = async () => {
    started += 1;
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running -= 1;
    if (started === 2) throw new Error("second pass fails");
  };
  return {
    pass,
    openNext: () => gates.shift()?.(),
    get started() {
      return started;
    },
    get most() {
      return most;
    },
  };
}

describe("a repeating pass", () => {
  it("runs its first pass a second after start, each next one an interval after the last ended", async () => {
    const clock = new ManualClock();
    const passes = gatedPasses();
    const failures: unknown[] = [];
    const loop = new RepeatingPass(passes.pass, {
      intervalMs: () => 60_000,
      failed: (error) => failures.push(error),
      clock,
    });
    loop.start();
    await clock.advance(999);
    expect(passes.started).toBe(0);
    await clock.advance(1);
    expect(passes.started).toBe(1);
    // Still running: however much time passes, no second pass starts beside it.
    await clock.advance(600_000);
    expect(passes.started).toBe(1);
    passes.openNext();
    await clock.advance(59_999);
    expect(passes.started).toBe(1);
    await clock.advance(1);
    expect(passes.started).toBe(2);
    passes.openNext(); // the second one fails: reported, and the next one comes as usual
    await clock.advance(60_000);
    expect(passes.started).toBe(3);
    expect(failures).toHaveLength(1);
    expect(passes.most).toBe(1);
    passes.openNext();
    await loop.close(100);
    expect(loop.isStopped).toBe(true);
    await clock.advance(600_000);
    expect(passes.started).toBe(3);
    expect(clock.waiting).toBe(0);
  });

  it("runs a pass when asked, after the one under way, and resolves when it has ended", async () => {
    const clock = new ManualClock();
    const passes = gatedPasses();
    const loop = new RepeatingPass(passes.pass, { intervalMs: () => 60_000, failed: () => undefined, clock });
    loop.start();
    await clock.advance(1000);
    expect(passes.started).toBe(1);
    let asked = false;
    const now = loop.runNow().then(() => {
      asked = true;
    });
    await clock.advance(0);
    expect(passes.started).toBe(1);
    passes.openNext();
    await clock.advance(0);
    expect(passes.started).toBe(2);
    expect(asked).toBe(false);
    passes.openNext();
    await now;
    expect(asked).toBe(true);
    // The timed pass comes an interval after the asked one, and only one timer waits.
    expect(clock.waiting).toBe(1);
    await clock.advance(60_000);
    expect(passes.started).toBe(3);
    passes.openNext();
    await loop.close(100);
    await loop.runNow();
    expect(passes.started).toBe(3);
  });

  it("lets a pass under way finish within the grace, and no longer", async () => {
    const clock = new ManualClock();
    let finished = false;
    const loop = new RepeatingPass(
      async () => {
        await new Promise(() => undefined); // never ends
        finished = true;
      },
      { intervalMs: () => 5, failed: () => undefined, clock },
    );
    loop.start();
    await clock.advance(5);
    const started = performance.now();
    await loop.close(50);
    expect(performance.now() - started).toBeLessThan(500);
    expect(finished).toBe(false);
  });
});
