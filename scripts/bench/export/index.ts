/**
 * `npm run bench -- --export`: a month of 50,000 invoices exported at the default budget
 * (PAYMENTS_RATE_PER_SECOND 5). Kassa runs built, in a child process (its RSS apart from the fake
 * service's), against the sandbox; the fake register holds the month's invoices. Reported: the
 * export's time against the budget's own limit (pages a second used of those allowed), the time of
 * a second export and of the month's report (from the kept history), peak RSS growth of Kassa
 * (target: under 50 MB), the reply times of /invoice commands sent during the export (they go
 * ahead of it), and chart render p50/p99 (target: 300 ms), rendered here N times.
 *
 * Flags (defaults): --invoices 50000 --renders 200 --warmup 1000 (commands before the baseline) --command-every-ms 2000 --tsx (run Kassa under tsx)
 * --node-option=--FLAG (a Node.js option for Kassa's process, after the Docker image's NODE_OPTIONS).
 */
import { parseArgs } from "node:util";
import type { TargetStats } from "../../../sandbox/bench-protocol.js";
import { type SampleInvoice, sampleInvoices } from "../../../sandbox/fake-payments.js";
import { sampleHistory } from "../../../sandbox/payments-history.js";
import { Stack } from "../../../sandbox/stack.js";
import { paidChartSvg } from "../../../src/charts/paid-chart.js";
import { renderPng } from "../../../src/charts/render.js";
import { drive } from "../shared/load.js";
import { readOptions } from "../shared/options.js";
import { percentile } from "../shared/stats.js";
import { startTarget, type TargetProcess, transpileTargets } from "../shared/targets.js";

const ADMIN = "U0ADMIN";

/** The month before this one, and its last moment (Moscow). */
function lastMonth(): { month: string; end: Date; days: number } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(first.getTime() - 3 * 3_600_000 - 60_000);
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  return {
    month: start.toISOString().slice(0, 7),
    end,
    days: Math.round((first.getTime() - start.getTime()) / 86_400_000),
  };
}

/** What grew between two snapshots, MB: RSS, each V8 heap space that changed, and external memory. */
function spacesGrown(before: TargetStats, after: TargetStats): string {
  const mb = (kb: number) => `${kb >= 0 ? "+" : ""}${(kb / 1024).toFixed(1)}`;
  const spaces = Object.entries(after.heapSpacesKb)
    .map(([name, kb]) => [name, kb - (before.heapSpacesKb[name] ?? 0)] as const)
    .filter(([, kb]) => Math.abs(kb) >= 512)
    .map(([name, kb]) => `${name} ${mb(kb)}`);
  const heap = after.heapTotalKb - before.heapTotalKb;
  const outside = after.rssKb - before.rssKb - heap;
  return `rss ${mb(after.rssKb - before.rssKb)} MB = V8 heap ${mb(heap)} (${spaces.join(", ") || "no space changed"}) and outside it ${mb(outside)} (external ${mb(after.externalKb - before.externalKb)})`;
}

