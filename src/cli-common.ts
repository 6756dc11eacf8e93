import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { UsageError } from "./cli-args.js";
import type { Config } from "./config/index.js";
import type { Logger } from "./util/logger.js";

export { requireTeam, UsageError } from "./cli-args.js";

// What every command of the operators' command line (src/cli.ts) shares.

export function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        team: { type: "string" },
        register: { type: "string" },
        login: { type: "string" },
        secret: { type: "string" },
        salt: { type: "string" },
        "api-version": { type: "string" },
        enterprise: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** What a command (`credentials …`, `audit verify`) is given: its options, the configuration, and where it writes. */
export type CommandRun = {
  values: ReturnType<typeof parse>["values"];
  config: Config;
  logger: Logger;
  stdin: Readable;
  say: (line: string) => void;
};
