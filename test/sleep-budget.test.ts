import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Tests drive background work by asking for a pass or moving a clock (test/support/manual-clock.ts),
 * not by sleeping through real intervals: the literal waits written in test/ (`sleep(500)`,
 * `wait(3 * INTERVAL)`, `setTimeout(resolve, 400)`) add up to 10 s at most. Each is counted once as
 * written, with the file's own UPPER_CASE constants put in.
 */
const BUDGET_MS = 10_000;

const WAIT = /(?:\bsleep|\bwait)\(([^()]*?)\)|setTimeout\((?:r|resolve), ([^,()]+?)[,)]/g;
const CONSTANT = /const ([A-Z][A-Z0-9_]*) = ([0-9_]+);/g;
/** The feed runner tests' interval, from test/support/feed-runs.ts. */
const SHARED = { INTERVAL: 100 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The value of a wait's argument: numbers, the file's constants, + - * /; undefined when it is not one. */
function literalMs(expression: string, constants: Record<string, number>): number | undefined {
  const named = expression.replaceAll("_", "").replace(/\b[A-Z][A-Z0-9]*\b/g, (name) => {
    const found = Object.entries(constants).find(([key]) => key.replaceAll("_", "") === name);
    return found ? String(found[1]) : name;
  });
  if (!/^[\d\s+\-*/.()]+$/.test(named)) return undefined;
  const tokens = named.match(/\d+(?:\.\d+)?|[+\-*/]/g) ?? [];
  // Left to right with * and / first: enough for `3 * INTERVAL`, `INTERVAL / 2`, `msLeft + 100`.
  const terms: number[] = [];
  let sign = 1;
  let term: number | undefined;
  let op: string | undefined;
  for (const token of tokens) {
    if (token === "*" || token === "/") op = token;
    else if (token === "+" || token === "-") {
      if (term !== undefined) terms.push(sign * term);
      sign = token === "-" ? -1 : 1;
      term = undefined;
    } else {
      const value = Number(token);
      term = term === undefined ? value : op === "/" ? term / value : term * value;
      op = undefined;
    }
  }
  if (term !== undefined) terms.push(sign * term);
  return terms.length > 0 ? terms.reduce((total, value) => total + value, 0) : undefined;
}

function literalWaits(source: string): number[] {
  const constants: Record<string, number> = { ...SHARED };
  for (const [, name, value] of source.matchAll(CONSTANT))
    if (name && value) constants[name] = Number(value.replaceAll("_", ""));
  return [...source.matchAll(WAIT)].flatMap((match) => {
    const ms = literalMs(match[1] ?? match[2] ?? "", constants);
    return ms === undefined ? [] : [ms];
  });
}

describe("the test suite's sleeps", () => {
  it(`add up to ${BUDGET_MS / 1000} s at most`, () => {
    const perFile = filesUnder("test")
      .filter((path) => !path.endsWith("sleep-budget.test.ts"))
      .map((path) => ({ path, ms: literalWaits(readFileSync(path, "utf8")).reduce((a, b) => a + b, 0) }))
      .filter((file) => file.ms > 0)
      .sort((a, b) => b.ms - a.ms);
    const total = perFile.reduce((sum, file) => sum + file.ms, 0);
    expect(total, perFile.map((file) => `${file.path}: ${file.ms} ms`).join("\n")).toBeLessThanOrEqual(
      BUDGET_MS,
    );
  });

  it("counts what a test waits for, and not what it computes", () => {
    expect(literalWaits("await sleep(500); await wait(3 * INTERVAL);")).toEqual([500, 300]);
    expect(
      literalWaits("const PAUSE_MS = 1_500;\nawait new Promise((r) => setTimeout(r, PAUSE_MS));"),
    ).toEqual([1500]);
    expect(literalWaits("await sleep(INTERVAL / 2); setTimeout(resolve, 40);")).toEqual([50, 40]);
    expect(literalWaits("await sleep(ms); setTimeout(resolve, delayMs);")).toEqual([]);
  });
});