export async function runExportBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      invoices: { type: "string", default: "50000" },
      renders: { type: "string", default: "200" },
      warmup: { type: "string", default: "1000" },
      "command-every-ms": { type: "string", default: "2000" },
      tsx: { type: "boolean", default: false },
      "node-option": { type: "string", multiple: true, default: [] },
    },
  });
  const count = Number(values.invoices);
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);
  const { month, end, days } = lastMonth();
  // The month's invoices, spread over its days as a real register's are (fewer at weekends).
  const generated = sampleHistory({
    now: end,
    days: days - 1,
    perDay: Math.ceil((count / days) * 1.25),
    seed: 50,
  });
  const monthInvoices: SampleInvoice[] = generated
    .filter((invoice) => invoice.createdAt.startsWith(month))
    .slice(-count);
  progress(`${monthInvoices.length} invoices in ${month}`);
  const nodeOptions = (values["node-option"] as string[] | undefined) ?? [];
  const options = readOptions([
    "--log-level",
    "warn",
    ...(values.tsx ? ["--tsx"] : []),
    ...nodeOptions.map((option) => `--node-option=${option}`),
  ]);
  const compiledDir = values.tsx ? undefined : transpileTargets();
  let target: TargetProcess | undefined;
  const stack = await Stack.start({
    fake: { invoices: [...sampleInvoices(), ...monthInvoices] },
    // The default budget (PAYMENTS_RATE_PER_SECOND 5): what is measured is the export against it.
    env: { LOG_LEVEL: "warn", RATE_LIMIT_USER_PER_MIN: "0", RATE_LIMIT_TEAM_PER_MIN: "0" },
    startApp: async (env) => {
      target = await startTarget("kassa", env, options, compiledDir);
      return { port: target.port, stop: async () => void (await target?.stop()) };
    },
  });
  stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
  stack.slack.keepApiCalls = false;
  try {
    const running = target as TargetProcess | undefined;
    if (!running) throw new Error("the app did not start");
    // A fresh process (one command answered), then one that has served commands for a while: V8's
    // young generation grows to the size the image sets (2 x 32 MiB) under any steady work, commands
    // included, so the export's own growth is measured from there, as the load bench measures after
    // its warm-up; the growth from the fresh process is printed too.
    await stack.ask(sampleInvoices()[0]?.id ?? "x", { userId: ADMIN });
    const fresh = await running.stats();
    const warmup = Number(values.warmup);
    if (warmup > 0) {
      progress(`warming Kassa up with ${warmup} commands`);
      const warmed = await drive(
        stack,
        "kassa",
        { ...options, concurrency: 20, users: 50, replyTimeoutMs: 30_000 },
        0,
        warmup,
        Date.now() + 10 * 60_000,
        sampleInvoices().map((invoice) => invoice.id),
      );
      const failed = warmed.filter((sample) => sample.outcome !== "ok").length;
      if (failed > 0) throw new Error(`${failed} of ${warmup} warm-up commands were not answered`);
      // The warm-up's replies are not the export's: the stand-in forgets them.
      stack.slack.replies.length = 0;
    }
    const baseline = await running.stats();
    progress(`warm: ${spacesGrown(fresh, baseline)}`);
    let peakRssKb = baseline.rssKb;
    let atPeak = baseline;
    const sampler = setInterval(() => {
      void running.stats().then(
        (stats) => {
          if (stats.rssKb > peakRssKb) atPeak = stats;
          peakRssKb = Math.max(peakRssKb, stats.rssKb);
        },
        () => {},
      );
    }, 500);
    const historyPages = () =>
      stack.fake.requests.filter((request) => request.path.includes("history")).length;
    const exportOnce = async () => {
      const pagesBefore = historyPages();
      const callsBefore = stack.fake.requests.length;
      const started = performance.now();
      const shared = stack.slack.files.shared().length;
      await stack.ask(`export ${month}`, { userId: ADMIN });
      const files = await stack.slack.files.waitFor(shared + 1, 15 * 60_000);
      const file = files.at(-1);
      return {
        seconds: (performance.now() - started) / 1000,
        pages: historyPages() - pagesBefore,
        // Every call to the service in the meantime: the commands' reads share the budget.
        calls: stack.fake.requests.length - callsBefore,
        bytes: file?.bytes?.length ?? 0,
        comment: file?.initialComment ?? "",
      };
    };
    // Commands sent while the export reads: they go ahead of it in the register's budget.
    const commandMs: number[] = [];
    let exporting = true;
    const commands = (async () => {
      while (exporting) {
        const asked = performance.now();
        await stack.ask(sampleInvoices()[1]?.id ?? "x", { userId: ADMIN });
        commandMs.push(performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, Number(values["command-every-ms"])));
      }
    })();
    progress(`exporting ${month} (reading the history at 5 pages a second)`);
    const first = await exportOnce();
    exporting = false;
    await commands;
    const afterExport = await running.stats();
    progress(
      `after the export: rss ${(afterExport.rssKb / 1024).toFixed(0)} MB, heap used ${(afterExport.heapUsedKb / 1024).toFixed(0)} of ${(afterExport.heapTotalKb / 1024).toFixed(0)} MB, external ${(afterExport.externalKb / 1024).toFixed(0)} MB (baseline rss ${(baseline.rssKb / 1024).toFixed(0)}, heap ${(baseline.heapTotalKb / 1024).toFixed(0)}, external ${(baseline.externalKb / 1024).toFixed(0)})`,
    );
    if (afterExport.rssKb > peakRssKb) atPeak = afterExport;
    peakRssKb = Math.max(peakRssKb, afterExport.rssKb);
    const exportPeakKb = peakRssKb;
    progress(`at the peak, against the baseline: ${spacesGrown(baseline, atPeak)}`);
    progress(`first export: ${first.seconds.toFixed(1)} s, ${first.pages} pages`);
    const second = await exportOnce();
    const reportStarted = performance.now();
    const ack = await stack.command(`summary ${month}`, { userId: ADMIN });
    await stack.slack.waitForReply(ack.responseId, { timeoutMs: 15 * 60_000 });
    const reportSeconds = (performance.now() - reportStarted) / 1000;
    clearInterval(sampler);
    const final = await running.stats();
    peakRssKb = Math.max(peakRssKb, final.rssKb);

    progress(`rendering the month's chart ${values.renders} times`);
    const labels = Array.from({ length: 31 }, (_, day) => String(day + 1).padStart(2, "0"));
    const series = labels.map((_, day) => String(150_000 + ((day * 7919) % 60_000)));
    const renderMs: number[] = [];
    for (let index = 0; index < Number(values.renders); index += 1) {
      const startedRender = performance.now();
      await renderPng(
        paidChartSvg({
          subtitle: `Invoices in ${month}`,
          unit: "day",
          currency: "RUB",
          labels,
          current: series,
          previous: series,
          lang: "ru",
        }),
      );
      renderMs.push(performance.now() - startedRender);
    }
    const limitSeconds = first.pages / 5;
    commandMs.sort((a, b) => a - b);
    renderMs.sort((a, b) => a - b);
    const lines = [
      `export of ${month}: ${monthInvoices.length} invoices, ${first.pages} history pages`,
      `  first export:  ${first.seconds.toFixed(1)} s (the budget's own limit for ${first.pages} pages at 5 a second: ${limitSeconds.toFixed(1)} s; used ${(first.pages / first.seconds).toFixed(2)} pages a second of 5; with the commands' reads, ${first.calls} calls: ${(first.calls / first.seconds).toFixed(2)} a second of 5)`,
      `  file:          ${(first.bytes / 1e6).toFixed(2)} MB CSV; "${first.comment}"`,
      `  second export: ${second.seconds.toFixed(1)} s, ${second.pages} pages (from the kept history)`,
      `  the month's report after it: ${reportSeconds.toFixed(1)} s`,
      `  Kassa's RSS:   ${(fresh.rssKb / 1024).toFixed(0)} MB fresh (one command), ${(baseline.rssKb / 1024).toFixed(0)} MB after ${warmup} commands; peak during the export ${(exportPeakKb / 1024).toFixed(0)} MB: growth ${((exportPeakKb - baseline.rssKb) / 1024).toFixed(1)} MB over the warm process (target under 50 MB), ${((exportPeakKb - fresh.rssKb) / 1024).toFixed(1)} MB over the fresh one; peak with the report and its chart after it ${(peakRssKb / 1024).toFixed(0)} MB`,
      `  /invoice commands during the export: ${commandMs.length}, reply p50 ${percentile(commandMs, 50).toFixed(0)} ms, p99 ${percentile(commandMs, 99).toFixed(0)} ms, max ${Math.max(...commandMs).toFixed(0)} ms`,
      `chart render (1200 x 600 PNG, 31 days, Russian), ${renderMs.length} runs: p50 ${percentile(renderMs, 50).toFixed(1)} ms, p99 ${percentile(renderMs, 99).toFixed(1)} ms (target 300 ms)`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  } finally {
    await stack.stop();
  }
}
