import type { Config } from "../config/index.js";
import type { Logger } from "../util/logger.js";
import { Cache } from "./cache.js";
import { type CallbackKeys, callbackKeysFor } from "./callback-keys.js";
import { CardOwnersStore } from "./card-owners.js";
import { CredentialsStore } from "./credentials.js";
import { SecretBox } from "./crypto.js";
import { KeyvInstallationStore } from "./installations.js";
import { type ResolvedKey, resolveCredentialsKey } from "./key-file.js";
import { type KeyvStore, openStore, type StoreKind } from "./keyv.js";
import { type RegisterDirectory, registerDirectoryFor, registerKey } from "./registers.js";
import { type SettingsStore, settingsStoreFor } from "./settings.js";

export type Stores = {
  store: KeyvStore;
  credentials: CredentialsStore;
  cache: Cache;
  installations: KeyvInstallationStore;
  settings: SettingsStore;
  /** The random keys of the workspaces' callback addresses. */
  callbackKeys: CallbackKeys;
  /** Who asked for each live card and who created each invoice (who may stop a card's updates). */
  cardOwners: CardOwnersStore;
  /** A workspace's registers besides main, and which register each channel uses. */
  registers: RegisterDirectory;
};

function keyFromEnvironment(configured: Buffer | undefined, kind: StoreKind): ResolvedKey {
  if (!configured) {
    throw new Error(
      `CREDENTIALS_KEY is required with a ${kind} store (the key file fallback is for SQLite only)`,
    );
  }
  return { key: configured, source: "env" };
}

/**
 * Opens STORE_URL and the credentials in it, with the key from CREDENTIALS_KEY or, for SQLite only,
 * the key file.
 */
export async function openStores(
  config: Config,
  logger: Logger,
  /** memoMs: how long the server reuses credentials and settings in memory (the CLI: never). */
  options: { memoMs?: number } = {},
): Promise<Stores> {
  const store = await openStore(config.store.url, { timeoutMs: config.store.timeoutMs });
  try {
    // The key file sits beside an SQLite database; a Redis or PostgreSQL store has no "beside",
    // and every replica must seal and open with the same key, so it comes from the environment.
    const key: ResolvedKey =
      store.kind === "sqlite"
        ? resolveCredentialsKey(config.store.credentialsKey, store.location)
        : keyFromEnvironment(config.store.credentialsKey, store.kind);
    if (key.source === "file-created") {
      logger.warn(
        { keyFile: key.path },
        "CREDENTIALS_KEY is not set: created a key file beside the database. Back it up apart from the database, or set CREDENTIALS_KEY.",
      );
    } else if (key.source === "file-existing") {
      logger.info({ keyFile: key.path }, "credentials key read from the key file beside the database");
    }
    const box = new SecretBox(key.key);
    return {
      store,
      credentials: new CredentialsStore(store.namespace("credentials"), box, options.memoMs),
      cache: new Cache(store.namespace("cache")),
      installations: new KeyvInstallationStore(
        store.namespace("installations"),
        box,
        store.namespace("orgworkspaces"),
      ),
      settings: settingsStoreFor(store, { timeoutMs: config.store.timeoutMs, memoMs: options.memoMs }),
      callbackKeys: callbackKeysFor(store, config.store.timeoutMs),
      cardOwners: new CardOwnersStore(store.namespace("cardowners")),
      registers: registerDirectoryFor(store, config.store.timeoutMs, { memoMs: options.memoMs ?? 0 }),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

type ForgetStores = Pick<Stores, "credentials" | "installations" | "settings"> &
  Partial<Pick<Stores, "callbackKeys" | "cardOwners" | "registers">>;

/**
 * Everything Kassa keeps about a workspace: on app_uninstalled / tokens_revoked nothing may stay
 * behind (Bolt deletes nothing by itself). An org-wide install's uninstall forgets every workspace
 * of the org Kassa has seen, each with its own cash register. Resolves to the workspaces forgotten.
 */
export async function forgetWorkspace(
  stores: ForgetStores,
  forgetCached: (teamId: string) => Promise<void>,
  query: { teamId?: string | undefined; enterpriseId?: string | undefined; isEnterpriseInstall: boolean },
): Promise<string[]> {
  await stores.installations.deleteInstallation({
    teamId: query.teamId,
    enterpriseId: query.enterpriseId,
    isEnterpriseInstall: query.isEnterpriseInstall,
  });
  const teams = new Set(query.teamId && query.teamId !== query.enterpriseId ? [query.teamId] : []);
  if (query.isEnterpriseInstall && query.enterpriseId)
    for (const teamId of await stores.installations.workspacesOf(query.enterpriseId)) teams.add(teamId);
  for (const teamId of teams) await forgetOrgWorkspace(stores, forgetCached, teamId);
  return [...teams];
}

/** One workspace's data (not its org's installation): an org-wide app removed from one workspace. */
export async function forgetOrgWorkspace(
  stores: ForgetStores,
  forgetCached: (teamId: string) => Promise<void>,
  teamId: string,
): Promise<void> {
  // Every register's credentials, address and caches go, main's (keyed by the team) among them.
  const others = (await stores.registers?.others(teamId)) ?? [];
  await Promise.all(
    others.map(async (name) => {
      const key = registerKey(teamId, name);
      await Promise.all([
        stores.credentials.remove(key),
        stores.callbackKeys?.remove(key),
        forgetCached(key),
      ]);
    }),
  );
  await stores.registers?.removeTeam(teamId);
  await Promise.all([
    stores.credentials.remove(teamId),
    stores.settings.remove(teamId),
    stores.callbackKeys?.remove(teamId),
    stores.cardOwners?.removeTeam(teamId),
    forgetCached(teamId),
  ]);
  await stores.installations.forgetOrgWorkspace(teamId);
}
