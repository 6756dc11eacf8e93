import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import type { Config } from "../config/index.js";
import type { KeptHistory } from "../history/kept.js";
import { DEFAULT_LANG } from "../i18n/lang.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import type { Stores } from "../store/index.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import { type Clock, systemClock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { MethodWatchRunner } from "./runner.js";
import { MethodWatches } from "./state.js";
import { UsualFigures } from "./usual.js";

export { MethodWatchRunner } from "./runner.js";
export { MethodWatches } from "./state.js";

/** The methods watches as commands and buttons use them, on the store's claim board. */
export function methodWatchesFor(
  store: Pick<KeyvStore, "native">,
  timeoutMs: number,
  prefix: string = DEFAULT_PREFIX,
): MethodWatches {
  return new MethodWatches(() => openClaimBoard(store, prefix, timeoutMs));
}

/** A register's claim while one replica checks it: its first check reads 28 days of history. */
const LEASE_MS = 300_000;
const BATCH = 20;
/** History pages a check may read: 28 days of a busy register (100 invoices a page). */
const MAX_PAGES = 2000;

/** The payment methods watch on the store's claim board; start() it. */
export async function openMethodWatch(
  config: Config,
  stores: Pick<Stores, "store" | "settings" | "registers">,
  payments: Pick<WorkspacePayments, "methods">,
  history: Pick<KeptHistory, "read">,
  slack: (team: string) => Promise<webApi.WebClient | undefined>,
  audit: AuditRecorder,
  logger: Logger,
  /** `prefix`: where the board lives in a shared store (tests give each run its own, as for the payouts). */
  options: { clock?: Clock | undefined; prefix?: string | undefined } = {},
): Promise<MethodWatchRunner> {
  const board = await openClaimBoard(stores.store, options.prefix ?? DEFAULT_PREFIX, config.store.timeoutMs);
  return new MethodWatchRunner({
    board,
    payments,
    history,
    slack,
    languageOf: async (team) => (await stores.settings.get(team)).language ?? DEFAULT_LANG,
    labelOf: async (key) => (await stores.registers.shown(key)).label,
    audit,
    logger,
    clock: options.clock ?? systemClock,
    zone: config.payments.timeZone,
    checkMs: config.methodWatch.checkMs,
    calmMs: config.methodWatch.calmMs,
    leaseMs: LEASE_MS,
    batch: BATCH,
    maxPages: MAX_PAGES,
    usual: new UsualFigures(),
  });
}
