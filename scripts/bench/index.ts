/**
 * `npm run bench`: puts the same load on Kassa, on a Bolt app doing the same outside calls (the
 * same-I/O floor: one invoice read and one chat.postMessage per /invoice, one cached method list per
 * /paymethods) and on a minimal Bolt app, one after the other, and compares Kassa with both.
 *
 * Each target runs in a child process of its own (sandbox/bench-target.ts; src/ and sandbox/ are
 * transpiled to plain JavaScript first, as `npm start` runs built code), started through the sandbox
 * Stack with the environment a Stack gives the in-process app; the fake payment service, the Slack
 * stand-in and the load generator stay in this process. Everything listens on 127.0.0.1 only.
 * Per target and round: a warm-up that is not counted (5000 commands, so that both are measured
 * with their hot code optimised, as a long-running server is), then N signed slash commands (`/invoice <id>`
 * and `/paymethods [filter]` alternating, from many users) with C in flight (closed loop: each
 * worker waits for its reply on the response_url before sending the next). Rounds alternate the
 * targets (kassa, same-io, minimal, kassa, ...); the figures pool all rounds.
 *
 * Flags (defaults): --n 2000 --concurrency 50 --rounds 5 --warmup 5000 --users 50
 *   --invoice-ids 8        distinct invoices asked for (8: the fake's samples, one per state)
 *   --max-seconds 20       stop sending after this long per measured phase
 *   --reply-timeout-ms 10000  a reply later than this counts as missing
 *   --log-level warn       LOG_LEVEL of the targets
 *   --targets kassa,same-io,minimal   which, in which order
 *   --env NAME=VALUE       more environment for the targets (repeatable; see DEFAULT_ENV)
 *   --node-option=--FLAG   a Node.js option for the target processes (repeatable), after the
 *                          Docker image's NODE_OPTIONS (heap sizes), which both targets get
 *   --no-image-options     without the image's NODE_OPTIONS (Node's own heap sizing)
 *   --tsx                  run the targets under the tsx loader instead (+~35 MB RSS)
 *   --store-stats          count the SQLite round trips of each command (a small overhead)
 *   --cpu-prof-dir DIR     CPU profiles of the targets while measuring, written there and summarized
 *   --json                 machine-readable output on stdout (use `npm run -s bench -- --json`)
 *   --overload             instead of the above: the overload scenario (see overload/), once
 *
 * `--watch` runs the live-card scenario instead (Kassa only; see watch/): --watches 10000
 *   --workspaces 500 --watch-seconds 90 --changes 500 --slack-failures 0, with the app's default
 *   WATCH_* settings unless --env sets them. --slack-failures 0.1: one chat.update or
 *   chat.postMessage in ten fails (HTTP 500) while watching; the report counts thread notes lost and
 *   repeated.
 *
 * `--feed` runs the payment-feed scenario instead (scripts/bench/feed/).
 * `--export` runs the long-read scenario instead (scripts/bench/export/): a month of 50,000 invoices
 *   exported at the default budget, then again, then its report; chart render p99.
 * `--callbacks` runs the payment-notification scenario instead (scripts/bench/callbacks/):
 *   --rate 100 --seconds 30 --read-rps 100.
 * `--replicas` runs the feed on two replicas of Redis and PostgreSQL, steady and with one replica
 *   paused and one killed (scripts/bench/replicas/).
 *
 * Targets are reported, not asserted. Exit code: 0 when the run completed, whatever the figures;
 * 1 when a command was not acknowledged or a reply was missing or an error instead of the card/list;
 * 2 when the run itself broke (bad flags, a target that would not start, the time limit).
 *
 * One folder per benchmark: commands/ (this default run: its figures and report), overload/, watch/,
 * feed/, callbacks/, export/; shared/ holds what drives load for all of them (flags, the target processes, the
 * command load, percentiles).
 */
import { mkdirSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { BenchTarget } from "../../sandbox/bench-protocol.js";
import { runTarget, summarize, type TargetResult, type TargetRun } from "./commands/figures.js";
import { summarizeProfile } from "./commands/profile.js";
import { codeVersion, report, verdicts } from "./commands/report.js";
import { overloadReport, runOverload } from "./overload/index.js";
import { type Options, readOptions, STARTUP_MAX_MS, WARMUP_MAX_MS } from "./shared/options.js";
import { children, transpileTargets } from "./shared/targets.js";
import { runWatchScenario, watchReport } from "./watch/index.js";

async function main(): Promise<number> {
  // Their own scenarios and flags (feed/, callbacks/).
  if (process.argv.includes("--feed"))
    return (await import("./feed/index.js")).runFeedBench(process.argv.slice(2));
  if (process.argv.includes("--export"))
    return (await import("./export/index.js")).runExportBench(process.argv.slice(2));
  if (process.argv.includes("--callbacks"))
    return (await import("./callbacks/index.js")).runCallbacksBench(process.argv.slice(2));
  if (process.argv.includes("--replicas"))
    return (await import("./replicas/index.js")).runReplicasBench(process.argv.slice(2));
  let options: Options;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);
  // Bounded whatever happens: warm-up and measuring have their own limits; this is the backstop.
  const limitMs =
    options.rounds *
    options.targets.length *
    (WARMUP_MAX_MS + options.maxSeconds * 1000 + options.replyTimeoutMs + STARTUP_MAX_MS);
  let compiledDir: string | undefined;
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: gave up after ${limitMs / 1000} s\n`);
    for (const child of children) child.kill("SIGKILL");
    if (compiledDir) rmSync(compiledDir, { recursive: true, force: true });
    process.exit(2);
  }, limitMs);
  watchdog.unref();
  const stopChildren = () => {
    for (const child of children) child.kill("SIGKILL");
    if (compiledDir) rmSync(compiledDir, { recursive: true, force: true });
    process.exit(2);
  };
  process.on("SIGINT", stopChildren);
  process.on("SIGTERM", stopChildren);

  const results: TargetResult[] = [];
  try {
    if (!options.tsx) {
      const started = performance.now();
      compiledDir = transpileTargets();
      progress(`transpiled src/ and sandbox/ in ${Math.round(performance.now() - started)} ms`);
    }
    if (options.overload) {
      const overload = await runOverload(options, compiledDir, progress);
      process.stdout.write(
        options.json ? `${JSON.stringify({ overload }, null, 2)}\n` : `${overloadReport(overload)}\n`,
      );
      const honest =
        overload.other + overload.missing === 0 && overload.upstreamRequests <= overload.upstreamBudget;
      return honest ? 0 : 1;
    }
    if (options.cpuProfDir) mkdirSync(options.cpuProfDir, { recursive: true });
    if (options.watch) {
      const watch = await runWatchScenario(options, options.watch, compiledDir, progress);
      process.stdout.write(`${options.json ? JSON.stringify(watch, null, 2) : watchReport(watch)}\n`);
      return watch.missing > 0 ? 1 : 0;
    }
    const runs = new Map<BenchTarget, TargetRun[]>(options.targets.map((target) => [target, []]));
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const target of options.targets) {
        progress(`round ${round} of ${options.rounds}`);
        runs.get(target)?.push(await runTarget(target, options, compiledDir, progress));
      }
    }
    for (const [target, list] of runs) results.push(summarize(target, list));
  } catch (error) {
    process.stderr.write(`bench: the run broke: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    if (compiledDir) rmSync(compiledDir, { recursive: true, force: true });
  }

  const kassa = results.find((result) => result.target === "kassa");
  const checks = kassa ? verdicts(kassa, results) : [];
  const runtime = options.tsx ? "node --import tsx" : "node, transpiled JavaScript";
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          options: { ...options, cpus: cpus().length, node: process.version, runtime, code: codeVersion() },
          results,
          targets: checks,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    process.stdout.write(`${report(options, results, checks, runtime)}\n`);
  }
  if (options.cpuProfDir) {
    const output = options.json ? process.stderr : process.stdout;
    for (const target of options.targets) {
      const path = join(options.cpuProfDir, `${target}.cpuprofile`);
      try {
        output.write(`\n${summarizeProfile(path).join("\n")}\n`);
      } catch (error) {
        output.write(`\nno profile at ${path}: ${(error as Error).message}\n`);
      }
    }
  }
  const broken = results.some((result) => result.failed + result.missing + result.notAcked > 0);
  return broken ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    for (const child of children) child.kill("SIGKILL");
    process.exit(2);
  },
);
