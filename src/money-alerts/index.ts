import type { AuditRecorder } from "../audit/index.js";
import type { Config } from "../config/index.js";
import { DEFAULT_LANG } from "../i18n/lang.js";
import { payoutPoliciesFor } from "../payouts/policy-store.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { MoneyAlertDeps } from "./deps.js";
import { MoneyAlertRunner } from "./runner.js";

export { type BalanceAlert, BalanceAlerts, balanceAlertsFor } from "./alerts.js";
export { MoneyAlertRunner } from "./runner.js";

/** A register's claim while one replica checks it: longer than a few slow reads and posts. */
const LEASE_MS = 120_000;
const BATCH = 20;

/** The money alerts (balance alerts, payouts made outside Kassa) on the store's claim board; start() it. */
export async function openMoneyAlerts(
  config: Config,
  stores: Pick<Stores, "store" | "credentials" | "settings">,
  payments: Pick<WorkspacePayments, "balanceSheet" | "payoffHistory">,
  slack: MoneyAlertDeps["slack"],
  audit: AuditRecorder,
  logger: Logger,
  options: { clock?: Clock | undefined } = {},
): Promise<MoneyAlertRunner> {
  const board = await openClaimBoard(stores.store, DEFAULT_PREFIX, config.store.timeoutMs);
  const deps: MoneyAlertDeps = {
    board,
    payments,
    policies: payoutPoliciesFor(stores.store, config.store.timeoutMs),
    registers: async () =>
      (await stores.credentials.list()).flatMap((row) => ("login" in row && row.hasSalt ? [row.teamId] : [])),
    slack,
    languageOf: async (team) => (await stores.settings.get(team)).language ?? DEFAULT_LANG,
    auditChannelOf: async (team) => (await stores.settings.get(team)).auditChannel,
    audit,
    logger,
    balanceCheckMs: config.moneyAlerts.balanceCheckMs,
    payoutCheckMs: config.moneyAlerts.payoutCheckMs,
    leaseMs: LEASE_MS,
    batch: BATCH,
  };
  return new MoneyAlertRunner(deps, options.clock);
}
