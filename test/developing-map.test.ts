import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/developing.md is the map: it names every folder of src/ and every family on the claim board,
 * and nothing that is not there; it links nothing outside the repository.
 */
const MAP = readFileSync("docs/developing.md", "utf8");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Family names as src/ declares them: `…FAMILY = "name"`, `…FAMILIES = { a: "x", … }`, CALLBACK_TEAMS/ROUTES. */
function familiesInSource(): Set<string> {
  const found = new Set<string>();
  for (const path of sourcesUnder("src")) {
    if (path.includes("/schema/")) continue; // data moves of older releases name old families
    const source = readFileSync(path, "utf8");
    for (const [, name] of source.matchAll(/const [A-Z_]*FAMILY = "([a-z-]+)"/g)) if (name) found.add(name);
    for (const [, body] of source.matchAll(/const [A-Z_]*FAMILIES = \{([^}]*)\}/g))
      for (const [, name] of (body ?? "").matchAll(/"([a-z-]+)"/g)) if (name) found.add(name);
    for (const [, name] of source.matchAll(/const CALLBACK_(?:TEAMS|ROUTES) = "([a-z-]+)"/g))
      if (name) found.add(name);
  }
  return found;
}

/** The families the map's table names (its first column). */
function familiesInMap(): Set<string> {
  const found = new Set<string>();
  for (const [, cell] of MAP.matchAll(/^\s*\| (`[a-z-]+`(?:, `[a-z-]+`)*) \|/gm))
    for (const [, name] of (cell ?? "").matchAll(/`([a-z-]+)`/g)) if (name) found.add(name);
  return found;
}

describe("docs/developing.md", () => {
  it("names every family on the claim board, and no other", () => {
    const source = familiesInSource();
    expect(source.size).toBeGreaterThan(10);
    expect([...familiesInMap()].sort()).toEqual([...source].sort());
  });

  it("names every folder of src/", () => {
    const folders = readdirSync("src", { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const missing = folders.map((entry) => entry.name).filter((name) => !MAP.includes(`src/${name}/`));
    expect(missing).toEqual([]);
  });

  it("links and points at nothing outside the repository, and says nothing stale", () => {
    expect(MAP).not.toMatch(/\]\((?:https?:|\.\.\/\.\.)/);
    expect(MAP).not.toContain("../shared/");
    expect(MAP).not.toContain("no Slack yet");
  });
});
