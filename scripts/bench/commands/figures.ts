import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { BenchTarget, StoreStats, TargetStats } from "../../../sandbox/bench-protocol.js";
import { Stack } from "../../../sandbox/stack.js";
import { benchInvoices, drive, type Kind, type Outcome, type Sample } from "../shared/load.js";
import { type Options, WARMUP_MAX_MS } from "../shared/options.js";
import { percentile } from "../shared/stats.js";
import { startTarget, type TargetProcess } from "../shared/targets.js";

// npm run bench: the figures.

/**
 * CPU ticks (1/100 s) used so far by each process on this machine that is not part of the run: not
 * this process, its parents (npm, tsx) or its children (the target), and no kernel thread. Read
 * from /proc, so only on Linux (undefined elsewhere). To tell when other work skewed a run.
 */
function otherProcessTicks(): Map<number, number> | undefined {
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return undefined;
  }
  const table = new Map<number, { ppid: number; ticks: number }>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(pid, { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended meanwhile.
    }
  }
  const ours = new Set<number>([process.pid]);
  for (let pid = process.ppid; pid > 1 && !ours.has(pid); pid = table.get(pid)?.ppid ?? 0) ours.add(pid);
  const isOurs = (pid: number): boolean => {
    for (let at = pid, hops = 0; at > 1 && hops < 64; at = table.get(at)?.ppid ?? 0, hops += 1)
      if (at === process.pid) return true;
    return ours.has(pid);
  };
  const others = new Map<number, number>();
  for (const [pid, entry] of table) {
    if (pid === 2 || entry.ppid === 2 || isOurs(pid)) continue;
    others.set(pid, entry.ticks);
  }
  return others;
}

/** CPU other processes used between two readings (% of one core over `seconds`). */
function othersPercent(
  before: Map<number, number> | undefined,
  after: Map<number, number> | undefined,
  seconds: number,
): number {
  if (!before || !after) return Number.NaN;
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / seconds;
}

export function distribution(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1),
  };
}

/** What one measured phase of one target produced, before figures are drawn from it. */
export type TargetRun = {
  samples: Sample[];
  seconds: number;
  /** CPU time of the target process and of this process during the measured phase (µs). */
  targetCpuUs: number;
  benchCpuUs: number;
  benchLoopDelayP99Ms: number;
  othersCpuPercent: number;
  readyRssKb: number;
  /** The target's figures when it stopped, right after the measured phase. */
  end: TargetStats;
  paymentRequests: { warmup: number; paths: string[] };
  store?: StoreStats;
  appLogLines: number;
};

export type TargetResult = {
  target: BenchTarget;
  rounds: number;
  commands: number;
  ok: number;
  failed: number;
  missing: number;
  notAcked: number;
  seconds: number;
  throughput: number;
  ackMs: ReturnType<typeof distribution>;
  replyMs: ReturnType<typeof distribution>;
  byKind: Record<Kind, { ok: number; ackP99: number; replyP50: number; replyP99: number }>;
  /** Each round on its own, to show how much the figures move between runs. */
  perRound: Array<{ throughput: number; ackP99: number; replyP99: number; peakRssMiB: number }>;
  problems: Record<string, number>;
  /** Highest over the rounds (MiB). */
  rssMiB: { atReady: number; peak: number };
  /** Memory when the measured phase ended, highest over the rounds (MiB): resident, V8 heap, V8 heap in use, external. */
  memoryAtEndMiB: { rss: number; heapTotal: number; heapUsed: number; external: number };
  /** CPU time of the target process during the measured phases, per command (ms). */
  cpuMsPerCommand: number;
  /** CPU of the target and of this process (generator, stand-ins) during the measured phases (% of one core). */
  cpuPercent: { target: number; bench: number };
  /** Worst round. */
  benchLoopDelayP99Ms: number;
  /** CPU other processes on the machine used during the measured phases, worst round (% of a core; Linux only). */
  othersCpuPercent: number;
  paymentRequests: { warmup: number; measured: number; byPath: Record<string, number> };
  store?: { perCommand: Record<string, { perCommand: number; meanMs: number }> };
  appLogLines: number;
};

