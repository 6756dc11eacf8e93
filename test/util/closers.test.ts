import { describe, expect, it } from "vitest";
import { Closers } from "../../src/util/closers.js";

describe("Closers", () => {
  it("stops the jobs together with the grace given, then closes the rest last opened first", async () => {
    const closers = new Closers();
    const done: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    closers.push(() => done.push("store"));
    closers.push(async () => {
      done.push("client");
    });
    closers.job(async (graceMs) => {
      done.push(`watcher ${graceMs}`);
      await held;
      done.push("watcher done");
    });
    closers.push(() => done.push("timer"));
    closers.job(async (graceMs) => {
      done.push(`feed ${graceMs}`);
      release();
    });
    await closers.closeAll(3000);
    expect(done).toEqual(["feed 3000", "watcher 3000", "watcher done", "timer", "client", "store"]);
  });

  it("closes each once: a second closeAll finds nothing left", async () => {
    const closers = new Closers();
    let closed = 0;
    closers.push(() => {
      closed += 1;
    });
    await closers.closeAll();
    await closers.closeAll();
    expect(closed).toBe(1);
  });
});
