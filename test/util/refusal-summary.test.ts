import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/util/logger.js";
import { RefusalSummary } from "../../src/util/refusal-summary.js";

function summary() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, refusals: new RefusalSummary(logger, 3_600_000) };
}

describe("refusal summary", () => {
  it("writes one line per workspace and one for the rest, each with counts by reason, then starts again", () => {
    const { lines, refusals } = summary();
    for (let i = 0; i < 1000; i += 1) refusals.count("T0A", i % 4 ? "wrong signature" : "no valid signature");
    refusals.count("T0B", "body too large");
    refusals.count(undefined, "unknown callback address");
    refusals.close();
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        teamId: "T0A",
        refused: 1000,
        reasons: { "no valid signature": 250, "wrong signature": 750 },
      }),
      expect.objectContaining({ level: "warn", teamId: "T0B", refused: 1 }),
      expect.objectContaining({ level: "info", outcome: "requests_refused", refused: 1 }),
    ]);
    refusals.flush();
    expect(lines).toHaveLength(3);
  });

  it("keeps its memory bounded: at most 20 reasons a workspace, the rest counted as other", () => {
    const { lines, refusals } = summary();
    for (let i = 0; i < 50; i += 1) refusals.count("T0A", `reason ${i}`);
    refusals.close();
    const reasons = lines[0]?.reasons as Record<string, number>;
    expect(Object.keys(reasons)).toHaveLength(21);
    expect(reasons.other).toBe(30);
    expect(lines[0]?.refused).toBe(50);
  });
});