export async function runTarget(
  target: BenchTarget,
  options: Options,
  compiledDir: string | undefined,
  progress: (text: string) => void,
): Promise<TargetRun> {
  let child: TargetProcess | undefined;
  let final: TargetStats | undefined;
  const invoices = benchInvoices(options.invoiceIds);
  const invoiceIds = invoices.map((invoice) => invoice.id);
  const stack = await Stack.start({
    fake: { invoices },
    env: { ...options.env, LOG_LEVEL: options.logLevel },
    startApp: async (env) => {
      const started = await startTarget(target, env, options, compiledDir);
      child = started;
      return {
        port: started.port,
        async stop() {
          final = await started.stop();
        },
      };
    },
  });
  let stopped = false;
  try {
    if (!child) throw new Error(`${target} did not start`);
    const running: TargetProcess = child;
    progress(`${target}: listening on ${stack.url}; warm-up (${options.warmup} commands, not counted)`);
    const warmup = await drive(
      stack,
      target,
      options,
      0,
      options.warmup,
      Date.now() + WARMUP_MAX_MS,
      invoiceIds,
    );
    const badWarmup = warmup.filter((sample) => sample.outcome !== "ok");
    if (badWarmup.length > 0)
      progress(`${target}: ${badWarmup.length} warm-up commands failed (${badWarmup[0]?.detail})`);
    const paymentsBefore = stack.fake.requests.length;
    const before = await running.stats(options.cpuProfDir !== undefined);
    const benchCpu = process.cpuUsage();
    const othersBefore = otherProcessTicks();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    progress(`${target}: measuring ${options.n} commands, ${options.concurrency} in flight`);
    const started = performance.now();
    const samples = await drive(
      stack,
      target,
      options,
      options.warmup,
      options.n,
      Date.now() + options.maxSeconds * 1000,
      invoiceIds,
    );
    const seconds = (performance.now() - started) / 1000;
    loop.disable();
    const benchCpuUsed = process.cpuUsage(benchCpu);
    const othersCpu = othersPercent(othersBefore, otherProcessTicks(), seconds);
    const after = await running.stats();
    const paths = stack.fake.requests.slice(paymentsBefore).map((request) => request.path);
    const appLogLines = running.logLines().length;
    stopped = true;
    await stack.stop();

    const cpuUs = (stats: TargetStats) => stats.cpuUserUs + stats.cpuSystemUs;
    let store: StoreStats | undefined;
    if (before.store && after.store) {
      store = {};
      for (const [name, entry] of Object.entries(after.store)) {
        const earlier = before.store[name] ?? { count: 0, totalMs: 0 };
        if (entry.count > earlier.count)
          store[name] = { count: entry.count - earlier.count, totalMs: entry.totalMs - earlier.totalMs };
      }
    }
    return {
      samples,
      seconds,
      targetCpuUs: cpuUs(after) - cpuUs(before),
      benchCpuUs: benchCpuUsed.user + benchCpuUsed.system,
      benchLoopDelayP99Ms: loop.percentile(99) / 1e6,
      othersCpuPercent: othersCpu,
      readyRssKb: running.ready.maxRssKb,
      end: final ?? after,
      paymentRequests: { warmup: paymentsBefore, paths },
      ...(store ? { store } : {}),
      appLogLines,
    };
  } finally {
    if (!stopped) await stack.stop();
  }
}

