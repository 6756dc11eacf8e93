/**
 * A replica killed with kill -9 in the middle of an export: the asker's progress message does not say
 * "Exporting…" for ever. Another replica finds the export owed in the store once its lease lapses
 * (its sweep, or the asker asking again) and tells the asker once, in place of the progress message
 * (its Cancel gone); a new export then goes through. The killed replica runs in a process of its own
 * (sandbox/replica-entry.ts) with short read leases. On SQLite (a file both processes open) always;
 * on Redis and PostgreSQL when TEST_REDIS_URL / TEST_POSTGRES_URL are set.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { sampleHistory } from "../../sandbox/payments-history.js";
import type { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { REPLICA_ENTRY, stackInItsOwnProcess } from "../support/app-process.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const ENGINES = [
  { name: "sqlite", url: "sqlite", namespace: "" },
  { name: "redis", url: process.env.TEST_REDIS_URL?.trim(), namespace: `kassa-test-${run}-expkill` },
  { name: "postgres", url: process.env.TEST_POSTGRES_URL?.trim(), namespace: `kx_${run}` },
];
const LAPSED = "stopped: the Kassa server making it stopped working";

for (const engine of ENGINES) {
  describe.skipIf(!engine.url)(`an export whose replica is killed, ${engine.name}`, () => {
    const team = `T0EXK${engine.name.slice(0, 2).toUpperCase()}${run.toUpperCase()}`;
    const shared = engine.name !== "sqlite";
    let stack: Stack | undefined;
    let killed: ChildProcess | undefined;
    let survivor: RunningServer | undefined;
    const survivorLogs: string[] = [];
    afterAll(async () => {
      killed?.kill("SIGKILL");
      await survivor?.stop();
      await stack?.cli(["credentials", "remove", "--team", team]);
      await stack?.stop();
      if (shared) await dropWatchNamespace(engine.url ?? "", engine.namespace);
    });

    it("tells the asker once that it stopped, in place of its progress, and a new export works", async () => {
      const started = await stackInItsOwnProcess(
        {
          ...(shared ? { STORE_URL: engine.url ?? "", TEST_WATCH_NAMESPACE: engine.namespace } : {}),
          TEST_READ_LEASE_MS: "1500",
          JOURNAL_GRACE_MS: "1000",
        },
        {
          connect: false,
          entry: REPLICA_ENTRY,
          fake: { invoices: sampleHistory({ days: 25, perDay: 30, seed: 9 }) },
        },
      );
      stack = started.stack;
      killed = started.child;
      const running = stack;
      running.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
      const connected = await running.cli(
        ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
        SANDBOX_SECRET,
      );
      expect(connected.code).toBe(0);

      // Each history page takes 2 s: the export is still reading when its progress appears (after 3 s).
      running.fake.historyDelayMs = 2000;
      const asked = await running.ask("export 30d", { userId: "U0ADMIN", teamId: team });
      expect(JSON.stringify(asked.reply.body)).toContain("Exporting");
      await running.slack.waitForMessages(
        (messages) =>
          messages.some((message) => message.channel === "D0ADMIN" && message.text.includes("Exporting")),
        15_000,
      );
      const progress = [...running.slack.messages.values()].find((message) => message.channel === "D0ADMIN");
      if (!progress) throw new Error("no progress message");
      expect(JSON.stringify(progress.blocks)).toContain("invoice_export_cancel");
      // Killed once the progress has been edited: by then the message is written down with the export
      // (a replica dying in the moment between posting it and writing it down leaves it, and the asker
      // is told in a new message).
      await expect.poll(() => progress.updates, { timeout: 15_000 }).toBeGreaterThan(0);

      const exited = new Promise((resolve) => killed?.once("exit", resolve));
      killed?.kill("SIGKILL");
      await exited;
      running.fake.historyDelayMs = 0;
      survivor = await startServer(running.env, {
        logDestination: { write: (line: string) => void survivorLogs.push(line) },
        paymentsRetryDelayMs: 20,
        ...(shared ? { watchNamespace: engine.namespace } : {}),
      });

      // Shared stores: the sweep (every 5 s) tells the asker without their asking again.
      if (shared)
        await expect
          .poll(() => JSON.stringify(progress.blocks), { timeout: 10_000, interval: 100 })
          .toContain(LAPSED);
      // The asker asks again: told one is under way while the dead replica's lease holds, then it starts
      // (on SQLite, where no sweep runs every few seconds, that start is what tells them first).
      await expect
        .poll(
          async () => {
            const again = await running.ask("export 7d", { userId: "U0ADMIN", teamId: team });
            return JSON.stringify(again.reply.body);
          },
          { timeout: 15_000, interval: 500 },
        )
        .toContain("Exporting invoices in the last 7 days");
      const [file] = await running.slack.files.waitFor(1, 20_000);
      expect(file?.channel).toBe("D0ADMIN");
      expect(file?.filename).toMatch(/\.csv$/);

      // The dead export's progress says it stopped, its Cancel gone; told once.
      expect(JSON.stringify(progress.blocks)).toContain(LAPSED);
      expect(JSON.stringify(progress.blocks)).not.toContain("invoice_export_cancel");
      const told = [...running.slack.messages.values()].filter((message) =>
        JSON.stringify(message.blocks).includes(LAPSED),
      );
      expect(told).toHaveLength(1);
      expect(survivorLogs.filter((line) => line.includes('"outcome":"export_lapsed"'))).toHaveLength(1);
    }, 60_000);
  });
}
