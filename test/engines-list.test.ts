/**
 * The store engines of a run are read in one place, test/support/engines.ts (issue 48): no other file
 * under test/ reads TEST_REDIS_URL or TEST_POSTGRES_URL from the environment, except
 * test/global-setup.ts (which points them at the run's own databases) and the end-to-end tests under
 * test/e2e/ (their replicas' servers).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const TEST = import.meta.dirname;
/** Spelled in parts, so this file does not name them itself. */
const VARIABLES = new Set(["REDIS", "POSTGRES"].map((server) => `TEST_${server}_URL`));
const ALLOWED = new Set(["support/engines.ts", "global-setup.ts"]);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The lines of `text` that read one of the variables: `env.X`, `env["X"]`, `const { X } = env`, or the
 * name as a string of its own ("X", as `process.env[name]` would be given it). Comments and messages
 * ("X not set") do not count.
 */
function reads(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const found = (node: ts.Node) =>
    lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && VARIABLES.has(node.name.text)) found(node);
    else if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      VARIABLES.has(node.text)
    )
      found(node);
    else if (
      ts.isBindingElement(node) &&
      VARIABLES.has((node.propertyName ?? node.name).getText(source).replace(/^["'`]|["'`]$/g, ""))
    )
      found(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe("the store engines' list", () => {
  it("is read from the environment only in test/support/engines.ts (and global-setup.ts, test/e2e/)", () => {
    const offenders = testFiles(TEST).flatMap((path) => {
      const file = relative(TEST, path).replaceAll("\\", "/");
      if (ALLOWED.has(file) || file.startsWith("e2e/")) return [];
      return reads(file, readFileSync(path, "utf8")).map((line) => `test/${file}:${line}`);
    });
    expect(offenders).toEqual([]);
  });

  it("sees every way of reading them, and not a comment or a message", () => {
    const [redis, postgres] = [...VARIABLES];
    const read = (text: string) => reads("example.ts", text);
    expect(read(`const a = process.env.${redis}?.trim();`)).toEqual([1]);
    expect(read(`const a = process.env["${postgres}"];`)).toEqual([1]);
    expect(read(`const { ${redis}: url } = process.env;`)).toEqual([1]);
    expect(read(`const { ${postgres} } = process.env;`)).toEqual([1]);
    expect(read(`const name = "${redis}";\nconst url = process.env[name];`)).toEqual([1]);
    expect(read(`// ${redis} is set by global-setup\nconst a = "${postgres} not set";`)).toEqual([]);
    // And the files allowed to read them do, so the check looks where it should.
    for (const file of ALLOWED)
      expect(reads(file, readFileSync(join(TEST, file), "utf8")).length).toBeGreaterThan(0);
  });
});
