/**
 * What `npm run bench` (scripts/bench/) and the app under load (sandbox/bench-target.ts) share:
 * the targets, the minimal app's reply, and the JSON lines the target writes on stdout.
 */

export const BENCH_TARGETS = ["kassa", "same-io", "minimal"] as const;
export type BenchTarget = (typeof BENCH_TARGETS)[number];

/** What the minimal app answers to every command. */
export const MINIMAL_REPLY_TEXT = "Minimal reply";
export function minimalReply() {
  return {
    response_type: "in_channel" as const,
    text: MINIMAL_REPLY_TEXT,
    blocks: [{ type: "section" as const, text: { type: "mrkdwn" as const, text: MINIMAL_REPLY_TEXT } }],
  };
}

/** Store round trips (SQLite statements) by statement and key namespace, with their total time. */
export type StoreStats = Record<string, { count: number; totalMs: number }>;

export type TargetStats = {
  /** Peak resident set size of the process so far (KB, process.resourceUsage().maxRSS). */
  maxRssKb: number;
  rssKb: number;
  heapUsedKb: number;
  heapTotalKb: number;
  /** Memory outside the V8 heap that V8 knows of (Buffers and the like). */
  externalKb: number;
  /** Committed size of each V8 heap space (KB): which part of the heap grew. */
  heapSpacesKb: Record<string, number>;
  /** CPU time used so far (microseconds). */
  cpuUserUs: number;
  cpuSystemUs: number;
  /** Only with --store-stats. */
  store?: StoreStats;
};

export type TargetLine =
  | ({ type: "ready"; port: number } & TargetStats)
  | ({ type: "stats" } & TargetStats)
  | ({ type: "stopped" } & TargetStats)
  | { type: "error"; message: string };
