import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULT_IDS,
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../sandbox/fake-payments.js";
import { signedHeaders } from "../sandbox/sign.js";
import { type SlackStandIn, startSlackStandIn } from "../sandbox/slack.js";
import { loadSqliteFixture } from "./support/c6ce3d1-fixtures.js";

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

    it("on SIGTERM refuses new requests but finishes a reply already under way, then exits 0", async () => {
      const slow = await startFakePayments({ slowMs: 1500 });
      const signing = "signing-secret-for-shutdown";
      const key = Buffer.alloc(32, 5).toString("base64");
      const env = {
        PORT: "0",
        SLACK_SIGNING_SECRET: signing,
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: slack.apiUrl,
        PAYMENTS_API_URL: slow.url,
        STORE_URL: `sqlite://${join(dir, "shutdown.sqlite")}`,
        CREDENTIALS_KEY: key,
        LOG_LEVEL: "info",
      };
      try {
        const { runCli } = await import("../src/cli.js");
        const { PassThrough, Writable } = await import("node:stream");
        const stdin = new PassThrough();
        stdin.end(SANDBOX_SECRET);
        const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
        const connected = await runCli(
          ["credentials", "set", "--team", "T0SANDBOX", "--login", SANDBOX_LOGIN, "--secret", "-"],
          {
            env,
            stdin,
            stdout: sink,
            stderr: sink,
          },
        );
        expect(connected).toBe(0);
        const run = startIndex(env);
        await expect.poll(() => run.output().stdout, { timeout: 15_000 }).toContain("Kassa is listening");
        const port = (
          JSON.parse(
            run
              .output()
              .stdout.split("\n")
              .find((line) => line.includes("Kassa is listening")) ?? "{}",
          ) as { port: number }
        ).port;
        const form = new URLSearchParams({
          team_id: "T0SANDBOX",
          user_id: "U0LATE",
          command: "/invoice",
          text: FAULT_IDS.slow,
          response_url: slack.responseUrl("shutdown-1"),
          trigger_id: "1.trigger",
        }).toString();
        const ack = await fetch(`http://127.0.0.1:${port}/slack/events`, {
          method: "POST",
          headers: signedHeaders(signing, form),
          body: form,
        });
        expect(ack.status).toBe(200);
        run.child.kill("SIGTERM");
        // The lookup (1.5 s) is still running; the reply must still arrive, and then the process ends.
        await expect.poll(() => run.output().stdout).toContain("stopping: no new requests");
        await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
        const reply = await slack.waitForReply("shutdown-1");
        expect((reply.body as { response_type?: string }).response_type).toBe("in_channel");
        expect(await run.exit).toBe(0);
        expect(run.output().stdout).toContain('"msg":"stopped"');
      } finally {
        await slow.close();
      }
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

    it("stops with one line when a newer release has upgraded the store's schema (a rollback)", async () => {
      const path = join(dir, "upgraded.sqlite");
      const db = new Database(path);
      db.exec("CREATE TABLE kassa_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
      db.exec("INSERT INTO kassa_schema VALUES (1, 999)");
      db.close();
      const run = startIndex({
        PORT: "0",
        SLACK_SIGNING_SECRET: "signing",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: slack.apiUrl,
        STORE_URL: `sqlite://${path}`,
        CREDENTIALS_KEY: Buffer.alloc(32, 3).toString("base64"),
      });
      expect(await run.exit).toBe(1);
      expect(run.output().stderr).toMatch(
        /^kassa: the store's schema \(kassa_schema\) is at version 999, but this release of Kassa knows versions up to \d+: a newer release has upgraded it; [^\n]*\n$/,
      );
    });

    it("stops with one line naming the release that upgrades it when the store is too old (c6ce3d1's)", async () => {
      const path = join(dir, "c6ce3d1.sqlite");
      loadSqliteFixture(path);
      const run = startIndex({
        PORT: "0",
        SLACK_SIGNING_SECRET: "signing",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: slack.apiUrl,
        STORE_URL: `sqlite://${path}`,
        CREDENTIALS_KEY: Buffer.alloc(32, 3).toString("base64"),
      });
      expect(await run.exit).toBe(1);
      expect(run.output().stderr).toMatch(
        /^kassa: the store's schema \(kassa_schema\) was written by a release before the schema version \(c6ce3d1 or earlier\), older than this release of Kassa upgrades \(version \d+\): start release 63116c6 on it once, which upgrades it, then this release\n$/,
      );
    });

    it("stops with one line, password left out, when the Redis store cannot be reached", async () => {
      const run = startIndex({
        PORT: "0",
        SLACK_SIGNING_SECRET: "signing",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_API_URL: slack.apiUrl,
        STORE_URL: "redis://:hunter2@127.0.0.1:1",
        CREDENTIALS_KEY: Buffer.alloc(32, 3).toString("base64"),
      });
      expect(await run.exit).toBe(1);
      expect(run.output().stderr).toBe(
        "kassa: cannot reach the store at redis://127.0.0.1:1: ECONNREFUSED\n",
      );
    });
  });
});
