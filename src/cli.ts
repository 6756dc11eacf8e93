// First: stops an older Node with one line before anything else loads.
import "./process/supported-node.js";
import { existsSync, realpathSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { openAuditTrail, type PostedHead, parsePostedHead, verificationLine } from "./audit/index.js";
import { ConfigError, type Env, loadConfig } from "./config/index.js";
import { type CommandRun, parse, requireTeam, UsageError } from "./operators/args.js";
import { listCredentials, removeCredentials, setCredentials } from "./operators/credentials.js";
import { PAYOUTS_USAGE, runPayoutsCli } from "./operators/payouts.js";
import { openStore, sqlitePath } from "./store/keyv.js";
import { createLogger } from "./util/logger.js";

export const USAGE = `Usage: npm run cli -- <command>

  credentials set --team <TEAM_ID> [--register <NAME>] --login <LOGIN> --secret <SECRET|->
                  [--salt <SECRET2|->] [--api-version v2|v3] [--enterprise <ENTERPRISE_ID>]
      Connect a cash register to a workspace, or replace its credentials. --register names it
      (letters, digits and -, a letter first); left out, it is the workspace's first, "main".
      A workspace may connect several. "--secret -" reads the secret from standard input
      (keeps it out of the shell history and the process list). --salt is the register's
      Secret 2, which checks the payment service's callbacks (instant notifications); "--salt -"
      reads it from standard input (one of the two at a time); left out, a stored one is kept.
      --enterprise: the Enterprise Grid org the workspace belongs to, where Kassa is installed
      org-wide; uninstalling Kassa from the org then forgets this workspace too.
  credentials remove --team <TEAM_ID> [--register <NAME>]
      Forget a register's credentials (main's when --register is left out); the others stay.
  credentials list [--team <TEAM_ID>]
      Connected registers: workspace, register, login (never secrets); one workspace's with --team.
  audit verify --team <TEAM_ID> [--head SEQ:HASH ...]
      Walk a workspace's audit trail from its oldest kept entry to its head: says that it holds
      (how many entries, the first and last, the head's hash) or the first entry that does not,
      and then exits 3. Only reads. --head (repeatable): a head the audit channel posted ("Entry
      SEQ", its hash or its first 12 characters or more); the trail must still hold that entry with
      that hash, so deleting the newest entries, or rewriting one, fails the check.
${PAYOUTS_USAGE}

Reads the same environment as the server (STORE_URL, CREDENTIALS_KEY, ...).`;

export type CliIo = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable };

/** The operators' command line. Returns the exit code; never prints a secret. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const complain = (line: string) => io.stderr.write(`${line}\n`);
  if (argv[0] === "payouts") return runPayoutsCli(argv.slice(1), io, USAGE);
  try {
    const { values, positionals } = parse(argv);
    if (values.help || positionals.length === 0) {
      (values.help ? say : complain)(USAGE);
      return values.help ? 0 : 2;
    }
    const [group, action, ...rest] = positionals;
    const known = group === "credentials" || (group === "audit" && action === "verify");
    if (!known || !action || rest.length > 0)
      throw new UsageError(`unknown command: ${positionals.join(" ")}`);

    const config = loadConfig(io.env, { requireSlack: false });
    const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel, {
      write: (line: string) => io.stderr.write(line),
    });

    const run: CommandRun = { values, config, logger, stdin: io.stdin, say };
    if (group === "audit") return await verifyAudit(run);
    if (action === "set") return await setCredentials(run);
    if (action === "remove") return await removeCredentials(run);
    if (action === "list") return await listCredentials(run);
    throw new UsageError(`unknown command: credentials ${action}`);
  } catch (error) {
    if (error instanceof UsageError) {
      complain(`kassa: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    complain(`kassa: ${error instanceof ConfigError ? error.message : (error as Error).message}`);
    return 1;
  }
}

/** `audit verify`: walks a workspace's audit chain; 0 when it holds, 3 when it breaks. */
async function verifyAudit({ values, config, say }: CommandRun): Promise<number> {
  const team = requireTeam(values.team);
  // Only reads: a SQLite file that is not there is not created for it.
  if (config.store.url.startsWith("sqlite://") && !existsSync(sqlitePath(config.store.url)))
    throw new Error(`no store at ${sqlitePath(config.store.url)}: nothing to verify`);
  const store = await openStore(config.store.url, { timeoutMs: config.store.timeoutMs });
  try {
    const trail = await openAuditTrail(store, {
      retentionDays: config.audit.retentionDays,
      timeoutMs: config.store.timeoutMs,
    });
    const result = await trail.verify(team, postedHeads(values.head));
    say(verificationLine(team, result));
    return result.ok ? 0 : 3;
  } finally {
    await store.close();
  }
}

/** The `--head SEQ:HASH` options, each checked. */
function postedHeads(values: string[] | undefined): PostedHead[] {
  return (values ?? []).map((value) => {
    const head = parsePostedHead(value);
    if (!head)
      throw new UsageError(`--head must be SEQ:HASH, as the audit channel shows them (got "${value}")`);
    return head;
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  runCli(process.argv.slice(2), {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    process.exitCode = code;
  });
}
