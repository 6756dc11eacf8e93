import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// One way in for each kind of handler (issue 48 item 5): listeners never touch the claim board or a
// family's name (what a handler does to shared state is one call of its feature, which owns its
// families); a form's private_metadata is parsed in one place (readSubmission), and the register a
// command works on is chosen in one place (its context), as the language is.

const LISTENERS = resolve(import.meta.dirname, "../../src/listeners");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The code lines of each listener file (comments left out), by its path under src/listeners. */
function codeLines(): Array<{ file: string; lines: string[] }> {
  return sourceFiles(LISTENERS).map((path) => ({
    file: relative(LISTENERS, path),
    lines: readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line)),
  }));
}

/** The files with a code line matching every pattern. */
function filesWith(...patterns: RegExp[]): string[] {
  return codeLines()
    .filter(({ lines }) => lines.some((line) => patterns.every((pattern) => pattern.test(line))))
    .map(({ file }) => file);
}

describe("src/listeners", () => {
  it("never touches the claim board or a family's name", () => {
    expect(filesWith(/\b[A-Z][A-Z0-9_]*_FAMILY\b/)).toEqual([]);
    expect(filesWith(/\.board\b|\bClaimBoard\b/)).toEqual([]);
    expect(filesWith(/\bopenClaimBoard\b/)).toEqual([]);
  });

  it("parses a form's private_metadata in one place: the submission's context", () => {
    expect(filesWith(/private_metadata/, /parse|JSON/i)).toEqual(["contexts/view-context.ts"]);
  });

  it("chooses a command's register in one place: the command's context", () => {
    expect(filesWith(/\bchooseRegister\(/)).toEqual(["contexts/command-context.ts", "workspace/register.ts"]);
  });

  it("reads the language of a command from its context", () => {
    expect(filesWith(/\blangFor\(/).filter((file) => file.startsWith("commands/"))).toEqual([]);
  });

  it("adds to a log line through note(), holding no shared bag (only the contexts that write the line keep it)", () => {
    const holders = ["contexts/answer.ts", "contexts/audit.ts", "contexts/handled.ts"];
    expect(filesWith(/\bnoted\b/).filter((file) => !holders.includes(file))).toEqual([]);
  });
});
