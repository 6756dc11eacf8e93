import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

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
