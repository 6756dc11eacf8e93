/**
 * Two replicas of the real app sharing one Redis or one PostgreSQL: a signed slash command sent to
 * one and replayed to the other (same body, timestamp and signature) is answered once. Runs when
 * TEST_REDIS_URL / TEST_POSTGRES_URL are set; each run uses its own workspace id.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";

const run = randomBytes(4).toString("hex");
const ENGINES = [
  { name: "redis", url: process.env.TEST_REDIS_URL?.trim() || undefined, variable: "TEST_REDIS_URL" },
  {
    name: "postgres",
    url: process.env.TEST_POSTGRES_URL?.trim() || undefined,
    variable: "TEST_POSTGRES_URL",
  },
];
for (const engine of ENGINES)
  if (!engine.url)
    console.log(`command replay on two replicas: skipping ${engine.name} (${engine.variable} not set)`);

for (const engine of ENGINES) {
  describe.skipIf(!engine.url)(`a slash command replayed to another replica, ${engine.name}`, () => {
    const team = `T0RPL${run.toUpperCase()}`;
    let stack: Stack;
    let second: RunningServer;
    const secondLogs: string[] = [];

    beforeAll(async () => {
      stack = await Stack.start({ connect: false, env: { STORE_URL: engine.url ?? "" } });
      second = await startServer(stack.env, {
        logDestination: { write: (line: string) => void secondLogs.push(line) },
      });
    });
    afterAll(async () => {
      await second?.stop();
      await stack?.stop();
    });

    it("is answered once: the copy gets an empty 200 from the other replica and its log line", async () => {
      const ack = await stack.command("help", { teamId: team });
      await stack.slack.waitForReply(ack.responseId);
      const copy = await fetch(`http://127.0.0.1:${second.port}/slack/events`, {
        method: "POST",
        headers: ack.sent.headers,
        body: ack.sent.body,
      });
      expect(copy.status).toBe(200);
      expect(await copy.text()).toBe("");
      const replies = () => stack.slack.replies.filter((reply) => reply.id === ack.responseId);
      const replayed = () => secondLogs.filter((line) => line.includes('"outcome":"command_replayed"'));
      await expect.poll(() => replayed().length > 0 || replies().length > 1).toBe(true);
      expect(replies()).toHaveLength(1);
      expect(replayed()).toHaveLength(1);
    });
  });
}
