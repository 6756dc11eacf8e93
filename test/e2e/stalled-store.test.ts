/**
 * A store that stops answering mid-service (a SIGSTOPped Redis or PostgreSQL), reproduced with a TCP
 * proxy in front of the real server that holds every byte once stalled. Needs TEST_REDIS_URL /
 * TEST_POSTGRES_URL; skipped, saying so, without them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { type StallProxy, startStallProxy } from "../support/stall-proxy.js";

const servers = [
  // Database 13 of the shared Redis: the stack uses Kassa's fixed namespaces, kept apart from other tests.
  {
    name: "Redis",
    url: process.env.TEST_REDIS_URL?.trim()
      ? `${process.env.TEST_REDIS_URL.trim().replace(/\/\d*$/, "")}/13`
      : undefined,
  },
  { name: "PostgreSQL", url: process.env.TEST_POSTGRES_URL?.trim() || undefined },
];

type Blocks = Array<{ type: string; text?: { text: string }; elements?: Array<{ text: string }> }>;

describe.each(servers)("a stalled $name store", ({ name, url }) => {
  let stack: Stack | undefined;
  let proxy: StallProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await stack?.stop();
  });

  it.skipIf(!url)(
    `tells the user the storage is not answering, and /readyz says 503${url ? "" : ` (skipped: TEST_${name === "Redis" ? "REDIS" : "POSTGRES"}_URL not set)`}`,
    async () => {
      proxy = await startStallProxy(url ?? "");
      // PostgreSQL: the stack's own table would be shared with other tests; the sandbox team's row is
      // rewritten by each run, which is all this test reads.
      stack = await Stack.start({ env: { STORE_URL: proxy.url, STORE_TIMEOUT_MS: "300" }, storeMemoMs: 0 });
      expect((await fetch(`${stack.url}/readyz`)).status).toBe(200);

      proxy.stall();
      const { reply } = await stack.ask("715308958_rPwTzvsvCm");
      const body = reply.body as { text: string; blocks: Blocks };
      expect(body.blocks[0]?.text?.text).toBe(
        ":hourglass: Kassa's storage is not answering. Try again in a minute.",
      );
      const reference = /Reference `(\w+)`/.exec(body.blocks[1]?.elements?.[0]?.text ?? "")?.[1];
      expect(reference).toBeTruthy();
      const running = stack;
      await expect
        .poll(() => running.logEntries().find((entry) => entry.reference === reference)?.outcome)
        .toBe("store_timeout");

      const ready = await fetch(`${stack.url}/readyz`);
      expect(ready.status).toBe(503);
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    },
  );
});
