/**
 * A process killed (SIGKILL, no draining) while a lookup is under way: the next process on the same
 * store answers the acknowledged command, once. The first server runs in a child process so that it
 * can really die.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { FAULT_IDS } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { openStore } from "../../src/store/keyv.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("commands acknowledged by a process that died", () => {
  let stack: Stack | undefined;
  let child: ChildProcessWithoutNullStreams | undefined;
  let next: RunningServer | undefined;
  const nextLogs: string[] = [];
  afterAll(async () => {
    child?.kill("SIGKILL");
    await next?.stop();
    await stack?.stop();
  });

  /** What the journal holds, read from the store as another process would. */
  async function journalEntries(storeUrl: string): Promise<unknown[]> {
    const store = await openStore(storeUrl);
    try {
      const journal = store.namespace("journal");
      const entries: unknown[] = [];
      for await (const entry of journal.iterator?.(journal.namespace) ?? []) entries.push(entry);
      return entries;
    } finally {
      await store.close();
    }
  }

  it("are answered by the next process on the same store, once", async () => {
    stack = await Stack.start({
      fake: { slowMs: 1500 },
      env: { JOURNAL_GRACE_MS: "300" },
      startApp: async (env) => {
        const started = spawn(
          process.execPath,
          ["--import", "tsx", join(ROOT, "sandbox", "bench-target.ts"), "kassa"],
          {
            cwd: ROOT,
            env: { ...env, PATH: process.env.PATH ?? "" },
            stdio: ["pipe", "pipe", "pipe"],
          },
        );
        child = started;
        started.stderr.resume();
        const port = await new Promise<number>((resolve, reject) => {
          started.on("exit", (code) => reject(new Error(`the first server exited (${code})`)));
          createInterface({ input: started.stdout }).on("line", (line) => {
            const parsed = JSON.parse(line) as { type?: string; port?: number };
            if (parsed.type === "ready" && parsed.port) resolve(parsed.port);
          });
        });
        return { port, stop: async () => void started.kill("SIGKILL") };
      },
    });
    const running = stack;

    const ack = await running.command(FAULT_IDS.slow);
    expect(ack.status).toBe(200);
    // The lookup is under way in the first process: kill it before it can answer.
    await expect.poll(() => running.fake.requests.length).toBeGreaterThan(0);
    // Commands still unanswered JOURNAL_AFTER_MS after their ack are written down: wait for the entry.
    await expect
      .poll(async () => (await journalEntries(running.env.STORE_URL ?? "")).length, { timeout: 10_000 })
      .toBe(1);
    const exited = new Promise((resolve) => child?.on("exit", resolve));
    child?.kill("SIGKILL");
    await exited;
    expect(running.slack.replies.filter((reply) => reply.id === ack.responseId)).toHaveLength(0);

    next = await startServer(running.env, {
      logDestination: { write: (line: string) => void nextLogs.push(line) },
      paymentsRetryDelayMs: 20,
    });
    const reply = await running.slack.waitForReply(ack.responseId);
    expect(JSON.stringify(reply.body)).toContain(FAULT_IDS.slow);
    const replayed = nextLogs.filter((line) =>
      line.includes("answering a command a stopped process acknowledged"),
    );
    expect(replayed).toHaveLength(1);
    expect(replayed[0]).not.toContain("hooks.slack");

    // Once answered, the entry is gone from the store.
    await next.stop();
    next = undefined;
    expect(await journalEntries(running.env.STORE_URL ?? "")).toEqual([]);
    expect(running.slack.replies.filter((r) => r.id === ack.responseId)).toHaveLength(1);
  });
});
