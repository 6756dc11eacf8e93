import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => join(ROOT, folder, path));
}

function over(folder: string, limit: number): string[] {
  return sources(folder).flatMap((path) => {
    const lines = readFileSync(path, "utf8").split("\n").length - 1;
    return lines > limit ? [`${relative(ROOT, path)}: ${lines} lines`] : [];
  });
}

/** Small rooms: a module that grows past this does two jobs; split it by job, not by line count. */
describe("module sizes", () => {
  it("keeps every module in src/ within 250 lines", () => {
    expect(over("src", 250)).toEqual([]);
  });

  it("keeps every file in scripts/ and sandbox/ within 600 lines", () => {
    expect([...over("scripts", 600), ...over("sandbox", 600)]).toEqual([]);
  });
});
