/**
 * The app under load in `npm run bench`, in a process of its own so that its memory and CPU are
 * measured apart from the load generator and the stand-ins. Started as
 * `node bench-target.js kassa|same-io|minimal [--store-stats] [--cpu-prof=FILE]` with exactly the environment a Stack gives
 * the in-process app (nothing inherited).
 *
 * - `kassa`: the real app, `startServer(process.env)` as `npm start` does (logs go to stderr).
 * - `minimal`: the smallest Bolt app that answers the same commands: the same `App` with its HTTP
 *   receiver and signing secret, token plus bot ids (so no auth.test), one listener per command that
 *   acks and then responds with a fixed small message. The reference the targets are relative to.
 * - `same-io`: a Bolt app doing the outside calls Kassa does and nothing else (bench-same-io.ts):
 *   the floor of what those calls cost, to tell Kassa's own cost from theirs.
 *
 * Talks JSON lines on stdout: `{"type":"ready",...}` once listening; a `stats` line whenever a line
 * `stats` arrives on stdin; a `stopped` line (final figures, before shutting down) on a `stop` line,
 * on stdin's end (the bench went away) or on SIGTERM / SIGINT; then it exits.
 * With `--cpu-prof=FILE`, a line `profile` starts the V8 CPU profiler, and stopping writes FILE
 * (a .cpuprofile for Chrome DevTools): the measured phase only, without start-up and warm-up.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { getHeapSpaceStatistics } from "node:v8";
import {
  BENCH_TARGETS,
  type BenchTarget,
  minimalReply,
  type StoreStats,
  type TargetLine,
  type TargetStats,
} from "./bench-protocol.js";

type Running = { port: number; stop(): Promise<void> };

function snapshot(store: StoreStats | undefined): TargetStats {
  const usage = process.resourceUsage();
  const memory = process.memoryUsage();
  return {
    maxRssKb: usage.maxRSS,
    rssKb: Math.round(memory.rss / 1024),
    heapUsedKb: Math.round(memory.heapUsed / 1024),
    heapTotalKb: Math.round(memory.heapTotal / 1024),
    externalKb: Math.round(memory.external / 1024),
    heapSpacesKb: Object.fromEntries(
      getHeapSpaceStatistics().map((space) => [space.space_name, Math.round(space.space_size / 1024)]),
    ),
    cpuUserUs: usage.userCPUTime,
    cpuSystemUs: usage.systemCPUTime,
    ...(store ? { store: structuredClone(store) } : {}),
  };
}

function emit(line: TargetLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * Counts every SQLite statement Kassa runs (its Keyv adapter and claims, through better-sqlite3's
 * prepared statements) by its first word and the namespace of its key, and times it. better-sqlite3
 * runs each statement synchronously, so the time is the statement's own, without queueing.
 */
async function countStoreQueries(stats: StoreStats): Promise<void> {
  const Database = (await import("better-sqlite3")).default;
  type Run = (this: { source: string }, ...args: unknown[]) => unknown;
  const probe = new Database(":memory:");
  const prototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<"run" | "get" | "all", Run>;
  probe.close();
  for (const method of ["run", "get", "all"] as const) {
    const original = prototype[method];
    prototype[method] = function (this: { source: string }, ...args: unknown[]): unknown {
      const verb = /^\s*(\w+)/.exec(this.source)?.[1]?.toUpperCase() ?? "?";
      const key = args.find((value): value is string => typeof value === "string");
      const name = `${verb} ${key?.includes(":") ? key.slice(0, key.indexOf(":")) : (key ?? "-")}`;
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const entry = stats[name] ?? { count: 0, totalMs: 0 };
        entry.count += 1;
        entry.totalMs += performance.now() - started;
        stats[name] = entry;
      }
    };
  }
}

async function startKassa(): Promise<Running> {
  // Imported here so that the minimal app does not load (and pay the memory of) Kassa's modules.
  const { startServer } = await import("../src/server.js");
  return startServer(process.env, { logDestination: process.stderr, paymentsRetryDelayMs: 20 });
}

async function startMinimal(): Promise<Running> {
  const { App, LogLevel } = await import("@slack/bolt");
  const env = process.env;
  const { SANDBOX_BOT } = await import("./slack.js");
  const app = new App({
    token: env.SLACK_BOT_TOKEN,
    botId: SANDBOX_BOT.botId,
    botUserId: SANDBOX_BOT.userId,
    signingSecret: env.SLACK_SIGNING_SECRET ?? "",
    clientOptions: env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {},
    logLevel: LogLevel.ERROR,
    convoStore: false,
    processBeforeResponse: false,
  });
  for (const name of ["/invoice", "/paymethods"]) {
    app.command(name, async ({ ack, respond }) => {
      await ack();
      await respond(minimalReply());
    });
  }
  const server = (await app.start(Number(env.PORT ?? 0))) as { address(): AddressInfo | string | null };
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the minimal app has no port");
  return {
    port: address.port,
    async stop() {
      await app.stop();
    },
  };
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!BENCH_TARGETS.includes(target as BenchTarget)) {
    emit({
      type: "error",
      message: `usage: bench-target ${BENCH_TARGETS.join("|")} [--store-stats] [--cpu-prof=FILE]`,
    });
    process.exit(2);
  }
  const store: StoreStats | undefined = process.argv.includes("--store-stats") ? {} : undefined;
  if (store) await countStoreQueries(store);

  let running: Running;
  try {
    running =
      target === "kassa"
        ? await startKassa()
        : target === "same-io"
          ? await (await import("./bench-same-io.js")).startSameIo(process.env)
          : await startMinimal();
  } catch (error) {
    emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  emit({ type: "ready", port: running.port, ...snapshot(store) });

  const profileFile = process.argv.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length);
  let profiler: Session | undefined;
  const startProfile = async () => {
    if (!profileFile || profiler) return;
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.setSamplingInterval", { interval: 500 });
    await profiler.post("Profiler.start");
  };
  const stopProfile = async () => {
    if (!profileFile || !profiler) return;
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(profileFile, JSON.stringify(profile));
    profiler.disconnect();
  };

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // The figures first: shutting down must not count.
    const figures = snapshot(store);
    stopProfile()
      .catch((error: unknown) => process.stderr.write(`cpu profile not written: ${String(error)}\n`))
      .then(() => {
        emit({ type: "stopped", ...figures });
        return running.stop();
      })
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const input = createInterface({ input: process.stdin });
  input.on("line", (line) => {
    const command = line.trim();
    if (command === "stats") emit({ type: "stats", ...snapshot(store) });
    else if (command === "profile")
      startProfile().then(
        () => emit({ type: "stats", ...snapshot(store) }),
        (error: unknown) => emit({ type: "error", message: `cannot profile: ${String(error)}` }),
      );
    else if (command === "stop") stop();
  });
  input.on("close", stop);
}

void main();
