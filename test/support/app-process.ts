import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "../../sandbox/ports.js";
import { Stack, type StackOptions } from "../../sandbox/stack.js";

const ROOT = new URL("../..", import.meta.url).pathname;

/** A replica with its own watch namespace (TEST_WATCH_NAMESPACE), for a store other runs share. */
export const REPLICA_ENTRY = join(ROOT, "test", "support", "replica-entry.ts");

/**
 * `npm start`'s own entry point (src/index.ts), or `entry`, in a process of its own, so a test can
 * stop it with SIGTERM or kill it outright; resolves once it says it is listening.
 */
export async function startAppProcess(
  env: Record<string, string | undefined>,
  entry = join(ROOT, "src", "index.ts"),
): Promise<ChildProcess> {
  const started = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: { ...env, PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.stderr.resume();
  await new Promise<void>((resolve, reject) => {
    started.on("exit", (code) => reject(new Error(`the server exited (${code})`)));
    createInterface({ input: started.stdout }).on("line", (line) => {
      if (line.includes("Kassa is listening")) resolve();
    });
  });
  return started;
}

/**
 * A Stack whose app runs as `npm start` runs it, in a process of its own, so a test can SIGTERM or
 * kill -9 it; `child` is that process.
 */
export async function stackInItsOwnProcess(
  env: Record<string, string>,
  options: Omit<StackOptions, "env" | "startApp"> & { entry?: string } = {},
): Promise<{ stack: Stack; child: ChildProcess }> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const { entry, ...stackOptions } = options;
  const stack = await Stack.start({
    storeMemoMs: 0,
    ...stackOptions,
    env: { PORT: String(port), ...env },
    startApp: async (appEnv) => {
      const started = await startAppProcess(appEnv, entry);
      child = started;
      return { port, stop: async () => void started.kill("SIGKILL") };
    },
  });
  if (!child) throw new Error("the app's process did not start");
  return { stack, child };
}
