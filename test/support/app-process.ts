import type { ChildProcess } from "node:child_process";
import { freePort } from "../../sandbox/ports.js";
import { startAppProcess } from "../../sandbox/replica-process.js";
import { Stack, type StackOptions } from "../../sandbox/stack.js";

export { REPLICA_ENTRY, startAppProcess } from "../../sandbox/replica-process.js";

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
