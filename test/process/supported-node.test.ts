import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unsupportedNode } from "../../src/process/supported-node.js";

describe("supported Node", () => {
  it("accepts 22, 24 and later lines, and names the needed version for older ones", () => {
    expect(unsupportedNode("22.0.0")).toBeUndefined();
    expect(unsupportedNode("24.21.0")).toBeUndefined();
    expect(unsupportedNode("26.1.0")).toBeUndefined();
    expect(unsupportedNode("20.20.2")).toBe(
      "Node.js 22 or newer is needed (22 LTS, 24 LTS or later); this is Node.js 20.20.2.",
    );
    expect(unsupportedNode("18.0.0")).toMatch(/^Node\.js 22 or newer is needed/);
    expect(unsupportedNode("garbage")).toMatch(/^Node\.js 22 or newer is needed/);
  });

  it("runs the tests on a supported Node (npm scripts use the `node` dev dependency)", () => {
    expect(unsupportedNode(process.versions.node)).toBeUndefined();
  });

  // The machine's own Node, where it is older than 22 (this project's machines have Node 20).
  const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find((path) => {
    if (!existsSync(path)) return false;
    const major = Number(spawnSync(path, ["-p", "process.versions.node.split('.')[0]"]).stdout.toString());
    return major > 0 && major < 22;
  });
  it.runIf(systemNode)(
    `stops the server and the CLI with one line on an older Node (${systemNode ?? "none on this machine: skipped"})`,
    () => {
      for (const entry of ["src/index.ts", "src/cli.ts"]) {
        const run = spawnSync(systemNode as string, ["--import", "tsx", entry, "credentials", "list"], {
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "" },
          timeout: 20_000,
        });
        expect(run.status, entry).toBe(1);
        expect(run.stdout).toBe("");
        expect(run.stderr.trim().split("\n")).toEqual([
          expect.stringMatching(/^kassa: Node\.js 22 or newer is needed \(.*\); this is Node\.js \d+\./),
        ]);
      }
    },
  );
});
