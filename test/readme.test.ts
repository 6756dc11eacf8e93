import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PAGES = ["README.md", "docs/using.md", "docs/operating.md", "docs/benchmarks.md", "docs/developing.md"];
const read = (page: string) => readFileSync(join(root, page), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchors(page: string): Set<string> {
  return new Set(
    read(page)
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ""))),
  );
}

describe("the README and docs/", () => {
  it("the README is a short page with the quick start on its first screen", () => {
    const lines = read("README.md").split("\n");
    expect(lines.length).toBeLessThanOrEqual(250);
    const quickStart = lines.findIndex((line) => line.startsWith("## Quick start"));
    expect(quickStart).toBeGreaterThan(0);
    expect(quickStart + 6).toBeLessThan(60); // the heading and its three commands
    for (const page of PAGES.slice(1)) expect(read("README.md")).toContain(`(${page})`);
  });

  it("every relative link leads to a file and heading that exist", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^(https?:|mailto:)/.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? page : join(dirname(page), path);
        if (!existsSync(join(root, file))) broken.push(`${page}: ${target}`);
        else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
          broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
