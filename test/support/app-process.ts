import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "../../sandbox/ports.js";
import { Stack } from "../../sandbox/stack.js";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * `npm start`'s own entry point (src/index.ts) in a process of its own, so a test can stop it with
 * SIGTERM or kill it outright; resolves once it says it is listening.
 */
export async function startAppProcess(env: Record<string, string | undefined>): Promise<ChildProcess> {
  const started = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src", "index.ts")], {
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
): Promise<{ stack: Stack; child: ChildProcess }> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stack = await Stack.start({
    env: { PORT: String(port), ...env },
    storeMemoMs: 0,
    startApp: async (appEnv) => {
      const started = await startAppProcess(appEnv);
      child = started;
      return { port, stop: async () => void started.kill("SIGKILL") };
    },
  });
  if (!child) throw new Error("the app's process did not start");
  return { stack, child };
}
