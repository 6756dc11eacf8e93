import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

const ROOT = new URL("..", import.meta.url).pathname;

/** A replica with its own namespace (TEST_WATCH_NAMESPACE), for a store other runs share. */
export const REPLICA_ENTRY = join(ROOT, "sandbox", "replica-entry.ts");

/**
 * `npm start`'s own entry point (src/index.ts), or `entry`, in a process of its own, so a test or
 * the bench can stop it with SIGTERM, pause it or kill it outright; resolves once it says it is
 * listening. `onLine` sees each line it logs.
 */
export async function startAppProcess(
  env: Record<string, string | undefined>,
  entry = join(ROOT, "src", "index.ts"),
  onLine?: (line: string) => void,
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
      onLine?.(line);
      if (line.includes("Kassa is listening")) resolve();
    });
  });
  return started;
}
