import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { Cache } from "./cache.js";
import { CredentialsStore } from "./credentials.js";
import { SecretBox } from "./crypto.js";
import { resolveCredentialsKey } from "./key-file.js";
import { type KeyvStore, openStore } from "./keyv.js";

export type Stores = { store: KeyvStore; credentials: CredentialsStore; cache: Cache };

/** Opens STORE_URL and the credentials in it, with the key from CREDENTIALS_KEY or the key file. */
export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  const store = await openStore(config.store.url);
  try {
    const key = resolveCredentialsKey(config.store.credentialsKey, store.location);
    if (key.source === "file-created") {
      logger.warn(
        { keyFile: key.path },
        "CREDENTIALS_KEY is not set: created a key file beside the database. Back it up apart from the database, or set CREDENTIALS_KEY.",
      );
    } else if (key.source === "file-existing") {
      logger.info({ keyFile: key.path }, "credentials key read from the key file beside the database");
    }
    return {
      store,
      credentials: new CredentialsStore(store.namespace("credentials"), new SecretBox(key.key)),
      cache: new Cache(store.namespace("cache")),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
