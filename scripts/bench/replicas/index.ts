/**
 * `npm run bench -- --replicas`: the payment feed's promise across replicas (sandbox/feed-replicas.ts).
 * Per engine (Redis, then PostgreSQL; one not answering is skipped and said so), two runs of two
 * replicas: steady, then disrupted (one replica paused with SIGSTOP for --pause-ms a third of the
 * way in, the other killed with kill -9 two thirds of the way in and started again). Reported:
 * payments posted, repeated, lost, and the time from payment to message (p50 / p99 / max), each run
 * with PASS or FAIL:
 * - steady: nothing repeated or lost, p99 within FEED_INTERVAL_MS + 2 s;
 * - disrupted: nothing lost, at most one repeat per replica stopped (the message Slack may hold at
 *   that moment), p99 within FEED_INTERVAL_MS + the feed's 10 s lease + 2 s.
 *
 * Flags (defaults): --workspaces 20 --payments 30 (each) --seconds 30 (payments spread over)
 *   --latency-ms 150 (every answer of the payment service) --interval-ms 5000 (FEED_INTERVAL_MS)
 *   --pause-ms 8000 --redis-url redis://127.0.0.1:6379 --postgres-url postgres://postgres@127.0.0.1:5432/test
 *   --engines redis,postgres
 * Exit code 0 when every run passed, 1 otherwise, 2 when a run broke.
 */
import { parseArgs } from "node:util";
import { type FeedReplicasResult, runFeedReplicas } from "../../../sandbox/feed-replicas.js";
import { percentile } from "../shared/stats.js";

const LEASE_MS = 10_000;

async function answers(url: string): Promise<boolean> {
  const { openStore } = await import("../../../src/store/keyv.js");
  try {
    const store = await openStore(url);
    await store.close();
    return true;
  } catch {
    return false;
  }
}

export async function runReplicasBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      workspaces: { type: "string", default: "20" },
      payments: { type: "string", default: "30" },
      seconds: { type: "string", default: "30" },
      "latency-ms": { type: "string", default: "150" },
      "interval-ms": { type: "string", default: "5000" },
      "pause-ms": { type: "string", default: "8000" },
      "redis-url": { type: "string", default: "redis://127.0.0.1:6379" },
      "postgres-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
      engines: { type: "string", default: "redis,postgres" },
    },
  });
  const number = (name: string) => Number(values[name]);
  const intervalMs = number("interval-ms");
  const pauseMs = number("pause-ms");
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);
  const urls: Record<string, string> = {
    redis: String(values["redis-url"]),
    postgres: String(values["postgres-url"]),
  };
  const lines = [
    `Feed on two replicas: ${number("workspaces")} workspaces x ${number("payments")} payments over ${number("seconds")} s, the payment service answering in ${number("latency-ms")} ms, FEED_INTERVAL_MS=${intervalMs}; node ${process.version}.`,
  ];
  let passed = true;
  try {
    for (const engine of String(values.engines).split(",")) {
      const url = urls[engine];
      if (!url || !(await answers(url))) {
        lines.push(`  ${engine}: skipped (nothing answers at ${url ?? "?"})`);
        continue;
      }
      for (const disrupted of [false, true]) {
        progress(`${engine}, ${disrupted ? "one replica paused, the other killed" : "steady"}`);
        const result = await runFeedReplicas({
          storeUrl: url,
          workspaces: number("workspaces"),
          paymentsEach: number("payments"),
          spreadMs: number("seconds") * 1000,
          latencyMs: number("latency-ms"),
          intervalMs,
          ...(disrupted ? { pauseMs, kill: true } : {}),
          progress,
        });
        const p99 = percentile(result.delays, 99);
        const limit = intervalMs + 2000 + (disrupted ? LEASE_MS : 0);
        const pass =
          result.lost === 0 && result.repeated <= (disrupted ? result.events.length : 0) && p99 <= limit;
        passed &&= pass;
        lines.push(row(engine, disrupted, result, p99, limit, pass));
      }
    }
  } catch (error) {
    process.stderr.write(`bench: the run broke: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return passed ? 0 : 1;
}

function row(
  engine: string,
  disrupted: boolean,
  result: FeedReplicasResult,
  p99: number,
  limit: number,
  pass: boolean,
): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const what = disrupted ? `disrupted (${result.events.join("; ")})` : "steady";
  return [
    `  ${engine}, ${what}`,
    `    posted ${result.posted} of ${result.payments}; repeated ${result.repeated}; lost ${result.lost}`,
    `    payment to message p50 / p99 / max  ${s(percentile(result.delays, 50))} / ${s(p99)} / ${s(result.delays.at(-1) ?? Number.NaN)}  (p99 target ${s(limit)})  ${pass ? "PASS" : "FAIL"}`,
  ].join("\n");
}
