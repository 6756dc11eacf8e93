import { describe, expect, it } from "vitest";
import { SingleFlight } from "../../src/util/single-flight.js";

/** Work whose promise the test settles by hand, counting how often it was started. */
function controlled<T>() {
  const pending: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  let calls = 0;
  const work = () => {
    calls += 1;
    return new Promise<T>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  };
  return {
    work,
    get calls() {
      return calls;
    },
    resolve(index: number, value: T) {
      const entry = pending[index];
      if (!entry) throw new Error(`no call ${index}`);
      entry.resolve(value);
    },
    reject(index: number, error: unknown) {
      const entry = pending[index];
      if (!entry) throw new Error(`no call ${index}`);
      entry.reject(error);
    },
  };
}

describe("SingleFlight", () => {
  it("runs concurrent callers with one key once and gives them the same result", async () => {
    const flight = new SingleFlight<{ methods: string[] }>();
    const work = controlled<{ methods: string[] }>();
    const callers = Array.from({ length: 30 }, () => flight.run("T123", work.work));
    expect(work.calls).toBe(1);

    const result = { methods: ["BITCOIN", "TRON"] };
    work.resolve(0, result);
    const results = await Promise.all(callers);
    expect(results).toHaveLength(30);
    for (const got of results) expect(got).toBe(result);
    expect(work.calls).toBe(1);
  });

  it("runs different keys separately", async () => {
    const flight = new SingleFlight<string>();
    const work = controlled<string>();
    const first = flight.run("T1", work.work);
    const second = flight.run("T2", work.work);
    const firstAgain = flight.run("T1", work.work);
    expect(work.calls).toBe(2);

    work.resolve(1, "second workspace");
    work.resolve(0, "first workspace");
    expect(await first).toBe("first workspace");
    expect(await firstAgain).toBe("first workspace");
    expect(await second).toBe("second workspace");
  });

  it("shares a failure with the concurrent callers but does not remember it", async () => {
    const flight = new SingleFlight<string>();
    const work = controlled<string>();
    const first = flight.run("T1", work.work);
    const second = flight.run("T1", work.work);
    expect(work.calls).toBe(1);

    const failure = new Error("payment service unreachable");
    work.reject(0, failure);
    await expect(first).rejects.toBe(failure);
    await expect(second).rejects.toBe(failure);

    const next = flight.run("T1", work.work);
    expect(work.calls).toBe(2);
    work.resolve(1, "fresh");
    expect(await next).toBe("fresh");
  });

  it("calls again after a success: it is not a cache", async () => {
    const flight = new SingleFlight<string>();
    const work = controlled<string>();
    const first = flight.run("T1", work.work);
    work.resolve(0, "first");
    expect(await first).toBe("first");

    const second = flight.run("T1", work.work);
    expect(work.calls).toBe(2);
    work.resolve(1, "second");
    expect(await second).toBe("second");
  });

  it("does not let a settled key hold up another caller of the same key", async () => {
    const flight = new SingleFlight<number>();
    let calls = 0;
    const work = async () => {
      calls += 1;
      return calls;
    };
    expect(await flight.run("k", work)).toBe(1);
    expect(await flight.run("k", work)).toBe(2);
    expect(await Promise.all([flight.run("k", work), flight.run("k", work)])).toEqual([3, 3]);
    expect(calls).toBe(3);
  });
});
