import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { freePort } from "../../sandbox/ports.js";
import { Stack } from "../../sandbox/stack.js";

// The public edge is the sender's problem, never Kassa's error: a path that cannot be decoded is a
// 400, an unknown one a 404, refused callbacks are summed up (never a line each), and a client that
// trickles its headers or its body is cut off. Short limits here (the defaults are 10 s and 30 s).

const SHORT_LIMITS = { HTTP_HEADERS_TIMEOUT_MS: "400", HTTP_REQUEST_TIMEOUT_MS: "900" };

type Trickled = { closedAfterMs: number; answer: string };

/**
 * Opens a socket and sends a request a few bytes at a time, every `everyMs`, for up to `forMs`:
 * its headers only (never ending them), or whole headers and then a body that never ends. Resolves
 * when the server closes the connection.
 */
function trickle(port: number, what: "headers" | "body", everyMs = 100, forMs = 8000): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const started = Date.now();
    let answer = "";
    let sent = 0;
    const timer = setInterval(() => {
      if (Date.now() - started > forMs) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`still open after ${forMs} ms`));
        return;
      }
      if (!socket.destroyed) socket.write(what === "headers" ? `X-Slow-${sent++}: a\r\n` : "a");
    }, everyMs);
    socket.on("connect", () => {
      socket.write("POST /slack/events HTTP/1.1\r\nHost: kassa\r\n");
      if (what === "body") socket.write("Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n");
    });
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

/** A raw request (the path exactly as given, which fetch would normalise); resolves to the status line. */
function rawRequest(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST ${target} HTTP/1.1\r\nHost: kassa\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer.split("\r\n", 1)[0] ?? ""));
  });
}

const levelOf = (line: string) => (JSON.parse(line) as { level?: string }).level;

describe("the public callback path: the sender's problem, never Kassa's error", () => {
  let stack: Stack;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    stack = await Stack.start({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}/`, ...SHORT_LIMITS },
      refusalSummaryMs: 1000,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("sums up refused callbacks once a period (per workspace, and for unknown addresses), never a line each", async () => {
    stack.slack.users.U0ADMIN = { is_admin: true };
    await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        "T0SANDBOX",
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        SANDBOX_SECRET,
        "--salt",
        "-",
      ],
      SANDBOX_SALT,
    );
    const status = JSON.stringify((await stack.ask("status", { userId: "U0ADMIN" })).reply.body);
    const key = /crystalpay\/callback\/([A-Za-z0-9_-]{32})/.exec(status)?.[1] ?? "";
    expect(key).not.toBe("");
    const before = stack.logs.length;
    const started = Date.now();
    const targets = [key, "%E0%A4%A", "B".repeat(32)];
    const bad = Array.from({ length: 300 }, (_, index) =>
      fetch(`${stack.url}/crystalpay/callback/${targets[index % 3]}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "1_a", signature: "0".repeat(40) }),
      }),
    );
    const statuses = (await Promise.all(bad)).map((response) => response.status);
    expect(statuses.filter((code) => code === 403)).toHaveLength(100);
    expect(statuses.filter((code) => code === 400)).toHaveLength(100);
    expect(statuses.filter((code) => code === 404)).toHaveLength(100);
    // The first refusals of this stack: every summary so far counts these.
    const summed = (outcome: string, reason: string) =>
      stack
        .logEntries()
        .filter((entry) => entry.outcome === outcome)
        .reduce((total, entry) => total + ((entry.reasons as Record<string, number>)[reason] ?? 0), 0);
    await expect.poll(() => summed("callbacks_refused", "wrong signature"), { timeout: 3000 }).toBe(100);
    await expect.poll(() => summed("requests_refused", "malformed callback address")).toBe(100);
    await expect.poll(() => summed("requests_refused", "unknown callback address")).toBe(100);
    const workspace = stack.logEntries().find((entry) => entry.outcome === "callbacks_refused");
    expect(workspace).toMatchObject({ level: "warn", teamId: "T0SANDBOX" });
    // 300 refusals: at most two summary lines (callbacks, requests) each second they spanned (one
    // summary a second here), nothing else; on a quick machine that is 2 to 6 lines, never 300.
    const seconds = Math.ceil((Date.now() - started) / 1000) + 1;
    expect(stack.logs.length - before).toBeLessThanOrEqual(2 * seconds);
    expect(stack.logs.length - before).toBeLessThan(30);
    expect(stack.logs.filter((line) => levelOf(line) === "error")).toEqual([]);
  });

  it("answers a bad %-escape 400 and a malformed path 404, with no error line", async () => {
    const post = (path: string) => fetch(`${stack.url}${path}`, { method: "POST", body: "{}" });
    expect((await post("/crystalpay/callback/%E0%A4%A")).status).toBe(400);
    expect((await post("/crystalpay/callback/%")).status).toBe(400);
    expect((await post("/crystalpay/callback/")).status).toBe(404);
    expect((await post("/crystalpay/callback/a/b")).status).toBe(404);
    expect((await post(`/crystalpay/callback/${"A".repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${stack.url}/crystalpay/callback/${"A".repeat(32)}`)).status).toBe(404);
    // Request targets fetch would never send: not a path at all.
    expect(await rawRequest(port, "//")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawRequest(port, "/nowhere/%E0%A4%A")).toMatch(/^HTTP\/1\.1 404 /);
    expect(stack.logs.filter((line) => levelOf(line) === "error")).toEqual([]);
  });

  it("closes a connection that trickles its headers, or its body, and still serves the next one", async () => {
    const headers = await trickle(port, "headers");
    expect(headers.closedAfterMs).toBeGreaterThanOrEqual(350);
    expect(headers.closedAfterMs).toBeLessThan(2500);
    expect(headers.answer).toMatch(/^HTTP\/1\.1 408 /);
    const body = await trickle(port, "body");
    expect(body.closedAfterMs).toBeGreaterThanOrEqual(850);
    expect(body.closedAfterMs).toBeLessThan(3000);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });
});

describe("every way of running cuts off a slow client", () => {
  it("OAuth (many workspaces): its receiver's server has the same limits", async () => {
    const port = await freePort();
    const stack = await Stack.start({
      slackMode: "oauth",
      connect: false,
      env: { PORT: String(port), ...SHORT_LIMITS },
    });
    try {
      const trickled = await trickle(port, "headers");
      expect(trickled.closedAfterMs).toBeLessThan(2500);
      expect(trickled.answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await stack.stop();
    }
  });

  it("Socket Mode: the health server has the same limits", async () => {
    const port = await freePort();
    const stack = await Stack.start({
      env: {
        PORT: String(port),
        SLACK_APP_TOKEN: "xapp-1-A0KASSA-1-sandbox",
        SLACK_SIGNING_SECRET: "",
        ...SHORT_LIMITS,
      },
    });
    try {
      const trickled = await trickle(port, "headers");
      expect(trickled.closedAfterMs).toBeLessThan(2500);
      expect(trickled.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });
});
