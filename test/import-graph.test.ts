import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The modules one file in src/ imports: static imports and re-exports, type-only ones included (they
 * tie the modules together just the same for a reader), and import() calls (a module loaded on demand,
 * like the Redis store, must not import its loader back either).
 */
function localImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const targets: string[] = [];
  const add = (specifier: ts.Node | undefined) => {
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith("."))
      targets.push(resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts")));
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return targets;
}

/** Every import circle found by a depth-first walk, each as the files around it, src/-relative. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const onPath = path.indexOf(file);
    if (onPath >= 0) {
      cycles.push([...path.slice(onPath), file].map((f) => relative(SRC, f)));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

describe("src/ import graph", () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, localImports(file)]));

  it("reads the imports of every module (the walk is not looking at nothing)", () => {
    expect(graph.size).toBeGreaterThan(50);
    const listeners = graph.get(join(SRC, "listeners/index.ts")) ?? [];
    expect(listeners).toContain(join(SRC, "listeners/router.ts"));
    expect(listeners).toContain(join(SRC, "listeners/deps.ts"));
    expect(graph.get(join(SRC, "store/keyv.ts"))).toContain(join(SRC, "store/redis.ts"));
    for (const targets of graph.values()) for (const target of targets) expect(graph.has(target)).toBe(true);
  });

  it("finds a circle when there is one", () => {
    const a = join(SRC, "a.ts");
    const b = join(SRC, "b.ts");
    expect(
      importCycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "a.ts"]]);
  });

  it("has no import circle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("keeps floors one-way: listener folders never import each other; below the listeners nothing imports them", () => {
    const FOLDERS = ["commands", "actions", "views", "events"];
    const folderOf = (file: string) => {
      const parts = relative(SRC, file).split("/");
      return parts[0] === "listeners" && parts.length > 2 && FOLDERS.includes(parts[1] ?? "")
        ? parts[1]
        : undefined;
    };
    // The app wires the listeners in; the command journal replays a command through their answer.
    const WIRING = new Set(["app.ts", "recovery.ts"]);
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      const from = relative(SRC, file);
      for (const target of targets) {
        const to = relative(SRC, target);
        const folder = folderOf(file);
        if (folder && folderOf(target) && folderOf(target) !== folder) crossings.push(`${from} -> ${to}`);
        if (!from.startsWith("listeners/") && to.startsWith("listeners/") && !WIRING.has(from))
          crossings.push(`${from} -> ${to}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it("the invoice use-case layer knows no Slack listener types", () => {
    const listenerTypes =
      /\b(AllMiddlewareArgs|SlackCommandMiddlewareArgs|SlackActionMiddlewareArgs|SlackViewMiddlewareArgs|SlackEventMiddlewareArgs|CommandArgs|ActionArgs|ViewArgs|EventArgs)\b/;
    const files = sourceFiles(join(SRC, "invoices"));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(file, "utf8")).not.toMatch(listenerTypes);
  });
});
