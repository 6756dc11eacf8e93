import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import type { KeptHistory } from "../history/kept.js";
import type { Lang } from "../i18n/lang.js";
import type { PaymentMethod } from "../payments/model.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { UsualFigures } from "./usual.js";

/** What the methods watch needs: the board, the service and the kept history, Slack, the audit trail. */
export type MethodWatchDeps = {
  board: ClaimBoard;
  payments: {
    methods(
      registerKey: string,
      options: { fresh?: boolean },
    ): Promise<{ methods: readonly PaymentMethod[] }>;
  };
  history: Pick<KeptHistory, "read">;
  slack(team: string): Promise<webApi.WebClient | undefined>;
  languageOf(team: string): Promise<Lang>;
  /** The register's name where it must be said (its workspace has several); undefined: main alone. */
  labelOf(registerKey: string): Promise<string | undefined>;
  audit: AuditRecorder;
  logger: Logger;
  clock: Clock;
  /** The zone the time of day is taken in (PAYMENTS_TIMEZONE). */
  zone: string;
  /** METHOD_CHECK_MS and METHOD_CALM_MS. */
  checkMs: number;
  calmMs: number;
  /** One replica's claim on a register while it checks it. */
  leaseMs: number;
  /** Registers claimed per pass. */
  batch: number;
  /** History pages one check may read (the first check of a register reads its 28 days). */
  maxPages: number;
  /** Each register's last whole read of the 28 days, built on for an hour (usual.ts). */
  usual: UsualFigures;
};
