import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readSubmission } from "../../../src/listeners/contexts/view-context.js";

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
