import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { MB_PER_MIB, type Options, ROOT, TARGETS } from "../shared/options.js";
import type { TargetResult } from "./figures.js";

// npm run bench: the report.

/** Which code was measured: the commit, and whether src/ differs from it (read-only git). */
export function codeVersion(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = git("status", "--porcelain", "--", "src").length > 0;
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " with uncommitted changes in src/" : ""}`;
  } catch {
    return "unknown (no git)";
  }
}

type Verdict = { name: string; value: number; target: string; pass: boolean };

/** The references Kassa is compared with, each with its targets. */
const REFERENCES = [
  {
    target: "minimal",
    ack: TARGETS.ackP99Ratio,
    reply: TARGETS.replyP99Ratio,
    throughput: TARGETS.throughputRatio,
  },
  {
    target: "same-io",
    ack: undefined,
    reply: TARGETS.sameIoReplyP99Ratio,
    throughput: TARGETS.sameIoThroughputRatio,
  },
] as const;

export function verdicts(kassa: TargetResult, results: TargetResult[]): Verdict[] {
  const list: Verdict[] = [];
  for (const reference of REFERENCES) {
    const other = results.find((result) => result.target === reference.target);
    if (!other) continue;
    const name = `kassa/${reference.target}`;
    const ack = kassa.ackMs.p99 / other.ackMs.p99;
    const reply = kassa.replyMs.p99 / other.replyMs.p99;
    const throughput = kassa.throughput / other.throughput;
    if (reference.ack !== undefined)
      list.push({
        name: `ack p99, ${name}`,
        value: ack,
        target: `<= ${reference.ack}x`,
        pass: ack <= reference.ack,
      });
    list.push(
      {
        name: `reply p99, ${name}`,
        value: reply,
        target: `<= ${reference.reply}x`,
        pass: reply <= reference.reply,
      },
      {
        name: `throughput, ${name}`,
        value: throughput,
        target: `>= ${reference.throughput}x`,
        pass: throughput >= reference.throughput,
      },
    );
  }
  const bad = kassa.failed + kassa.missing + kassa.notAcked;
  list.push(
    { name: "failed or missing replies", value: bad, target: "0", pass: bad === 0 },
    {
      name: "peak RSS (MB)",
      value: kassa.rssMiB.peak * MB_PER_MIB,
      target: `< ${TARGETS.rssMB}`,
      pass: kassa.rssMiB.peak * MB_PER_MIB < TARGETS.rssMB,
    },
  );
  return list;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

export function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

export function report(
  options: Options,
  results: TargetResult[],
  checks: Verdict[],
  runtime: string,
): string {
  const kassa = results.find((result) => result.target === "kassa");
  const columns = results.map((result) => result.target);
  // Kassa against each other target run (the minimal app, the same-I/O floor).
  const others = kassa ? results.filter((result) => result !== kassa) : [];
  const row = (name: string, get: (result: TargetResult) => number, digits = 1, withRatio = true) => [
    name,
    ...results.map((result) => fixed(get(result), digits)),
    ...others.map((other) => (withRatio && kassa ? `${fixed(get(kassa) / get(other), 2)}x` : "")),
  ];
  const lines = [
    `Kassa load benchmark: per round and target ${options.n} commands after ${options.warmup} warm-up, ${options.concurrency} in flight, ${options.users} users,`,
    `/invoice <one of ${options.invoiceIds} invoice ids> and /paymethods alternating; ${options.rounds} round(s), targets one after the other (${options.targets.join(", then ")}),`,
    `each in its own process (${runtime}), LOG_LEVEL=${options.logLevel}; node ${process.version}, ${cpus().length} CPUs, all on 127.0.0.1.`,
    `Code: ${codeVersion()}. Extra environment: ${Object.entries(options.env)
      .map(([name, value]) => `${name}=${value}`)
      .join(
        " ",
      )}.${options.nodeOptions.length > 0 ? ` Node options: ${options.nodeOptions.join(" ")}.` : ""}`,
    "",
    ...table([
      ["", ...columns, ...others.map((other) => `kassa/${other.target}`)],
      row("ack p50 (ms)", (r) => r.ackMs.p50),
      row("ack p99 (ms)", (r) => r.ackMs.p99),
      row("command-to-reply p50 (ms)", (r) => r.replyMs.p50),
      row("command-to-reply p99 (ms)", (r) => r.replyMs.p99),
      row("  /invoice reply p99 (ms)", (r) => r.byKind.invoice.replyP99),
      row("  /paymethods reply p99 (ms)", (r) => r.byKind.paymethods.replyP99),
      row("throughput (commands/s)", (r) => r.throughput),
      row("replies ok", (r) => r.ok, 0, false),
      row("failed / missing / not acked", (r) => r.failed + r.missing + r.notAcked, 0, false),
      row("peak RSS (MiB)", (r) => r.rssMiB.peak),
      row("  RSS when ready (MiB)", (r) => r.rssMiB.atReady),
      row("  at the end: V8 heap (MiB)", (r) => r.memoryAtEndMiB.heapTotal),
      row("  at the end: V8 heap in use (MiB)", (r) => r.memoryAtEndMiB.heapUsed),
      row("target CPU per command (ms)", (r) => r.cpuMsPerCommand, 2),
      row("target CPU (% of a core)", (r) => r.cpuPercent.target, 0, false),
      row("bench process CPU (% of a core)", (r) => r.cpuPercent.bench, 0, false),
      row("bench event-loop delay p99 (ms)", (r) => r.benchLoopDelayP99Ms, 1, false),
      row("other processes' CPU (% of a core)", (r) => r.othersCpuPercent, 0, false),
      row("payment service requests", (r) => r.paymentRequests.measured, 0, false),
      row("  during warm-up", (r) => r.paymentRequests.warmup, 0, false),
      row("app log lines (stderr)", (r) => r.appLogLines, 0, false),
    ]).map((line) => `  ${line}`),
  ];
  if (kassa) {
    const paths = Object.entries(kassa.paymentRequests.byPath)
      .map(([path, count]) => `${path} ${count}`)
      .join(", ");
    lines.push(
      "",
      `Payment service requests while measuring Kassa: ${kassa.paymentRequests.measured} (${paths || "none"}); /paymethods is`,
      "served from the per-workspace cache (PAYMETHODS_CACHE_TTL_MS, 60 s by default), as in production.",
    );
    if (kassa.store) {
      lines.push("", "Kassa store round trips per command (SQLite statements, mean time each):");
      for (const [name, entry] of Object.entries(kassa.store.perCommand))
        lines.push(
          `  ${name.padEnd(24)} ${entry.perCommand.toFixed(2)} per command, ${entry.meanMs.toFixed(2)} ms each`,
        );
    }
  }
  if (kassa && others.length > 0 && kassa.rounds > 1) {
    lines.push("", `Round by round (figures above pool all ${kassa.rounds} rounds):`);
    for (const other of others) {
      const each = (
        get: (k: TargetResult["perRound"][number], m: TargetResult["perRound"][number]) => number,
      ) =>
        kassa.perRound
          .map((k, index) => {
            const m = other.perRound[index];
            return m ? `${fixed(get(k, m), 2)}x` : "-";
          })
          .join(", ");
      const name = `kassa/${other.target}`;
      lines.push(
        `  throughput ${name}: ${each((k, m) => k.throughput / m.throughput)}`,
        `  command-to-reply p99 ${name}: ${each((k, m) => k.replyP99 / m.replyP99)}`,
        `  ack p99 ${name}: ${each((k, m) => k.ackP99 / m.ackP99)}`,
      );
    }
    lines.push(`  kassa peak RSS (MiB): ${kassa.perRound.map((k) => fixed(k.peakRssMiB)).join(", ")}`);
  }
  const noisy = results.filter((result) => result.othersCpuPercent > 10);
  if (noisy.length > 0) {
    lines.push(
      "",
      `Warning: other processes used CPU while ${noisy.map((r) => r.target).join(" and ")} ran (${noisy
        .map((r) => `${fixed(r.othersCpuPercent, 0)} %`)
        .join(", ")} of a core): the figures are skewed; run again on a quiet machine.`,
    );
  }
  for (const result of results) {
    for (const [problem, count] of Object.entries(result.problems))
      lines.push(`  ${result.target}: ${count} x ${problem}`);
  }
  lines.push(
    "",
    "Targets (from the issue; reported, not asserted):",
    ...table(
      checks.map((check) => [
        `  ${check.name}`,
        check.name.includes("kassa/")
          ? `${fixed(check.value, 2)}x`
          : fixed(check.value, check.name.includes("RSS") ? 1 : 0),
        check.target,
        check.pass ? "PASS" : "FAIL",
      ]),
    ),
  );
  if (others.length === 0) lines.push("  (ratios need another target: --targets kassa,same-io,minimal)");
  lines.push(
    "",
    "Exit code: 0 when the run completed, whatever the figures; 1 when a reply was missing or an error; 2 when the run broke.",
  );
  return lines.join("\n");
}
