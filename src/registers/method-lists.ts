import type { ApiVersion, MethodCatalog, PaymentMethod } from "../payments/model.js";
import type { Cache } from "../store/cache.js";
import { Memo } from "../store/memo.js";
import {
  type CachedMethods,
  cachedMethodsSchema,
  listFrom,
  type MethodList,
} from "../store/payment-caches.js";
import { SingleFlight } from "../util/single-flight.js";

/** How long a method list read from the store is reused in memory. */
const METHODS_MEMO_MS = 5000;

/** Whose list it is: another login or API version makes a cached list someone else's. */
export type ListOwner = { login: string; apiVersion: ApiVersion };

const keyOf = (registerKey: string) => `paymethods:${registerKey}`;

/**
 * Each register's method list as WorkspacePayments keeps it: in the cache store for the TTL, a few
 * seconds in memory in front of it, read once per burst. A method edit makes the list stale: it is
 * forgotten, and a read that began before that is not cached after it (each forget starts a new
 * epoch of the register; a read caches only within the epoch it began in).
 */
export class MethodLists {
  private readonly memo = new Memo<CachedMethods>(METHODS_MEMO_MS);
  private readonly fetches = new SingleFlight<MethodList>();
  private readonly epochs = new Map<string, number>();

  constructor(
    private readonly cache: Cache,
    private readonly ttlMs: number,
  ) {}

  /** The register's cached list when it is the owner's, else undefined. */
  async cached(registerKey: string, owner: ListOwner): Promise<MethodList | undefined> {
    const entry = await this.entry(registerKey, owner);
    return entry ? listFrom(entry, true) : undefined;
  }

  /**
   * Reads the list with `read` and caches it. `shared`: joins a read of the register already under
   * way (a burst of /paymethods); not shared, it is a read of the state from now on (after an edit).
   */
  read(
    registerKey: string,
    owner: ListOwner,
    read: () => Promise<MethodCatalog>,
    shared: boolean,
  ): Promise<MethodList> {
    const work = async () => {
      const epoch = this.epoch(registerKey);
      const catalog = await read();
      const entry: CachedMethods = { ...owner, fetchedAt: Date.now(), ...catalog };
      if (this.epoch(registerKey) === epoch) await this.store(registerKey, entry, this.ttlMs);
      return listFrom(entry, false);
    };
    return shared ? this.fetches.run(registerKey, work) : work();
  }

  /**
   * One method as the service has it now, never from the cache: v2 (no call for one method) from a
   * fresh list, which is cached; v3 read `one` by one, put into the cached list. undefined: not listed.
   */
  async now(
    registerKey: string,
    owner: ListOwner,
    code: string,
    read: { list: () => Promise<MethodCatalog>; one: () => Promise<PaymentMethod | undefined> },
  ): Promise<PaymentMethod | undefined> {
    if (owner.apiVersion === "v2") {
      const list = await this.read(registerKey, owner, read.list, false);
      return list.methods.find((method) => method.code === code);
    }
    const epoch = this.epoch(registerKey);
    const method = await read.one();
    // The cache is only a shortcut: failing to update it does not fail the read.
    await this.patch(registerKey, owner, code, method, epoch).catch(() => undefined);
    return method;
  }

  /** The register's current epoch (taken before a read whose answer may be cached). */
  private epoch(registerKey: string): number {
    return this.epochs.get(registerKey) ?? 0;
  }

  /**
   * One method read afresh (`epoch` taken before the read) put into the cached list, in its place,
   * or dropped from it when the service no longer lists it. The list keeps its age; nothing is
   * cached when there is no list of the owner's, or the list was forgotten since the read began.
   */
  private async patch(
    registerKey: string,
    owner: ListOwner,
    code: string,
    method: PaymentMethod | undefined,
    epoch: number,
  ): Promise<void> {
    const entry = await this.entry(registerKey, owner);
    if (!entry || this.epoch(registerKey) !== epoch) return;
    const at = entry.methods.findIndex((listed) => listed.code === code);
    const methods = entry.methods.filter((listed) => listed.code !== code);
    if (method) methods.splice(at < 0 ? methods.length : at, 0, method);
    await this.store(registerKey, { ...entry, methods }, entry.fetchedAt + this.ttlMs - Date.now());
  }

  /** Forgets the register's list (after an edit, a disconnect, new credentials). */
  async forget(registerKey: string): Promise<void> {
    this.epochs.set(registerKey, this.epoch(registerKey) + 1);
    this.memo.delete(keyOf(registerKey));
    await this.cache.delete(keyOf(registerKey));
  }

  private async entry(registerKey: string, owner: ListOwner): Promise<CachedMethods | undefined> {
    const key = keyOf(registerKey);
    const cached = this.memo.get(key, undefined) ?? (await this.cache.get(key, cachedMethodsSchema));
    if (!cached || cached.login !== owner.login || cached.apiVersion !== owner.apiVersion) return undefined;
    this.remember(key, cached);
    return cached;
  }

  private async store(registerKey: string, entry: CachedMethods, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    await this.cache.set(keyOf(registerKey), entry, ttlMs);
    this.remember(keyOf(registerKey), entry);
  }

  /** In memory no longer than the store keeps it. */
  private remember(key: string, entry: CachedMethods): void {
    const left = entry.fetchedAt + this.ttlMs - Date.now();
    this.memo.set(key, entry, Math.min(METHODS_MEMO_MS, left));
  }
}
