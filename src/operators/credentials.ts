import { existsSync } from "node:fs";
import type { Readable } from "node:stream";
import { openStores } from "../store/index.js";
import { sqlitePath } from "../store/keyv.js";
import { MAIN_REGISTER, registerKey, registerOfKey } from "../store/registers.js";
import { type CommandRun, registerName, requireTeam, UsageError } from "./args.js";

// `credentials set | remove | list`: a workspace's cash registers, for operators.

const ENTERPRISE_ID = /^E[A-Z0-9]{2,20}$/;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

/** `credentials set`: stores a workspace's register credentials, encrypted. */
export async function setCredentials({ values, config, logger, stdin, say }: CommandRun): Promise<number> {
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
export async function removeCredentials({ values, config, logger, say }: CommandRun): Promise<number> {
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
export async function listCredentials({ values, config, logger, say }: CommandRun): Promise<number> {
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
