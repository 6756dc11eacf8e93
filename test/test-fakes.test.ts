import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
/** Spelled in parts, so this file does not hold it itself. */
const DOUBLE_CAST = ["as", "unknown", "as"].join(" ");

/**
 * Handler tests take fakes typed from the handlers (test/support/command-args.ts, listener-world.ts,
 * a real WebClient with the methods a test needs replaced), never an object cast through `unknown`:
 * such a fake compiles whatever the handler comes to read, and fails only when run.
 */
describe("test fakes", () => {
  it(`never cast through unknown (${DOUBLE_CAST}) under test/`, () => {
    const found = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".ts"))
      .flatMap((path) =>
        readFileSync(join(ROOT, "test", path), "utf8")
          .split("\n")
          .flatMap((line, index) => (line.includes(DOUBLE_CAST) ? [`test/${path}:${index + 1}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
