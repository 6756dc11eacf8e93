import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Listeners never touch the claim board or a family's name (issue 48 item 5): what a handler does to
// shared state is one call of its feature (src/payouts, src/feed, ...), which owns its families.

const LISTENERS = resolve(import.meta.dirname, "../../src/listeners");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** What a listener may not name: a family's name, the board itself, or its opening. */
const FORBIDDEN: [string, RegExp][] = [
  ["a family's name", /\b[A-Z][A-Z0-9_]*_FAMILY\b/],
  ["the claim board", /\.board\b|\bClaimBoard\b/],
  ["the board's opening", /\bopenClaimBoard\b/],
];

describe("src/listeners", () => {
  it("never touches the claim board or a family's name", () => {
    const found = sourceFiles(LISTENERS).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return FORBIDDEN.filter(([, pattern]) => pattern.test(text)).map(
        ([what]) => `${relative(LISTENERS, file)}: ${what}`,
      );
    });
    expect(found).toEqual([]);
  });
});
