import { EventEmitter } from "node:events";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders } from "../../sandbox/sign.js";
import { SANDBOX_SIGNING_SECRET, Stack } from "../../sandbox/stack.js";
import { keepServingOnStrayErrors } from "../../src/server.js";

describe("hostile but signed requests", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = async (body: string, contentType: string, timestamp?: number) => {
    const headers = {
      ...signedHeaders(SANDBOX_SIGNING_SECRET, body, timestamp),
      "content-type": contentType,
    };
    const response = await fetch(`${stack.url}/slack/events`, { method: "POST", headers, body });
    return { status: response.status, text: await response.text() };
  };

  it("refuses a body that is not an object with 400, and keeps serving", async () => {
    for (const body of ["null", "[]", "5", '"text"']) {
      expect(await post(body, "application/json")).toEqual({
        status: 400,
        text: "The request body must be a JSON object.",
      });
      expect(
        (await post(`payload=${encodeURIComponent(body)}`, "application/x-www-form-urlencoded")).status,
      ).toBe(400);
    }
    const { reply } = await stack.ask("status");
    expect(reply.body).toBeTruthy();
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });

  it("still refuses unsigned bodies with 401, before looking at them", async () => {
    const response = await fetch(`${stack.url}/slack/events`, {
      method: "POST",
      headers: { "content-type": "application/json", ...signedHeaders("another-secret", "null") },
      body: "null",
    });
    expect(response.status).toBe(401);
  });

  it("refuses timestamps more than 5 minutes away in either direction", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await stack.command("status", { timestamp: now + 6 * 60 })).status).toBe(401);
    expect((await stack.command("status", { timestamp: now - 6 * 60 })).status).toBe(401);
    expect((await stack.command("status", { timestamp: now + 60 })).status).toBe(200);
    const ahead = stack.logEntries().filter((entry) => entry.msg === "request timestamp out of range");
    expect(ahead).toHaveLength(1);
    expect(Number(ahead[0]?.skewSec)).toBeGreaterThan(300);
  });
});

describe("Slack's event retries", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("handles an event once, however often Slack retries it", async () => {
    const opened = { type: "app_home_opened", user: "U0FINANCE1", tab: "home", channel: "D0HOME" };
    const before = stack.slack.callsOf("views.publish").length;
    expect((await stack.event(opened, { eventId: "Ev0RETRIED" })).status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.publish").length).toBe(before + 1);
    for (const retryNum of [1, 2, 3]) {
      expect((await stack.event(opened, { eventId: "Ev0RETRIED", retryNum })).status).toBe(200);
    }
    await expect
      .poll(
        () =>
          stack.logEntries().filter((entry) => entry.msg === "event already handled; retry ignored").length,
      )
      .toBe(3);
    expect(stack.slack.callsOf("views.publish").length).toBe(before + 1);
    // Another event is handled as usual.
    expect((await stack.event(opened, { eventId: "Ev0OTHER" })).status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.publish").length).toBe(before + 2);
  });
});

describe("stray errors outside any handler", () => {
  it("are logged with a reference instead of ending the process", () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({}, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const target = new EventEmitter();
    keepServingOnStrayErrors(logger, target as unknown as NodeJS.Process);
    target.emit("unhandledRejection", new TypeError("Cannot read properties of null (reading 'ssl_check')"));
    target.emit("uncaughtException", new Error("boom"));
    expect(lines.map((line) => line.kind)).toEqual(["unhandledRejection", "uncaughtException"]);
    for (const line of lines) {
      expect(line.reference).toMatch(/^\w+/);
      expect(line.msg).toBe("stray error outside any handler; still serving");
    }
  });
});
