import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import type { Lang } from "../i18n/lang.js";
import type { BalanceSheet } from "../payments/model.js";
import type { PayoffHistoryPage } from "../payments/payoff-model.js";
import type { PayoutPolicies } from "../payouts/policy-store.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { Logger } from "../util/logger.js";

/** What the money alerts need: the board, the service, Slack, the audit trail and their timing. */
export type MoneyAlertDeps = {
  board: ClaimBoard;
  payments: {
    balanceSheet(registerKey: string): Promise<Pick<BalanceSheet, "balances">>;
    payoffHistory(registerKey: string, page: number, items: number): Promise<PayoffHistoryPage>;
  };
  policies: Pick<PayoutPolicies, "get">;
  /** Every connected register's key (the registers with payouts on are among them). */
  registers(): Promise<string[]>;
  slack(team: string): Promise<webApi.WebClient | undefined>;
  languageOf(team: string): Promise<Lang>;
  /** The workspace's audit channel, if an admin set one (news of payouts made outside goes there too). */
  auditChannelOf(team: string): Promise<string | undefined>;
  audit: AuditRecorder;
  logger: Logger;
  /** BALANCE_CHECK_MS and PAYOUT_CHECK_MS. */
  balanceCheckMs: number;
  payoutCheckMs: number;
  /** One replica's claim on a register while it checks it. */
  leaseMs: number;
  /** Registers claimed per run and family. */
  batch: number;
};
