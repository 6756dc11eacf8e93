// First: stops an older Node with one line before anything else loads.
import "./process/supported-node.js";
import { ConfigError } from "./config/index.js";
import { installCrashGuards } from "./process/crash-guard.js";
import { StartupError, startServer } from "./server.js";
import { StoreUnavailableError } from "./store/keyv.js";

/** `npm start`: the server, with one clear line and exit code 1 when it cannot start. */
async function main(): Promise<void> {
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(process.env);
  } catch (error) {
    const known =
      error instanceof ConfigError || error instanceof StartupError || error instanceof StoreUnavailableError;
    process.stderr.write(`kassa: ${known ? error.message : `cannot start: ${(error as Error).message}`}\n`);
    process.exit(1);
  }
  installCrashGuards(server.logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, "stopping: no new requests; finishing replies under way");
    server.stop().then(
      () => {
        server.logger.info({ signal }, "stopped");
        process.exit(0);
      },
      (error: unknown) => {
        server.logger.error({ err: error }, "error while stopping");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

void main();
