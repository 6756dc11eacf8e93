import type { TargetStats } from "../../../sandbox/bench-protocol.js";
import type { SampleInvoice } from "../../../sandbox/fake-payments.js";
import { Stack } from "../../../sandbox/stack.js";
import { table } from "../commands/report.js";
import { MB_PER_MIB, type Options } from "../shared/options.js";
import { percentile } from "../shared/stats.js";
import { startTarget, type TargetProcess } from "../shared/targets.js";

// npm run bench: the watch scenario.

/** After the watching window, how long the scenario waits for cards whose payment is not shown yet. */
const MAX_UPDATE_WAIT_MS = 300_000;

type WatchResult = {
  watches: number;
  workspaces: number;
  watching: number;
  missing: number;
  intervalMs: number;
  maxReadsPerSecond: number;
  seconds: number;
  rssMiB: { watchingEnd: number; peak: number };
  cpuPercentWhileWatching: number;
  reads: number;
  readsPerSecond: number;
  /** The highest number of reads of one register within one second. */
  maxRegisterReadsInASecond: number;
  changes: number;
  updated: number;
  /** The fraction of Slack's chat.update/postMessage made to fail at random, and how many did. */
  slackFailures: number;
  slackCallsFailed: number;
  /** Paid invoices whose card got no thread note, or more than one. */
  notesLost: number;
  notesRepeated: number;
  delayMs: { p50: number; p99: number; max: number };
  /** The delay past the interval in force at the payment (last read before it to the read that saw it). */
  beyondIntervalMs: { p50: number; p99: number };
};

/**
 * Live cards at scale: `watches` unpaid invoices over `workspaces` workspaces (each with its own
 * cash register), each asked for once with /invoice in a channel of its own, so each becomes a
 * watched card. Then only watching for `seconds`: the app's RSS and CPU, the reads per register
 * and second (against WATCH_MAX_RPS), and, for `changes` invoices paid in the middle, the delay
 * from the payment to the card's update.
 */
