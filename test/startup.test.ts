import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakePayments, startFakePayments } from "../sandbox/fake-payments.js";
import { type SlackStandIn, startSlackStandIn } from "../sandbox/slack.js";

/** Runs src/index.ts as `npm start` would run dist/index.js, with only the given environment. */
function startIndex(env: Record<string, string>): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exit };
}

describe("start-up", () => {
  it("stops with one clear line naming each missing variable", async () => {
    const run = startIndex({});
    expect(await run.exit).toBe(1);
    const { stderr } = run.output();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("SLACK_SIGNING_SECRET is required");
    expect(stderr).toContain("SLACK_BOT_TOKEN is required");
  });

  it("names a bad value without echoing it", async () => {
    const run = startIndex({
      SLACK_SIGNING_SECRET: "s",
      SLACK_BOT_TOKEN: "xoxb-1",
      CREDENTIALS_KEY: "hunter2-not-a-key",
      PORT: "eighty",
    });
    expect(await run.exit).toBe(1);
    const { stderr } = run.output();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/PORT must be a whole number/);
    expect(stderr).toMatch(/CREDENTIALS_KEY must be 32 bytes/);
    expect(stderr).not.toContain("hunter2");
  });

  describe("with Slack and the payment service standing in", () => {
    let slack: SlackStandIn;
    let fake: FakePayments;
    let dir: string;
    beforeAll(async () => {
      slack = await startSlackStandIn();
      fake = await startFakePayments();
      dir = mkdtempSync(join(tmpdir(), "kassa-start-"));
    });
    afterAll(async () => {
      await Promise.all([slack.close(), fake.close()]);
      rmSync(dir, { recursive: true, force: true });
    });

    it("listens, creates a 0600 key file with a warning, and exits 0 on SIGTERM", async () => {
      const run = startIndex({
        PORT: "0",
        SLACK_SIGNING_SECRET: "signing",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: slack.apiUrl,
        PAYMENTS_API_URL: fake.url,
        STORE_URL: `sqlite://${join(dir, "nested", "kassa.sqlite")}`,
      });
      await expect.poll(() => run.output().stdout, { timeout: 15_000 }).toContain("Kassa is listening");
      const lines = run
        .output()
        .stdout.trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.level === "warn")?.msg).toContain("CREDENTIALS_KEY is not set");
      const { statSync } = await import("node:fs");
      expect(statSync(join(dir, "nested", "kassa.sqlite.key")).mode & 0o777).toBe(0o600);
      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
    });

    it("stops with one line when Slack refuses the bot token", async () => {
      const run = startIndex({
        PORT: "0",
        SLACK_SIGNING_SECRET: "signing",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: "http://127.0.0.1:9/api/",
        STORE_URL: `sqlite://${join(dir, "other.sqlite")}`,
      });
      expect(await run.exit).toBe(1);
      expect(run.output().stderr).toMatch(/^kassa: could not verify SLACK_BOT_TOKEN with Slack/);
    });
  });
});
