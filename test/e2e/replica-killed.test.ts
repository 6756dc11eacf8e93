/**
 * A replica killed with kill -9 while it holds a live card's lease and an unanswered command: the
 * other replica on the same Redis or PostgreSQL takes both over within seconds (the watch lease,
 * 10 s, renewed while held; the command journal's grace), tells the payment once and answers the
 * command once. The killed replica runs in a process of its own (sandbox/replica-entry.ts).
 * Runs when TEST_REDIS_URL / TEST_POSTGRES_URL are set; each run has its own workspace and watch
 * namespace, so runs can share a server.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { FAULT_IDS, moscowTime, SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import type { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { REPLICA_ENTRY, stackInItsOwnProcess } from "../support/app-process.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;
const run = randomBytes(4).toString("hex");

/** The watch lease (src/watch/index.ts): how long a dead replica can hold a watch at most. */
const LEASE_MS = 10_000;

const ENGINES = [
  { name: "redis", url: redisUrl, namespace: `kassa-test-${run}-kill:watch`, variable: "TEST_REDIS_URL" },
  { name: "postgres", url: postgresUrl, namespace: `kk_${run}`, variable: "TEST_POSTGRES_URL" },
];
for (const engine of ENGINES) {
  if (!engine.url) console.log(`replica killed: skipping ${engine.name} (${engine.variable} not set)`);
}

for (const engine of ENGINES) {
  const title = engine.url ? engine.name : `${engine.name} (skipped: ${engine.variable} not set)`;
  describe.skipIf(!engine.url)(`a replica killed with kill -9, ${title}`, () => {
    const team = `T0KILL${engine.name.slice(0, 2).toUpperCase()}${run.toUpperCase()}`;
    let stack: Stack | undefined;
    let killed: ChildProcess | undefined;
    let survivor: RunningServer | undefined;
    const survivorLogs: string[] = [];
    afterAll(async () => {
      killed?.kill("SIGKILL");
      await survivor?.stop();
      await stack?.cli(["credentials", "remove", "--team", team]);
      await stack?.stop();
      await dropWatchNamespace(engine.url ?? "", engine.namespace);
    });

    it("hands its live card and its unanswered command to the other replica within seconds, each told once", async () => {
      const started = await stackInItsOwnProcess(
        {
          STORE_URL: engine.url ?? "",
          WATCH_INTERVAL_MS: "200",
          JOURNAL_AFTER_MS: "0",
          JOURNAL_GRACE_MS: "1000",
          TEST_WATCH_NAMESPACE: engine.namespace,
        },
        { connect: false, entry: REPLICA_ENTRY, fake: { slowMs: 1500 } },
      );
      stack = started.stack;
      killed = started.child;
      const running = stack;
      const connected = await running.cli(
        ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
        SANDBOX_SECRET,
      );
      expect(connected.code).toBe(0);

      // A live card, posted and watched by the first replica.
      const id = `killed_${engine.name}_${run}`;
      const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
      running.fake.invoices.set(id, {
        id,
        state: "notpayed",
        currency: "RUB",
        amount: "1500",
        createdAt: hours(-1),
        expiredAt: hours(5),
      });
      const { reply } = await running.ask(id, { teamId: team, channelId: "C0KILLCARD" });
      const card = running.slack.messages.get(`C0KILLCARD:${String(reply.body.ts)}`);
      if (!card) throw new Error("no card posted");
      // Its reads now take 3 s, so the first replica is in the middle of one (holding the lease)
      // when it dies.
      const reads = () => running.fake.requests.filter((request) => request.body?.id === id).length;
      running.fake.readDelays.set(id, 3000);
      const before = reads();
      await expect.poll(reads, { timeout: 5000 }).toBeGreaterThan(before);

      // A command the first replica acknowledged and is still working on (its lookup takes 1.5 s).
      const command = await running.command(FAULT_IDS.slow, { teamId: team, channelId: "C0KILLCMD" });
      expect(command.status).toBe(200);
      await expect
        .poll(() => running.fake.requests.some((request) => request.body?.id === FAULT_IDS.slow))
        .toBe(true);

      const exited = new Promise((resolve) => killed?.once("exit", resolve));
      killed?.kill("SIGKILL");
      await exited;
      const killedAt = Date.now();
      running.fake.readDelays.delete(id);
      running.fake.pay(id);
      expect(running.slack.replies.filter((r) => r.id === command.responseId)).toHaveLength(0);

      survivor = await startServer(running.env, {
        logDestination: { write: (line: string) => void survivorLogs.push(line) },
        paymentsRetryDelayMs: 20,
        watchNamespace: engine.namespace,
      });

      // The command: answered once the journal's grace has passed without a renewal.
      const answered = await running.slack.waitForReply(command.responseId, { timeoutMs: 15_000 });
      const commandHeldMs = answered.at - killedAt;
      expect(JSON.stringify(answered.body)).toContain(FAULT_IDS.slow);
      // Grace (1 s) and the sweep after it, plus the 1.5 s lookup run again: seconds, not a minute.
      expect(commandHeldMs).toBeLessThan(8000);

      // The card: Paid once the dead replica's lease has run out (at most LEASE_MS after its last renewal).
      await expect.poll(() => card.text, { timeout: LEASE_MS + 5000, interval: 50 }).toContain("Paid");
      const cardHeldMs = (card.updatedAt ?? Date.now()) - killedAt;
      expect(cardHeldMs).toBeLessThan(LEASE_MS + 3000);
      console.log(
        `replica killed (${engine.name}): its command answered ${commandHeldMs} ms after the kill, its live card Paid after ${cardHeldMs} ms`,
      );

      // Told once: one thread note, one command reply, one replay in the log.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(running.slack.threadOf("C0KILLCARD", card.ts)).toHaveLength(1);
      expect(running.slack.replies.filter((r) => r.id === command.responseId)).toHaveLength(1);
      expect(
        survivorLogs.filter((line) => line.includes("answering a command a stopped process acknowledged")),
      ).toHaveLength(1);
    }, 40_000);
  });
}
