// First: stops an older Node with one line before anything else loads.
import "./process/supported-node.js";
import { existsSync, realpathSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openAuditTrail, verificationLine } from "./audit/index.js";
import { type Config, ConfigError, type Env, loadConfig } from "./config/index.js";
import { openStores } from "./store/index.js";
import { openStore, sqlitePath } from "./store/keyv.js";
import { MAIN_REGISTER, registerKey, registerNameSchema, registerOfKey } from "./store/registers.js";
import { createLogger, type Logger } from "./util/logger.js";

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
  audit verify --team <TEAM_ID>
      Walk a workspace's audit trail from its oldest kept entry to its head: says that it holds
      (how many entries, the first and last, the head's hash) or the first entry that does not,
      and then exits 3. Only reads.

Reads the same environment as the server (STORE_URL, CREDENTIALS_KEY, ...).`;

export type CliIo = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable };

class UsageError extends Error {}

const TEAM_ID = /^[ET][A-Z0-9]{2,20}$/;
const ENTERPRISE_ID = /^E[A-Z0-9]{2,20}$/;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

function parse(argv: string[]) {
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

function requireTeam(team: string | undefined): string {
  if (!team) throw new UsageError("--team is required");
  if (!TEAM_ID.test(team))
    throw new UsageError(`--team must be a Slack team id such as T0123ABCD (got "${team}")`);
  return team;
}

/** `--register`: a register's name as Slack's forms take it; main when left out. */
function registerName(value: string | undefined): string {
  if (value === undefined) return MAIN_REGISTER;
  const parsed = registerNameSchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(
      `--register must be a register's name: ${parsed.error.issues[0]?.message ?? "not a name"} (got "${value}")`,
    );
  return parsed.data;
}

/** The operators' command line. Returns the exit code; never prints a secret. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const complain = (line: string) => io.stderr.write(`${line}\n`);
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

/** What a command (`credentials …`, `audit verify`) is given: its options, the configuration, and where it writes. */
type CommandRun = {
  values: ReturnType<typeof parse>["values"];
  config: Config;
  logger: Logger;
  stdin: Readable;
  say: (line: string) => void;
};

/** `credentials set`: stores a workspace's register credentials, encrypted. */
async function setCredentials({ values, config, logger, stdin, say }: CommandRun): Promise<number> {
  const team = requireTeam(values.team);
  const register = registerName(values.register);
  const login = values.login?.trim();
  if (!login) throw new UsageError("--login is required");
  if (values.secret === undefined)
    throw new UsageError("--secret is required (use --secret - to read it from stdin)");
  if (values.secret === "-" && values.salt === "-")
    throw new UsageError(
      "--secret - and --salt - cannot both read standard input: give one of them on the command line, or set the salt in a second run",
    );
  const fromStdin = async () => (await readAll(stdin)).replace(/\r?\n$/, "");
  const secret = values.secret === "-" ? await fromStdin() : values.secret;
  if (secret.trim() === "") throw new UsageError("the secret is empty");
  const salt = values.salt === "-" ? await fromStdin() : values.salt;
  if (salt !== undefined && salt.trim() === "") throw new UsageError("the salt (Secret 2) is empty");
  const version = values["api-version"];
  if (version !== undefined && version !== "v2" && version !== "v3")
    throw new UsageError("--api-version must be v2 or v3");
  const enterprise = values.enterprise;
  if (enterprise !== undefined && (!ENTERPRISE_ID.test(enterprise) || enterprise === team))
    throw new UsageError(
      `--enterprise must be the Enterprise Grid org's id such as E0123ABCD, not the workspace's (got "${enterprise}")`,
    );
  const { store, credentials, installations, registers } = await openStores(config, logger);
  try {
    await credentials.set(registerKey(team, register), {
      login,
      secret,
      salt,
      apiVersion: version,
      connectedBy: "cli",
    });
    if (register !== MAIN_REGISTER) await registers.addOther(team, register, "cli");
    // Written down as a request from the workspace would: the org's uninstall finds it here.
    if (enterprise) await installations.noteOrgWorkspace(team, enterprise);
  } finally {
    await store.close();
  }
  const which = register === MAIN_REGISTER ? "" : ` (register ${register})`;
  say(
    `Connected ${team}${which}${enterprise ? ` (of org ${enterprise})` : ""} to cash register "${login}"${version ? ` (API ${version})` : ""}. The secret${salt ? " and Secret 2 are" : " is"} stored encrypted.`,
  );
  return 0;
}

/** `credentials remove`: forgets a workspace's credentials and its payment notification addresses. */
async function removeCredentials({ values, config, logger, say }: CommandRun): Promise<number> {
  const team = requireTeam(values.team);
  const register = registerName(values.register);
  const key = registerKey(team, register);
  const { store, credentials, callbackKeys, registers } = await openStores(config, logger);
  try {
    const removed = await credentials.remove(key);
    // As Disconnect in Slack: the payment notification addresses go with the credentials.
    await callbackKeys.remove(key);
    if (register !== MAIN_REGISTER) await registers.removeOther(team, register);
    const named = register === MAIN_REGISTER ? team : `${team}'s register ${register}`;
    say(removed ? `Removed the credentials of ${named}.` : `${named} had no credentials; nothing to remove.`);
  } finally {
    await store.close();
  }
  return 0;
}

/** `credentials list`: connected registers and their logins, never secrets. */
async function listCredentials({ values, config, logger, say }: CommandRun): Promise<number> {
  const only = values.team === undefined ? undefined : requireTeam(values.team);
  const nothing = only ? `${only} has no register connected.` : "No workspace is connected.";
  // Listing only reads: a SQLite file (or key file) that is not there is not created for it.
  if (config.store.url.startsWith("sqlite://")) {
    const path = sqlitePath(config.store.url);
    if (!existsSync(path)) {
      say(
        `No store at ${path}, so ${only ? `${only} has no register connected` : "no workspace is connected"}.`,
      );
      return 0;
    }
  }
  const { store, credentials, installations } = await openStores(config, logger);
  try {
    const entries = (await credentials.list()).filter(
      (entry) => !only || registerOfKey(entry.teamId).team === only,
    );
    if (entries.length === 0) say(nothing);
    let otherKey = 0;
    for (const entry of entries) {
      const { team, name } = registerOfKey(entry.teamId);
      if ("problem" in entry) {
        say(`${team}\t${name}\t(unreadable: ${entry.problem})`);
        continue;
      }
      if (entry.otherKey) otherKey += 1;
      const org = await installations.orgOf(team);
      say(
        `${team}${org ? ` (org ${org})` : ""}\t${name}\t${entry.login}\t${entry.apiVersion ?? "default API"}\tconnected ${entry.connectedAt} by ${entry.connectedBy ?? "unknown"}${entry.hasSalt ? "\twith Secret 2 (callbacks)" : ""}${entry.otherKey ? `\tSEALED WITH ANOTHER KEY (${entry.otherKey}): unusable` : ""}`,
      );
    }
    if (otherKey > 0)
      say(
        `${otherKey} register${otherKey === 1 ? "'s" : "s'"} credentials were sealed with another CREDENTIALS_KEY than this one (${credentials.keyId}): set the key they were sealed with, or reconnect ${otherKey === 1 ? "it" : "them"} (/invoice connect or credentials set).`,
      );
  } finally {
    await store.close();
  }
  return 0;
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
    const result = await trail.verify(team);
    say(verificationLine(team, result));
    return result.ok ? 0 : 3;
  } finally {
    await store.close();
  }
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
