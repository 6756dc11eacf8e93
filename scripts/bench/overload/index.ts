import type { TargetStats } from "../../../sandbox/bench-protocol.js";
import { Stack } from "../../../sandbox/stack.js";
import { distribution } from "../commands/figures.js";
import { benchInvoices, classify } from "../shared/load.js";
import { DEFAULT_ENV, type Options } from "../shared/options.js";
import { startTarget, type TargetProcess } from "../shared/targets.js";

// npm run bench: the overload.

/** The overload scenario: this many people look up their own invoice at the same moment... */
const OVERLOAD_LOOKUPS = 500;
/** ...of a payment service that takes this long to answer each. */
const OVERLOAD_SERVICE_MS = 5000;
/** A reply later than this counts as missing (Slack's response_url lasts 30 minutes). */
const OVERLOAD_REPLY_MAX_MS = 120_000;
const BUSY_TEXT = "payment service is busy";

type OverloadResult = {
  lookups: number;
  cards: number;
  busy: number;
  other: number;
  missing: number;
  otherExamples: string[];
  upstreamRequests: number;
  /** What the per-register budget allows over the run: a second's burst plus the rate times the time. */
  upstreamBudget: number;
  ratePerSecond: number;
  seconds: number;
  cardReplyMs: ReturnType<typeof distribution>;
  busyReplyMs: ReturnType<typeof distribution>;
  peakRssMiB: number;
};

/**
 * 500 simultaneous `/invoice` lookups of distinct ids, from distinct people, against a service that
 * answers each in 5 s, with Kassa's own per-register budget (PAYMENTS_* defaults unless --env sets
 * them). Everyone must get the card or the "payment service is busy" reply; the service must get no
 * more requests than the budget allows.
 */
export async function runOverload(
  options: Options,
  compiledDir: string | undefined,
  progress: (text: string) => void,
) {
  const invoices = benchInvoices(OVERLOAD_LOOKUPS);
  // The throughput run lifts the budget; here it is what is measured (unless --env set it).
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env))
    if (!(name.startsWith("PAYMENTS_") && DEFAULT_ENV[name] === value)) env[name] = value;
  let child: TargetProcess | undefined;
  let final: TargetStats | undefined;
  const stack = await Stack.start({
    fake: { invoices, latencyMs: OVERLOAD_SERVICE_MS },
    env: { ...env, LOG_LEVEL: options.logLevel },
    startApp: async (appEnv) => {
      const started = await startTarget("kassa", appEnv, options, compiledDir);
      child = started;
      return {
        port: started.port,
        async stop() {
          final = await started.stop();
        },
      };
    },
  });
  try {
    if (!child) throw new Error("kassa did not start");
    const running: TargetProcess = child;
    const ratePerSecond = Number(env.PAYMENTS_RATE_PER_SECOND ?? 5);
    progress(
      `overload: ${OVERLOAD_LOOKUPS} lookups at once, the service answering in ${OVERLOAD_SERVICE_MS / 1000} s`,
    );
    const started = performance.now();
    const outcomes = await Promise.all(
      invoices.map(async (invoice, index) => {
        const userId = `U0LOAD${String(index).padStart(5, "0")}`;
        try {
          const ack = await stack.command(invoice.id, { command: "/invoice", userId });
          if (ack.status !== 200) return { kind: "other" as const, detail: `HTTP ${ack.status}` };
          const reply = await stack.slack.waitForReply(ack.responseId, { timeoutMs: OVERLOAD_REPLY_MAX_MS });
          const ms = reply.at - ack.sentAt;
          if (classify("kassa", "invoice", invoice.id, reply) === null) return { kind: "card" as const, ms };
          const text = String(reply.body.text);
          if (text.includes(BUSY_TEXT)) return { kind: "busy" as const, ms };
          return { kind: "other" as const, ms, detail: text.slice(0, 120) };
        } catch (error) {
          return { kind: "missing" as const, detail: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const stats = await running.stats();
    const upstreamRequests = stack.fake.requests.filter((request) => request.path.includes("invoice")).length;
    const count = (kind: string) => outcomes.filter((outcome) => outcome.kind === kind).length;
    const times = (kind: string) =>
      distribution(
        outcomes.flatMap((outcome) => (outcome.kind === kind && "ms" in outcome ? [outcome.ms ?? 0] : [])),
      );
    const result: OverloadResult = {
      lookups: OVERLOAD_LOOKUPS,
      cards: count("card"),
      busy: count("busy"),
      other: count("other"),
      missing: count("missing"),
      otherExamples: [
        ...new Set(
          outcomes.flatMap((outcome) => ("detail" in outcome && outcome.detail ? [outcome.detail] : [])),
        ),
      ].slice(0, 3),
      upstreamRequests,
      upstreamBudget: ratePerSecond > 0 ? Math.ceil(ratePerSecond * (1 + seconds)) : Number.POSITIVE_INFINITY,
      ratePerSecond,
      seconds,
      cardReplyMs: times("card"),
      busyReplyMs: times("busy"),
      peakRssMiB: Math.max(stats.maxRssKb, final?.maxRssKb ?? 0) / 1024,
    };
    return result;
  } finally {
    await stack.stop();
  }
}

export function overloadReport(result: OverloadResult): string {
  const ms = (d: ReturnType<typeof distribution>) =>
    Number.isNaN(d.max) ? "none" : `p50 ${Math.round(d.p50)} ms, max ${Math.round(d.max)} ms`;
  return [
    `Overload: ${result.lookups} simultaneous /invoice lookups of distinct ids, the service answering in ${OVERLOAD_SERVICE_MS / 1000} s`,
    `  cards:              ${result.cards} (${ms(result.cardReplyMs)})`,
    `  "busy" replies:     ${result.busy} (${ms(result.busyReplyMs)})`,
    `  other replies:      ${result.other}${result.otherExamples.length ? `  e.g. ${result.otherExamples.join(" | ")}` : ""}`,
    `  missing replies:    ${result.missing}`,
    `  upstream requests:  ${result.upstreamRequests} (budget ${result.upstreamBudget}: ${result.ratePerSecond}/s over ${result.seconds.toFixed(1)} s plus a second's burst) ${result.upstreamRequests <= result.upstreamBudget ? "WITHIN" : "OVER"}`,
    `  peak RSS:           ${result.peakRssMiB.toFixed(1)} MiB`,
  ].join("\n");
}
