import { describe, expect, it } from "vitest";
import { workDue } from "../../src/store/claims/due-work.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

describe("workDue: a background job's one loop over a due family", () => {
  it("releases each item as its work says; a failing one is reported and due again after retryMs", async () => {
    const board = memoryClaimBoard();
    for (const key of ["a", "b", "c"]) await board.enlist("jobs", key, 100);
    const failures: string[] = [];
    await workDue(
      board,
      "jobs",
      1000,
      { leaseMs: 5000, limit: 10, retryMs: 50, failed: (key) => failures.push(key) },
      async ({ key }) => {
        if (key === "b") throw new Error("no answer");
        return key === "a" ? "forget" : { dueAt: 9000 };
      },
    );
    expect(failures).toEqual(["b"]);
    expect(await board.claimDue("jobs", 1049, 5000, 10)).toEqual([]);
    expect((await board.claimDue("jobs", 1050, 100, 10)).map((item) => item.key)).toEqual(["b"]);
    // "a" is forgotten; "c" is due when its work said.
    expect((await board.claimDue("jobs", 9000, 100, 10)).map((item) => item.key)).toEqual(["b", "c"]);
  });

  it("takes no further item once the job is stopping", async () => {
    const board = memoryClaimBoard();
    for (const key of ["a", "b"]) await board.enlist("jobs", key, 100);
    const worked: string[] = [];
    let stopping = false;
    await workDue(
      board,
      "jobs",
      1000,
      { leaseMs: 5000, limit: 10, retryMs: 50, stopped: () => stopping, failed: () => undefined },
      async ({ key }) => {
        worked.push(key);
        stopping = true;
        return { dueAt: 2000 };
      },
    );
    expect(worked).toEqual(["a"]);
  });
});
