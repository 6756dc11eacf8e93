import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import ts from "typescript";
import type { BenchTarget, TargetLine, TargetStats } from "../../../sandbox/bench-protocol.js";
import { type Options, ROOT } from "./options.js";

// npm run bench: the target processes.

/**
 * Transpiles src/ and sandbox/ to plain JavaScript in a temporary folder (no type check: `npm test`
 * does that), so the targets run as built code does, without the tsx loader's own memory (~35 MB).
 */
export function transpileTargets(): string {
  const out = mkdtempSync(join(tmpdir(), "kassa-bench-"));
  const compilerOptions: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2023,
    verbatimModuleSyntax: true,
  };
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        const output = ts.transpileModule(readFileSync(path, "utf8"), { compilerOptions, fileName: path });
        const target = join(out, relative(ROOT, path)).replace(/\.ts$/, ".js");
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, output.outputText);
      }
    }
  };
  walk(join(ROOT, "src"));
  walk(join(ROOT, "sandbox"));
  writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"), "dir");
  return out;
}

export type TargetProcess = {
  port: number;
  ready: TargetStats;
  /** Current figures; with `profile`, starts the CPU profiler first (--cpu-prof-dir). */
  stats(profile?: boolean): Promise<TargetStats>;
  /** Stops the target; resolves with its final figures (taken before it shut down). */
  stop(): Promise<TargetStats>;
  /** Lines the target wrote on stderr (the app's own log lines). */
  logLines(): string[];
};

export const children = new Set<ChildProcessWithoutNullStreams>();

export async function startTarget(
  target: BenchTarget,
  env: Record<string, string | undefined>,
  options: Options,
  compiledDir: string | undefined,
): Promise<TargetProcess> {
  // Exactly the Stack's environment: nothing inherited (a SLACK_APP_TOKEN in the shell must not
  // turn the app into a Socket Mode client talking to the real Slack).
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  for (const name of ["SLACK_API_URL", "PAYMENTS_API_URL"]) {
    if (!childEnv[name]?.startsWith("http://127.0.0.1:"))
      throw new Error(`${name} is not on 127.0.0.1: ${childEnv[name]}`);
  }
  const entry = compiledDir
    ? [join(compiledDir, "sandbox", "bench-target.js")]
    : ["--import", "tsx", join(ROOT, "sandbox", "bench-target.ts")];
  const profile = options.cpuProfDir
    ? [`--cpu-prof=${join(options.cpuProfDir, `${target}.cpuprofile`)}`]
    : [];
  const child = spawn(
    process.execPath,
    [...options.nodeOptions, ...entry, target, ...(options.storeStats ? ["--store-stats"] : []), ...profile],
    { cwd: ROOT, env: childEnv, stdio: ["pipe", "pipe", "pipe"] },
  );
  children.add(child);
  const exited = new Promise<number | null>((done) =>
    child.on("exit", (code) => {
      children.delete(child);
      done(code);
    }),
  );
  const logs: string[] = [];
  // BENCH_TARGET_LOG=FILE: the target's own output (its log lines, --trace-gc) appended to FILE too.
  const logFile = process.env.BENCH_TARGET_LOG;
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (logFile) appendFileSync(logFile, `${line}\n`);
    logs.push(line);
  });
  const waiting: Array<(line: TargetLine) => void> = [];
  createInterface({ input: child.stdout }).on("line", (text) => {
    let line: TargetLine;
    try {
      line = JSON.parse(text) as TargetLine;
    } catch {
      if (logFile) appendFileSync(logFile, `${text}\n`);
      logs.push(text);
      return;
    }
    for (const wake of waiting.splice(0)) wake(line);
  });
  const next = (timeoutMs: number, what: string) =>
    new Promise<TargetLine>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`${target}: no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting.push((line) => {
        clearTimeout(timer);
        done(line);
      });
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`${target} exited (code ${code}) before ${what}:\n${logs.slice(-20).join("\n")}`));
      });
    });

  let ready: TargetLine;
  try {
    ready = await next(15_000, "ready line");
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  if (ready.type !== "ready") {
    child.kill("SIGKILL");
    throw new Error(`${target} did not start: ${ready.type === "error" ? ready.message : ready.type}`);
  }
  const figures = (line: TargetLine): TargetStats => {
    if (line.type === "error" || line.type === "ready") throw new Error(`${target}: unexpected ${line.type}`);
    const { type: _type, ...stats } = line;
    return stats;
  };
  return {
    port: ready.port,
    ready: (({ type: _type, port: _port, ...stats }) => stats)(ready),
    async stats(profile = false) {
      const line = next(5000, "stats line");
      child.stdin.write(profile ? "profile\n" : "stats\n");
      return figures(await line);
    },
    async stop() {
      const line = next(10_000, "stopped line");
      child.stdin.write("stop\n");
      try {
        return figures(await line);
      } finally {
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      }
    },
    logLines: () => logs,
  };
}
