import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const LONGEST = 80;
const LONG = 50;
const MOST_LONG = 30;

interface Measured {
  where: string;
  lines: number;
}

/** A function as a reader counts it: its first line to its last, braces included. */
function measure(path: string): Measured[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${relative(ROOT, path)}:${first + 1} ${nameOf(node)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return ts.SyntaxKind[node.kind];
}

function measured(folder: string): Measured[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .flatMap((path) => measure(join(ROOT, folder, path)));
}

const described = (list: Measured[]): string[] =>
  list.sort((a, b) => b.lines - a.lines).map(({ where, lines }) => `${where}: ${lines} lines`);

/**
 * Biome's noExcessiveLinesPerFunction does not count lines that begin with a brace; a reader does.
 * Every function-like node with a body counts on its own (a nested one also inside its parent).
 */
describe("function lengths in src/", () => {
  const functions = measured("src");

  it(`keeps every function within ${LONGEST} lines`, () => {
    expect(described(functions.filter(({ lines }) => lines > LONGEST))).toEqual([]);
  });

  it(`keeps at most ${MOST_LONG} functions over ${LONG} lines`, () => {
    const long = described(functions.filter(({ lines }) => lines > LONG));
    if (long.length > MOST_LONG) console.log(long.join("\n"));
    expect(long.length, long.join("\n")).toBeLessThanOrEqual(MOST_LONG);
  });
});
