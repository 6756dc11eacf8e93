import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import type { Config } from "./config/index.js";
import type { Logger } from "./util/logger.js";

// What every command of the operators' command line (src/cli.ts) shares.

/** Wrong arguments: the usage goes with the message, exit code 2. */
export class UsageError extends Error {}

export const TEAM_ID = /^[ET][A-Z0-9]{2,20}$/;

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

export function requireTeam(team: string | undefined): string {
  if (!team) throw new UsageError("--team is required");
  if (!TEAM_ID.test(team))
    throw new UsageError(`--team must be a Slack team id such as T0123ABCD (got "${team}")`);
  return team;
}

/** What a command (`credentials …`, `audit verify`) is given: its options, the configuration, and where it writes. */
export type CommandRun = {
  values: ReturnType<typeof parse>["values"];
  config: Config;
  logger: Logger;
  stdin: Readable;
  say: (line: string) => void;
};
