import { describe, expect, it } from "vitest";
import type { AuditInput } from "../../../src/audit/index.js";
import { handled, handledSubmission, type ViewAnswer } from "../../../src/listeners/contexts/handled.js";
import { InFlight } from "../../../src/util/in-flight.js";
import { createLogger } from "../../../src/util/logger.js";

function setup() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const recorded: AuditInput[] = [];
  const audit = { record: async (entry: AuditInput) => void recorded.push(entry) };
  return { deps: { logger, inFlight: new InFlight(), audit }, lines, recorded };
}

describe("handled: one typed line per event or submission", () => {
  it("writes where it came from, what was noted and the outcome, at info", async () => {
    const { deps, lines } = setup();
    await handled(deps, { event: "app_home_opened", team: "T1", user: "U1" }, async (note) => {
      note({ channel: "C1" });
      return { log: { outcome: "ok" } };
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: "app_home_opened",
      team: "T1",
      user: "U1",
      channel: "C1",
      outcome: "ok",
      msg: "event handled",
    });
    expect(typeof lines[0]?.latencyMs).toBe("number");
    expect(lines[0]?.level).toBe("info");
  });

  it("makes a line carrying an error an error line, and a throw an internal_error with a reference", async () => {
    const { deps, lines } = setup();
    await handled(deps, { event: "tokens_revoked", team: "T1" }, async () => {
      throw new Error("store down");
    });
    expect(lines[0]).toMatchObject({
      outcome: "internal_error",
      level: "error",
      err: { message: "store down" },
    });
    expect(lines[0]?.reference).toMatch(/\S/);
  });

  it("keeps the level a producer chose", async () => {
    const { deps, lines } = setup();
    await handled(deps, { event: "link_shared", team: "T1" }, async () => ({
      log: { outcome: "bad_event", problem: "links: required" },
      level: "warn",
    }));
    expect(lines[0]).toMatchObject({ outcome: "bad_event", level: "warn" });
  });
});

describe("handledSubmission", () => {
  const origin = { view: "connect", team: "T1", user: "U1", field: "login" };

  it("logs the outcome after the reply and what was noted on the way", async () => {
    const { deps, lines } = setup();
    const answers: ViewAnswer[] = [];
    await handledSubmission(
      deps,
      origin,
      async (answer?: ViewAnswer) => void answers.push(answer),
      async (note, reply) => {
        note({ apiVersion: "v3" });
        await reply();
        return { outcome: "connected" };
      },
    );
    expect(answers).toEqual([undefined]);
    expect(lines[0]).toMatchObject({
      view: "connect",
      outcome: "connected",
      apiVersion: "v3",
      msg: "view handled",
    });
    expect(lines[0]).not.toHaveProperty("field");
  });

  it("keeps the form open with a reference when the work throws before replying", async () => {
    const { deps, lines } = setup();
    const answers: ViewAnswer[] = [];
    await handledSubmission(
      deps,
      origin,
      async (answer?: ViewAnswer) => void answers.push(answer),
      async () => {
        throw new Error("boom");
      },
    );
    const reference = lines[0]?.reference;
    expect(lines[0]).toMatchObject({ outcome: "internal_error", level: "error" });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toEqual({
      response_action: "errors",
      errors: { login: expect.stringContaining(String(reference)) },
    });
    expect(JSON.stringify(answers[0])).toContain("nothing was saved");
  });

  it("does not answer Slack twice when the work throws after replying", async () => {
    const { deps, lines } = setup();
    const answers: ViewAnswer[] = [];
    await handledSubmission(
      deps,
      origin,
      async (answer?: ViewAnswer) => void answers.push(answer),
      async (_noted, reply) => {
        await reply();
        throw new Error("after");
      },
    );
    expect(answers).toEqual([undefined]);
    expect(lines[0]).toMatchObject({ outcome: "internal_error" });
  });
});