/** The figures of a target over all its rounds: latencies over every command, totals summed, peaks the highest. */
export function summarize(target: BenchTarget, runs: TargetRun[]): TargetResult {
  const samples = runs.flatMap((run) => run.samples);
  const sum = (get: (run: TargetRun) => number) => runs.reduce((total, run) => total + get(run), 0);
  const highest = (get: (run: TargetRun) => number) => Math.max(...runs.map(get));
  const acksOf = (list: Sample[]) =>
    list.flatMap((sample) => (sample.ackMs === undefined ? [] : [sample.ackMs]));
  const repliesOf = (list: Sample[]) =>
    list.flatMap((sample) => (sample.replyMs === undefined ? [] : [sample.replyMs]));
  const okOf = (list: Sample[]) => list.filter((sample) => sample.outcome === "ok").length;
  const count = (outcome: Outcome) => samples.filter((sample) => sample.outcome === outcome).length;
  const problems: Record<string, number> = {};
  for (const sample of samples) {
    if (sample.outcome === "ok") continue;
    const key = `${sample.outcome}: ${sample.detail ?? ""}`.slice(0, 160);
    problems[key] = (problems[key] ?? 0) + 1;
  }
  const kindFigures = (kind: Kind) => {
    const ofKind = samples.filter((sample) => sample.kind === kind);
    const replies = distribution(repliesOf(ofKind));
    return {
      ok: okOf(ofKind),
      ackP99: distribution(acksOf(ofKind)).p99,
      replyP50: replies.p50,
      replyP99: replies.p99,
    };
  };
  const byPath: Record<string, number> = {};
  for (const path of runs.flatMap((run) => run.paymentRequests.paths)) byPath[path] = (byPath[path] ?? 0) + 1;
  let store: TargetResult["store"];
  if (runs.every((run) => run.store)) {
    const totals: StoreStats = {};
    for (const run of runs) {
      for (const [name, entry] of Object.entries(run.store ?? {})) {
        const total = totals[name] ?? { count: 0, totalMs: 0 };
        total.count += entry.count;
        total.totalMs += entry.totalMs;
        totals[name] = total;
      }
    }
    store = {
      perCommand: Object.fromEntries(
        Object.entries(totals).map(([name, total]) => [
          name,
          { perCommand: total.count / (samples.length || 1), meanMs: total.totalMs / total.count },
        ]),
      ),
    };
  }
  const seconds = sum((run) => run.seconds);
  return {
    target,
    rounds: runs.length,
    commands: samples.length,
    ok: okOf(samples),
    failed: count("failed"),
    missing: count("missing"),
    notAcked: count("not_acked"),
    seconds,
    throughput: okOf(samples) / seconds,
    ackMs: distribution(acksOf(samples)),
    replyMs: distribution(repliesOf(samples)),
    byKind: { invoice: kindFigures("invoice"), paymethods: kindFigures("paymethods") },
    perRound: runs.map((run) => ({
      throughput: okOf(run.samples) / run.seconds,
      ackP99: distribution(acksOf(run.samples)).p99,
      replyP99: distribution(repliesOf(run.samples)).p99,
      peakRssMiB: run.end.maxRssKb / 1024,
    })),
    problems,
    rssMiB: {
      atReady: highest((run) => run.readyRssKb) / 1024,
      peak: highest((run) => run.end.maxRssKb) / 1024,
    },
    memoryAtEndMiB: {
      rss: highest((run) => run.end.rssKb) / 1024,
      heapTotal: highest((run) => run.end.heapTotalKb) / 1024,
      heapUsed: highest((run) => run.end.heapUsedKb) / 1024,
      external: highest((run) => run.end.externalKb) / 1024,
    },
    cpuMsPerCommand: sum((run) => run.targetCpuUs) / 1000 / (samples.length || 1),
    cpuPercent: {
      target: (sum((run) => run.targetCpuUs) / 1e6 / seconds) * 100,
      bench: (sum((run) => run.benchCpuUs) / 1e6 / seconds) * 100,
    },
    benchLoopDelayP99Ms: highest((run) => run.benchLoopDelayP99Ms),
    othersCpuPercent: highest((run) => run.othersCpuPercent),
    paymentRequests: {
      warmup: sum((run) => run.paymentRequests.warmup),
      measured: sum((run) => run.paymentRequests.paths.length),
      byPath,
    },
    ...(store ? { store } : {}),
    appLogLines: sum((run) => run.appLogLines),
  };
}
