import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BENCH_TARGETS, type BenchTarget } from "../../../sandbox/bench-protocol.js";
import { sampleInvoices } from "../../../sandbox/fake-payments.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The issues' targets: Kassa relative to the minimal Bolt app, Kassa relative to a Bolt app doing the
 * same outside calls (the same-I/O floor: what a live card costs beyond its calls), and RSS in MB
 * (10^6 bytes).
 */
export const TARGETS = {
  ackP99Ratio: 1.3,
  replyP99Ratio: 1.5,
  throughputRatio: 0.7,
  sameIoReplyP99Ratio: 1.2,
  sameIoThroughputRatio: 0.9,
  rssMB: 200,
};
export const MB_PER_MIB = 1.048576;

/** Longest a warm-up may take; start-up and shutdown of one target get at most STARTUP_MAX_MS. */
export const WARMUP_MAX_MS = 30_000;
export const STARTUP_MAX_MS = 40_000;

/**
 * Environment the targets get on top of the Stack's. The bench's burst (one workspace, thousands of
 * commands a minute) is far above the per-user and per-workspace rate limits: raised to their
 * maximum, the limiter still does its store round trips on every command but refuses none, so what
 * is measured is the work of a command. `--env RATE_LIMIT_TEAM_PER_MIN=300` measures refusals instead.
 */
export const DEFAULT_ENV: Record<string, string> = {
  RATE_LIMIT_USER_PER_MIN: "100000",
  RATE_LIMIT_TEAM_PER_MIN: "1000000",
  // Likewise the per-register budget of calls to the payment service (5 a second): the fake service
  // is no real register, and the load is measured, not the budget. --overload keeps the budget.
  PAYMENTS_RATE_PER_SECOND: "0",
};

// npm run bench: flags.

export type Options = {
  n: number;
  /** Rounds: each target runs once per round, one after the other; figures pool all rounds. */
  rounds: number;
  concurrency: number;
  warmup: number;
  users: number;
  /** Distinct invoice ids asked for (8: the fake's samples, one per state). */
  invoiceIds: number;
  maxSeconds: number;
  replyTimeoutMs: number;
  logLevel: string;
  /** Node.js options for the target processes (--node-option, repeatable), for experiments. */
  nodeOptions: string[];
  /** Extra environment for the targets (DEFAULT_ENV, then --env). */
  env: Record<string, string>;
  targets: BenchTarget[];
  json: boolean;
  tsx: boolean;
  storeStats: boolean;
  cpuProfDir: string | undefined;
  /** --watch: the live-card scenario instead of the command load. */
  watch:
    | {
        watches: number;
        workspaces: number;
        seconds: number;
        changes: number;
        /** --slack-failures: this fraction of chat.update/postMessage calls fail (HTTP 500) while watching. */
        slackFailures: number;
      }
    | undefined;
  overload: boolean;
};

class UsageError extends Error {}

/**
 * The NODE_OPTIONS the Docker image runs Kassa with (its heap sizes), read from the Dockerfile so
 * that `npm run bench` measures what operators deploy. Both targets get them.
 */
function imageNodeOptions(): string[] {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const match = /\bNODE_OPTIONS=(?:"([^"]*)"|(\S+))/.exec(dockerfile);
  const value = match?.[1] ?? match?.[2];
  if (value === undefined)
    throw new UsageError("the Dockerfile sets no NODE_OPTIONS (use --no-image-options)");
  return value.split(/\s+/).filter((option) => option !== "");
}

export function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      n: { type: "string", default: "2000" },
      rounds: { type: "string", default: "5" },
      concurrency: { type: "string", default: "50" },
      warmup: { type: "string", default: "5000" },
      users: { type: "string", default: "50" },
      "invoice-ids": { type: "string", default: String(sampleInvoices().length) },
      "max-seconds": { type: "string", default: "20" },
      "reply-timeout-ms": { type: "string", default: "10000" },
      "log-level": { type: "string", default: "warn" },
      env: { type: "string", multiple: true, default: [] },
      "node-option": { type: "string", multiple: true, default: [] },
      "no-image-options": { type: "boolean", default: false },
      targets: { type: "string", default: "kassa,same-io,minimal" },
      json: { type: "boolean", default: false },
      tsx: { type: "boolean", default: false },
      "store-stats": { type: "boolean", default: false },
      "cpu-prof-dir": { type: "string" },
      watch: { type: "boolean", default: false },
      watches: { type: "string", default: "10000" },
      workspaces: { type: "string", default: "500" },
      "watch-seconds": { type: "string", default: "90" },
      changes: { type: "string", default: "500" },
      "slack-failures": { type: "string", default: "0" },
      overload: { type: "boolean", default: false },
    },
  });
  const integer = (name: string, text: string, min: number, max: number): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${text})`);
    return value;
  };
  const fraction = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || value > 0.9)
      throw new UsageError(`--${name} must be a fraction from 0 to 0.9 (got ${text})`);
    return value;
  };
  const targets = values.targets.split(",").map((name) => name.trim());
  for (const name of targets) {
    if (!BENCH_TARGETS.includes(name as BenchTarget))
      throw new UsageError(`--targets takes ${BENCH_TARGETS.join(", ")} (got ${name})`);
  }
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(values["log-level"]))
    throw new UsageError(`--log-level must be a LOG_LEVEL value (got ${values["log-level"]})`);
  const env = { ...DEFAULT_ENV };
  for (const assignment of values.env) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(assignment);
    if (!match?.[1] || match[2] === undefined)
      throw new UsageError(`--env takes NAME=VALUE (got ${assignment})`);
    if (["LOG_LEVEL", "PORT"].includes(match[1]) || /_URL$/.test(match[1]))
      throw new UsageError(
        `--env cannot set ${match[1]} (use --log-level; URLs and the port are the bench's)`,
      );
    env[match[1]] = match[2];
  }
  return {
    n: integer("n", values.n, 1, 100_000),
    rounds: integer("rounds", values.rounds, 1, 20),
    concurrency: integer("concurrency", values.concurrency, 1, 1000),
    warmup: integer("warmup", values.warmup, 0, 10_000),
    users: integer("users", values.users, 1, 10_000),
    invoiceIds: integer("invoice-ids", values["invoice-ids"], 1, 100_000),
    maxSeconds: integer("max-seconds", values["max-seconds"], 1, 600),
    replyTimeoutMs: integer("reply-timeout-ms", values["reply-timeout-ms"], 100, 60_000),
    logLevel: values["log-level"],
    env,
    nodeOptions: [
      ...(values["no-image-options"] ? [] : imageNodeOptions()),
      ...values["node-option"].map((option) => {
        if (!option.startsWith("--"))
          throw new UsageError(`--node-option takes a Node.js flag (got ${option})`);
        return option;
      }),
    ],
    targets: [...new Set(targets as BenchTarget[])],
    json: values.json,
    tsx: values.tsx,
    storeStats: values["store-stats"],
    cpuProfDir: values["cpu-prof-dir"] ? resolve(values["cpu-prof-dir"]) : undefined,
    watch: values.watch
      ? {
          watches: integer("watches", values.watches, 1, 100_000),
          workspaces: integer("workspaces", values.workspaces, 1, 10_000),
          seconds: integer("watch-seconds", values["watch-seconds"], 10, 3600),
          changes: integer("changes", values.changes, 0, 100_000),
          slackFailures: fraction("slack-failures", values["slack-failures"]),
        }
      : undefined,
    overload: values.overload,
  };
}
