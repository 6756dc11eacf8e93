import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import type { Config } from "../config/index.js";
import { MAIN_REGISTER, registerNameSchema } from "../store/registers.js";
import type { Logger } from "../util/logger.js";

// What every command of the operators' CLI reads the same way (src/cli.ts, src/cli-payouts.ts).

/** A command line Kassa cannot read: said with the usage, exit code 2. */
export class UsageError extends Error {}

export const TEAM_ID = /^[ET][A-Z0-9]{2,20}$/;

export function requireTeam(team: string | undefined): string {
  if (!team) throw new UsageError("--team is required");
  if (!TEAM_ID.test(team))
    throw new UsageError(`--team must be a Slack team id such as T0123ABCD (got "${team}")`);
  return team;
}

/** `--register`: a register's name as Slack's forms take it; main when left out. */
export function registerName(value: string | undefined): string {
  if (value === undefined) return MAIN_REGISTER;
  const parsed = registerNameSchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(
      `--register must be a register's name: ${parsed.error.issues[0]?.message ?? "not a name"} (got "${value}")`,
    );
  return parsed.data;
}

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
        head: { type: "string", multiple: true },
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
