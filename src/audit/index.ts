import { DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from "../store/deadline.js";
import type { KeyvStore } from "../store/keyv.js";
import { ensureSchema } from "../store/schema/index.js";
import { auditTables, DEFAULT_PREFIX, redisAuditPrefix } from "../store/schema/names.js";
import type { AuditEngine } from "./engine.js";
import { AuditTrail } from "./trail.js";

export type { AuditHead, AuditLink } from "./chain.js";
export type { AuditQuery } from "./engine.js";
export { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditInput, fingerprint } from "./entry.js";
export { type AuditLog, type AuditRecorder, recordAct } from "./recorder.js";
export { AuditContentionError, type AuditPage, AuditTrail, type ListedEntry, type Removal } from "./trail.js";
export { type PostedHead, parsePostedHead, type VerifyResult, verificationLine } from "./verify.js";

/**
 * The audit trail of the store engine behind STORE_URL, its table brought up to date, each engine
 * call bounded by `timeoutMs` (STORE_TIMEOUT_MS). `prefix` keeps a test run's tables or keys apart.
 */
export async function openAuditTrail(
  store: Pick<KeyvStore, "native">,
  options: { retentionDays: number; prefix?: string; timeoutMs?: number; now?: () => number },
): Promise<AuditTrail> {
  const engine = await openAuditEngine(store, options.prefix, options.timeoutMs);
  return new AuditTrail(engine, { retentionDays: options.retentionDays, now: options.now });
}

/** The engine alone (its table brought up to date, its calls bounded): what openAuditTrail wraps. */
export async function openAuditEngine(
  store: Pick<KeyvStore, "native">,
  prefix = DEFAULT_PREFIX,
  timeoutMs = DEFAULT_STORE_TIMEOUT_MS,
): Promise<AuditEngine> {
  return timed(await engineFor(store, prefix), timeoutMs);
}

async function engineFor(store: Pick<KeyvStore, "native">, prefix: string): Promise<AuditEngine> {
  const native = store.native;
  if (!native) throw new Error("the audit trail needs a store engine with atomic steps");
  await ensureSchema(native, prefix);
  switch (native.kind) {
    case "redis":
      return (await import("./redis.js")).redisAuditEngine(native.client, redisAuditPrefix(prefix));
    case "postgres":
      return (await import("./postgres.js")).postgresAuditEngine(native.pool, auditTables(prefix));
    case "sqlite":
      return (await import("./sqlite.js")).sqliteAuditEngine(native.db, auditTables(prefix));
  }
}

function timed(engine: AuditEngine, ms: number): AuditEngine {
  const bound =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      withStoreDeadline(call(...args), ms, `audit ${name}`);
  return {
    head: bound("head", engine.head),
    append: bound("append", engine.append),
    removeThrough: bound("removeThrough", engine.removeThrough),
    walk: bound("walk", engine.walk),
    page: bound("page", engine.page),
    prefixBefore: bound("prefixBefore", engine.prefixBefore),
    teams: bound("teams", engine.teams),
  };
}
