import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_IDS } from "../../sandbox/fake-payments.js";
import { signedHeaders } from "../../sandbox/sign.js";
import { SANDBOX_SIGNING_SECRET, Stack } from "../../sandbox/stack.js";

type Message = { response_type?: string; text?: string };
const message = (body: Record<string, unknown>) => body as Message;

describe("limits", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { RATE_LIMIT_USER_PER_MIN: "3", RATE_LIMIT_TEAM_PER_MIN: "5" },
      fake: { slowMs: 400 },
    });
    // The first two tests count in one rate window: a window starts at its key's first command
    // (rate-limiter-flexible), not at the clock's minute, so no minute's end can split them.
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("tells a user past RATE_LIMIT_USER_PER_MIN to slow down, and when to try again", async () => {
    for (let index = 0; index < 3; index += 1) {
      const { reply } = await stack.ask("help", { userId: "U0EAGER" });
      expect(message(reply.body).text).toContain("/invoice");
    }
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { userId: "U0EAGER" });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).text).toMatch(
      /^Slow down: you have sent too many commands this minute\. Try again in \d+ s\.$/,
    );
    expect(stack.fake.requests.length).toBe(before);
    await expect.poll(() => stack.logEntries().some((entry) => entry.outcome === "rate_limited")).toBe(true);
    const line = stack.logEntries().find((entry) => entry.outcome === "rate_limited");
    expect(line).toMatchObject({ user: "U0EAGER", limit: "user" });
  });

  it("limits the workspace as a whole at RATE_LIMIT_TEAM_PER_MIN", async () => {
    // 3 commands of U0EAGER already counted for this workspace (the 4th was refused before counting it).
    await stack.ask("help", { userId: "U0OTHER1" });
    await stack.ask("help", { userId: "U0OTHER2" });
    const { reply } = await stack.ask("help", { userId: "U0OTHER3" });
    expect(message(reply.body).text).toMatch(/^Slow down: this workspace has sent too many commands/);
    // Another workspace is not affected.
    const other = await stack.ask("help", { userId: "U0OTHER3", teamId: "T0ELSEWHERE" });
    expect(message(other.reply.body).text).toContain("/invoice");
  });

  it("makes one call for identical simultaneous lookups of one invoice in one workspace", async () => {
    const before = stack.fake.requests.filter((request) => request.body?.id === FAULT_IDS.slow).length;
    // Three users of one workspace ask for the same invoice at once.
    await stack.cli(
      ["credentials", "set", "--team", "T0BURSTY", "--login", "sandbox_register", "--secret", "-"],
      "sandbox-secret-7f3a9c",
    );
    const replies = await Promise.all(
      [0, 1, 2].map((index) => stack.ask(FAULT_IDS.slow, { teamId: "T0BURSTY", userId: `U0BURST${index}` })),
    );
    for (const { reply } of replies) expect(message(reply.body).response_type).toBe("in_channel");
    expect(stack.fake.requests.filter((request) => request.body?.id === FAULT_IDS.slow).length - before).toBe(
      1,
    );
  });

  it("refuses a request body over 1 MB with 413", async () => {
    const body = `payload=${"x".repeat(1024 * 1024 + 10)}`;
    const response = await fetch(`${stack.url}/slack/events`, {
      method: "POST",
      headers: signedHeaders(SANDBOX_SIGNING_SECRET, body),
      body,
    });
    expect(response.status).toBe(413);
    // And keeps serving.
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });
});
