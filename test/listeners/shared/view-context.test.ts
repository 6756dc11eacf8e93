import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readSubmission } from "../../../src/listeners/shared/view-context.js";

const origin = z.object({ t: z.string(), c: z.string() });
const values = z.object({ amount: z.object({ value: z.object({ value: z.string() }) }) });
const typed = { amount: { value: { type: "plain_text_input", value: "10" } } };

function view(metadata: string, state: Record<string, Record<string, { type: string; value: string }>>) {
  return { private_metadata: metadata, state: { values: state } };
}

describe("readSubmission", () => {
  it("reads the form's origin and values when the form is this workspace's", () => {
    const form = readSubmission(view('{"t":"T1","c":"C1"}', typed), "T1", { origin, values });
    expect(form).toEqual({ origin: { t: "T1", c: "C1" }, values: { amount: { value: { value: "10" } } } });
  });

  it("reads as out of date a form of another workspace, unreadable metadata or values", () => {
    expect(readSubmission(view('{"t":"T2","c":"C1"}', typed), "T1", { origin, values })).toBeUndefined();
    expect(readSubmission(view("not json", typed), "T1", { origin, values })).toBeUndefined();
    expect(readSubmission(view('{"t":"T1"}', typed), "T1", { origin, values })).toBeUndefined();
    expect(readSubmission(view('{"t":"T1","c":"C1"}', {}), "T1", { origin, values })).toBeUndefined();
  });

  it("takes a reader of the form's own, and a form whose origin names no workspace", () => {
    const reader = (state: unknown) => (typeof state === "object" ? "read" : undefined);
    const byId = z.object({ id: z.string() });
    expect(readSubmission(view('{"id":"p1"}', {}), "T1", { origin: byId, values: reader })).toEqual({
      origin: { id: "p1" },
      values: "read",
    });
    expect(readSubmission(view('{"t":"T1","c":"C1"}', {}), "T1", { origin })?.origin.c).toBe("C1");
  });
});

/** Lines of src/listeners that parse a view's private_metadata (a forwarded one, unread, is fine). */
function metadataParses(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return metadataParses(root, path);
    if (!entry.name.endsWith(".ts")) return [];
    return readFileSync(path, "utf8")
      .split("\n")
      .filter(
        (line) =>
          /private_metadata/.test(line) && /parse|JSON/i.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line),
      )
      .map(() => relative(root, path));
  });
}

describe("a form's private_metadata", () => {
  it("is parsed in one place: the submission's context", () => {
    expect(metadataParses(resolve(import.meta.dirname, "../../../src/listeners"))).toEqual([
      "shared/view-context.ts",
    ]);
  });
});
