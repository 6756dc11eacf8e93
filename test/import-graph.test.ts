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
  return imports(file).map((found) => found.target);
}

type Import = { target: string; typeOnly: boolean };

function imports(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith("."))
      found.push({ target: resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts")), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The floors of src/, bottom first (docs/developing.md draws them): a module imports its own floor or
 * the ones below, never above. Entry points (src/*.ts) stand on top of everything.
 */
const FLOORS: string[][] = [
  ["util", "config", "process"],
  ["payments", "i18n", "slack"],
  ["store", "reports"],
  ["blocks", "charts"],
  ["registers", "history"],
  [
    "paymethods",
    "invoices",
    "watch",
    "feed",
    "callbacks",
    "exports",
    "digests",
    "audit",
    "payouts",
    "payout-recipients",
    "payout-batches",
    "money-alerts",
    "method-watch",
    "links",
    "link-schedules",
  ],
  ["listeners", "steps", "edge", "operators"],
];

function floorOf(file: string): number {
  const [top, next] = relative(SRC, file).split("/");
  if (next === undefined) return FLOORS.length; // an entry point
  const floor = FLOORS.findIndex((folders) => folders.includes(top ?? ""));
  if (floor < 0) throw new Error(`src/${top}/ has no floor: add it to FLOORS and to docs/developing.md`);
  return floor;
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
    // The app wires the listeners in.
    const WIRING = new Set(["app.ts"]);
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

  it("keeps every import on its own floor or below (blocks may name a type from any floor below the listeners)", () => {
    const upward: string[] = [];
    for (const file of graph.keys()) {
      for (const { target, typeOnly } of imports(file)) {
        const [from, to] = [floorOf(file), floorOf(target)];
        const builderNamingAType =
          typeOnly && relative(SRC, file).startsWith("blocks/") && to < FLOORS.length - 1;
        if (to > from && !builderNamingAType)
          upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("finds an import that climbs a floor", () => {
    expect(floorOf(join(SRC, "store/settings.ts"))).toBeLessThan(floorOf(join(SRC, "feed/runner.ts")));
    expect(floorOf(join(SRC, "server.ts"))).toBe(FLOORS.length);
    expect(() => floorOf(join(SRC, "nowhere/x.ts"))).toThrow(/no floor/);
  });

  it("the invoice use-case layer knows no Slack listener types", () => {
    const listenerTypes =
      /\b(AllMiddlewareArgs|SlackCommandMiddlewareArgs|SlackActionMiddlewareArgs|SlackViewMiddlewareArgs|SlackEventMiddlewareArgs|CommandArgs|ActionArgs|ViewArgs|EventArgs)\b/;
    const files = sourceFiles(join(SRC, "invoices"));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(file, "utf8")).not.toMatch(listenerTypes);
  });

  it("imports big.js only in src/payments/decimal.ts, where Big is configured", () => {
    const bigJs = /from\s+["']big\.js["']|import\(\s*["']big\.js["']\s*\)/;
    const allowed = new Set(["payments/decimal.ts"]);
    const importers = sourceFiles(SRC).map((file) => relative(SRC, file));
    const found = importers.filter((file) => bigJs.test(readFileSync(join(SRC, file), "utf8")));
    expect(found).toContain("payments/decimal.ts");
    expect(found.filter((file) => !allowed.has(file))).toEqual([]);
  });
});