export async function runWatchScenario(
  options: Options,
  scenario: NonNullable<Options["watch"]>,
  compiledDir: string | undefined,
  progress: (text: string) => void,
): Promise<WatchResult> {
  const { loadConfig } = await import("../../../src/config/index.js");
  const { createLogger } = await import("../../../src/util/logger.js");
  const { openStores } = await import("../../../src/store/index.js");
  const { moscowTime } = await import("../../../sandbox/fake-payments.js");
  const perWorkspace = Math.ceil(scenario.watches / scenario.workspaces);
  const teamOf = (w: number) => `T0W${String(w).padStart(5, "0")}`;
  const loginOf = (w: number) => `register_${w}`;
  const idOf = (index: number) => `watch_${String(index).padStart(6, "0")}`;
  const later = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
  const invoices: SampleInvoice[] = Array.from({ length: scenario.watches }, (_, index) => ({
    id: idOf(index),
    state: "notpayed",
    type: "purchase",
    currency: "RUB",
    amount: String(100 + index),
    createdAt: later(-1),
    expiredAt: later(20),
  }));
  const accounts = Object.fromEntries(
    Array.from({ length: scenario.workspaces }, (_, w) => [loginOf(w), `secret-${w}`]),
  );
  let target: TargetProcess | undefined;
  const stack = await Stack.start({
    connect: false,
    fake: { accounts, invoices },
    env: {
      ...options.env,
      LOG_LEVEL: options.logLevel,
      WATCH_MAX_PER_WORKSPACE: options.env.WATCH_MAX_PER_WORKSPACE ?? String(Math.max(200, perWorkspace)),
    },
    startApp: async (env) => {
      // The workspaces' credentials first, straight into the store the app will open.
      const config = loadConfig(env, { requireSlack: false });
      const stores = await openStores(config, createLogger("silent"));
      for (let w = 0; w < scenario.workspaces; w += 1)
        await stores.credentials.set(teamOf(w), { login: loginOf(w), secret: `secret-${w}` });
      await stores.store.close();
      target = await startTarget("kassa", env, options, compiledDir);
      return { port: target.port, stop: async () => void (await target?.stop()) };
    },
  });
  stack.slack.keepApiCalls = false;
  try {
    const running = target as TargetProcess | undefined;
    if (!running) throw new Error("the app did not start");
    const config = loadConfig(stack.env);
    progress(`posting ${scenario.watches} cards over ${scenario.workspaces} workspaces`);
    let next = 0;
    let watching = 0;
    let missing = 0;
    const cards = new Map<string, { channel: string; ts: string }>();
    const worker = async () => {
      while (next < scenario.watches) {
        const index = next++;
        const w = index % scenario.workspaces;
        const channelId = `C0W${index}`;
        const ack = await stack.command(idOf(index), { teamId: teamOf(w), channelId, userId: `U0W${w}` });
        try {
          const reply = await stack.slack.waitForReply(ack.responseId, { timeoutMs: 30_000 });
          stack.slack.replies.splice(stack.slack.replies.indexOf(reply), 1);
          if (JSON.stringify(reply.body.blocks).includes("Live: Kassa is watching")) watching += 1;
          cards.set(idOf(index), { channel: channelId, ts: String(reply.body.ts) });
        } catch {
          missing += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    progress(`${watching} cards watched, ${missing} missing; now only watching for ${scenario.seconds} s`);
    // From here on, Slack has bad luck: updates and thread notes fail at random (--slack-failures).
    stack.slack.failRandomly(scenario.slackFailures);

    const invoiceReads = () =>
      stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/"));
    const start = Date.now();
    const before = await running.stats();
    let peakRssKb = before.rssKb;
    const sampler = setInterval(() => {
      running.stats().then(
        (stats) => {
          peakRssKb = Math.max(peakRssKb, stats.rssKb);
        },
        () => undefined,
      );
    }, 2000);
    // Pay `changes` invoices at random moments of the middle third of the window.
    const changed = new Map<string, number>();
    const shuffled = [...cards.keys()].sort(() => Math.random() - 0.5).slice(0, scenario.changes);
    const third = (scenario.seconds * 1000) / 3;
    const timers = shuffled.map((id) =>
      setTimeout(
        () => {
          stack.fake.pay(id);
          changed.set(id, Date.now());
        },
        third + Math.random() * third,
      ),
    );
    await new Promise((done) => setTimeout(done, scenario.seconds * 1000));
    clearInterval(sampler);
    for (const timer of timers) clearTimeout(timer);
    const after = await running.stats();
    const elapsedMs = Date.now() - start;

    const reads = invoiceReads().filter((request) => request.at >= start);
    const perRegisterSecond = new Map<string, number>();
    for (const request of reads) {
      const key = `${String(request.body?.auth_login)}:${Math.floor(request.at / 1000)}`;
      perRegisterSecond.set(key, (perRegisterSecond.get(key) ?? 0) + 1);
    }
    // Payments made late in the window may be seen only after it, by watches that backed off:
    // wait for those cards (up to MAX_UPDATE_WAIT_MS more), outside the CPU and RSS figures.
    // A card counts as updated once it shows the payment (a failed redraw of it is tried again).
    const updatedCard = (id: string) => {
      const card = cards.get(id);
      const message = card ? stack.slack.messages.get(`${card.channel}:${card.ts}`) : undefined;
      const changedAt = changed.get(id) ?? Number.POSITIVE_INFINITY;
      return message?.updatedAt !== undefined &&
        message.updatedAt >= changedAt &&
        message.text.includes("Paid")
        ? message.updatedAt
        : undefined;
    };
    /** Thread notes of the payment on the card: exactly one each is owed. */
    const notesOf = (id: string) => {
      const card = cards.get(id);
      return card ? stack.slack.threadOf(card.channel, card.ts).length : 0;
    };
    const settled = (id: string) => updatedCard(id) !== undefined && notesOf(id) > 0;
    const waitUntil = Date.now() + MAX_UPDATE_WAIT_MS;
    while (Date.now() < waitUntil && [...changed.keys()].some((id) => !settled(id))) {
      await new Promise((done) => setTimeout(done, 1000));
    }
    stack.slack.failRandomly(0);
    const delays: number[] = [];
    const beyond: number[] = [];
    const readsById = new Map<string, number[]>();
    for (const request of invoiceReads()) {
      const id = String(request.body?.id);
      if (changed.has(id)) readsById.set(id, [...(readsById.get(id) ?? []), request.at]);
    }
    for (const [id, changedAt] of changed) {
      const updatedAt = updatedCard(id);
      if (updatedAt === undefined) continue;
      const delay = updatedAt - changedAt;
      delays.push(delay);
      // The interval in force: from the last read before the payment to the read that saw it.
      const times = readsById.get(id) ?? [];
      const before = times.filter((at) => at < changedAt).at(-1);
      const seen = times.find((at) => at >= changedAt);
      const interval = before !== undefined && seen !== undefined ? seen - before : config.watch.intervalMs;
      beyond.push(delay - interval);
    }
    delays.sort((a, b) => a - b);
    beyond.sort((a, b) => a - b);
    const cpuUs = (stats: TargetStats) => stats.cpuUserUs + stats.cpuSystemUs;
    return {
      watches: scenario.watches,
      workspaces: scenario.workspaces,
      watching,
      missing,
      intervalMs: config.watch.intervalMs,
      maxReadsPerSecond: config.watch.maxReadsPerSecond,
      seconds: Math.round(elapsedMs / 1000),
      rssMiB: { watchingEnd: after.rssKb / 1024, peak: Math.max(peakRssKb, after.rssKb) / 1024 },
      cpuPercentWhileWatching: ((cpuUs(after) - cpuUs(before)) / 1000 / elapsedMs) * 100,
      reads: reads.length,
      readsPerSecond: reads.length / (elapsedMs / 1000),
      maxRegisterReadsInASecond: Math.max(0, ...perRegisterSecond.values()),
      changes: changed.size,
      updated: delays.length,
      slackFailures: scenario.slackFailures,
      slackCallsFailed: stack.slack.randomlyFailed,
      notesLost: [...changed.keys()].filter((id) => notesOf(id) === 0).length,
      notesRepeated: [...changed.keys()].filter((id) => notesOf(id) > 1).length,
      delayMs: {
        p50: percentile(delays, 50),
        p99: percentile(delays, 99),
        max: delays.at(-1) ?? Number.NaN,
      },
      beyondIntervalMs: { p50: percentile(beyond, 50), p99: percentile(beyond, 99) },
    };
  } finally {
    await stack.stop();
  }
}

export function watchReport(result: WatchResult): string {
  const mb = (mib: number) => `${mib.toFixed(1)} MiB (${(mib * MB_PER_MIB).toFixed(1)} MB)`;
  const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL");
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `Live cards: ${result.watches} watches over ${result.workspaces} workspaces (${result.watching} watched, ${result.missing} missing), WATCH_INTERVAL_MS=${result.intervalMs}, WATCH_MAX_RPS=${result.maxReadsPerSecond}; ${result.seconds} s of only watching.`,
    ...table([
      ["", "value", "target"],
      [
        "RSS at the end (peak)",
        `${mb(result.rssMiB.watchingEnd)} (${mb(result.rssMiB.peak)})`,
        `< 250 MB ${verdict(result.rssMiB.peak * MB_PER_MIB < 250)}`,
      ],
      ["app CPU while watching", `${result.cpuPercentWhileWatching.toFixed(1)} % of a core`, ""],
      ["invoice reads", `${result.reads} (${result.readsPerSecond.toFixed(1)}/s)`, ""],
      [
        "most reads of one register in a second",
        String(result.maxRegisterReadsInASecond),
        `≤ ${result.maxReadsPerSecond} ${verdict(result.maxRegisterReadsInASecond <= result.maxReadsPerSecond)}`,
      ],
      [
        "cards updated after a payment",
        `${result.updated} of ${result.changes}`,
        verdict(result.updated === result.changes),
      ],
      [
        `thread notes lost / repeated (Slack failing ${Math.round(result.slackFailures * 100)}% of calls: ${result.slackCallsFailed} failed)`,
        `${result.notesLost} / ${result.notesRepeated}`,
        `0 / 0 ${verdict(result.notesLost === 0 && result.notesRepeated === 0)}`,
      ],
      [
        "payment to card update p50 / p99 / max",
        `${seconds(result.delayMs.p50)} / ${seconds(result.delayMs.p99)} / ${seconds(result.delayMs.max)}`,
        "",
      ],
      [
        "  past the watch's interval then, p50 / p99",
        `${seconds(result.beyondIntervalMs.p50)} / ${seconds(result.beyondIntervalMs.p99)}`,
        `p99 < 2 s ${verdict(result.beyondIntervalMs.p99 < 2000)}`,
      ],
    ]),
  ].join("\n");
}
