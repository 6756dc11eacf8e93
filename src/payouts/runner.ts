import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { CredentialsStore } from "../store/credentials.js";
import type { KeyvStore } from "../store/keyv.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Logger } from "../util/logger.js";
import { type PayoutPolicies, payoutPoliciesFor } from "./policy-store.js";
import { type PayoutDeps, type PayoutTiming, payoffAccounts, payoutTimingFor } from "./request-deps.js";
import { runDuePayouts } from "./worker.js";

// Every replica runs the payout worker every PAYOUT_RUN_MS; the board gives each due request to one
// claim at a time, so replicas share the work and nothing is done twice.

export type PayoutWork = {
  /** What requests, votes and the worker use (the listeners add who is an admin per request). */
  deps: PayoutDeps;
  policies: PayoutPolicies;
  runner: PayoutRunner;
};

export class PayoutRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: PayoutDeps,
    private readonly options: { intervalMs: number; now: () => Date },
  ) {}

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = runDuePayouts(this.deps, this.options.now())
        .catch((error: unknown) => this.deps.logger.error({ err: error }, "payout run failed"))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(tick, Math.min(1000, this.options.intervalMs));
  }

  /** Stops looking; a run under way finishes within `graceMs` (a claim it drops lapses to another replica). */
  async close(graceMs = 3000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
}

/** The payouts' board, policies and worker on the store (the worker not yet started). */
export async function openPayouts(
  store: KeyvStore,
  options: {
    payments: PayoutDeps["payments"];
    /** PAYMENTS_TIMEOUT_MS: a claim outlives a send (payoutTimingFor). */
    paymentsTimeoutMs: number;
    credentials: Pick<CredentialsStore, "get">;
    slack: (team: string) => Promise<webApi.WebClient | undefined>;
    audit: AuditRecorder;
    logger: Logger;
    storeTimeoutMs: number;
    intervalMs: number;
    now?: (() => Date) | undefined;
    timing?: Partial<PayoutTiming> | undefined;
  },
): Promise<PayoutWork> {
  const board = await openClaimBoard(store, DEFAULT_PREFIX, options.storeTimeoutMs);
  const policies = payoutPoliciesFor(store, options.storeTimeoutMs);
  const deps: PayoutDeps = {
    board,
    policies,
    payments: options.payments,
    account: payoffAccounts(options.credentials),
    // The worker never asks; a request's handler says who the workspace's admins are.
    isAdmin: async () => false,
    audit: options.audit,
    logger: options.logger,
    slack: options.slack,
    timing: { ...payoutTimingFor(options.paymentsTimeoutMs), ...options.timing },
  };
  const runner = new PayoutRunner(deps, {
    intervalMs: options.intervalMs,
    now: options.now ?? (() => new Date()),
  });
  return { deps, policies, runner };
}
